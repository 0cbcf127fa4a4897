/**
 * Golden tests against NIST trec_eval 10.0: replays every command of the conformance README
 * through the real CLI (`tsx bin/trec-eval.ts`, what `pnpm trec-eval` runs) from the conformance
 * folder, and compares our stdout line for line with the expected output, restricted to the
 * lines of measures we support (today that is every line of the replayed files).
 *
 * The data lives outside the repository (../shared/conformance/trec_eval, never copied in);
 * without it this suite is skipped, loudly.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_COVERAGE } from "../../scorers/ir/measure-docs.js";
import { MEASURES } from "../../scorers/ir/registry.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dataDir = resolve(repoRoot, "../shared/conformance/trec_eval");
const readme = resolve(dataDir, "README.md");
const tsx = resolve(repoRoot, "node_modules/.bin/tsx");
const cli = resolve(repoRoot, "bin/trec-eval.ts");

/** README commands we cannot replay, and why (they need formats or options we do not implement). */
const NOT_REPLAYED: Record<string, string> = {
  "test/out.test.prefs": "preference rel_info format (-R prefs) and prefs measures",
  "test/out.test.qrels_prefs": "-R qrels_prefs and prefs measures",
  "test/out.test.qrels_jg": "-R qrels_jg and judgment-group measures",
  "test/out.test.aqZ": "-Z z-score output",
};

interface Command {
  expected: string;
  args: string[];
}

/** Rows of the README table `| \`expected\` ... | \`trec_eval ...\` |`. */
function readmeCommands(): Command[] {
  const rows: Command[] = [];
  for (const line of readFileSync(readme, "utf8").split("\n")) {
    const m = /^\| `(test\/[^`]+)`[^|]*\| `trec_eval ([^`]+)` \|$/.exec(line);
    if (m) rows.push({ expected: m[1]!, args: m[2]!.trim().split(/\s+/) });
  }
  return rows;
}

function runCli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(tsx, [cli, ...args], { cwd: dataDir, encoding: "latin1", maxBuffer: 64 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The measure an output line belongs to (longest id matching `id` or `id_<param>`), if we implement it. */
function measureOf(line: string): string | undefined {
  const name = line.split("\t")[0]!.trim();
  let best: string | undefined;
  for (const { id } of MEASURES) if ((name === id || name.startsWith(`${id}_`)) && id.length > (best?.length ?? 0)) best = id;
  return best;
}

function isSupportedLine(line: string): boolean {
  return measureOf(line) !== undefined;
}

const present = existsSync(readme);
if (!present) {
  console.warn(
    `\n*** SKIPPED trec_eval conformance tests: ${dataDir} not found. These tests replay NIST trec_eval's own ` +
      "expected outputs and only run where the shared conformance data is checked out beside the repo. ***\n",
  );
}

(present ? describe : describe.skip)("trec_eval 10.0 conformance (README commands through pnpm trec-eval)", () => {
  const commands = present ? readmeCommands() : [];

  it("finds the README's command table", () => {
    expect(commands.length).toBeGreaterThanOrEqual(15);
  });

  for (const { expected, args } of commands) {
    const reason = NOT_REPLAYED[expected];
    if (reason) {
      it(`refuses in one line what it does not implement (${reason}): trec_eval ${args.join(" ")}`, () => {
        const r = runCli(args);
        expect(r.status).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
        expect(r.stderr).toMatch(/^trec-eval: /);
      });
      continue;
    }
    it(`${expected} <- trec_eval ${args.join(" ")}`, () => {
      const want = readFileSync(resolve(dataDir, expected), "latin1")
        .split("\n")
        .filter((l) => l !== "" && isSupportedLine(l));
      const r = runCli(args);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const got = r.stdout.split("\n").filter((l) => l !== "");
      // Line for line: same count, same order, same bytes.
      expect(got.length).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(got[i], `line ${i + 1}`).toBe(want[i]);
    });
  }

  it("docs/metrics.md lists exactly the conformance files that hold each measure", () => {
    const files = [...new Set(commands.filter((c) => !NOT_REPLAYED[c.expected]).map((c) => c.expected))];
    const actual: Record<string, string[]> = {};
    for (const f of files) {
      const ids = new Set(
        readFileSync(resolve(dataDir, f), "latin1")
          .split("\n")
          .filter((l) => l !== "")
          .map(measureOf),
      );
      for (const id of ids) if (id) (actual[id] ??= []).push(f.replace("test/", ""));
    }
    const documented = Object.fromEntries(Object.entries(CONFORMANCE_COVERAGE).map(([id, fs]) => [id, [...fs].sort()]));
    expect(Object.fromEntries(Object.entries(actual).map(([id, fs]) => [id, fs.sort()]))).toEqual(documented);
  });

  it("replays every README command except the documented exceptions", () => {
    const replayed = commands.filter((c) => !NOT_REPLAYED[c.expected]).map((c) => c.expected);
    expect(new Set(replayed)).toEqual(
      new Set([
        "test/out.test",
        "test/out.comment.test",
        "test/out.test.a",
        "test/out.test.aq",
        "test/out.test.aqc",
        "test/out.test.aqcM",
        "test/out.test.aql",
        "test/out.test.meas_params",
      ]),
    );
  });
});
