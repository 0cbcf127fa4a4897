/**
 * Golden tests against NIST trec_eval 10.0: replays the commands of trec_eval's own `quicktest`
 * (its Makefile) through the command line's `main` (in process: the code `pnpm trec-eval` runs,
 * with each `test/...` file taken from the conformance folder; test/compiled-clis.test.ts replays
 * the first command through the compiled CLI itself), and compares our stdout line for line with
 * the expected output, restricted to the lines of measures we support (today every line of the
 * replayed files).
 *
 * The data lives outside the repository (never copied in). Where it is:
 *   TREC_EVAL_CONFORMANCE_DIR  a folder holding trec_eval's `test/` folder (a checkout of
 *                              usnistgov/trec_eval, or its `test/` folder itself);
 *                              default ../shared/conformance/trec_eval beside the repository.
 *   REQUIRE_CONFORMANCE=1      missing data fails the run (CI sets it); otherwise it is skipped, loudly.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_COVERAGE } from "../src/measure-docs.js";
import { MEASURES } from "../src/registry.js";
import { type Outcome, runCommandLine } from "./command-line.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const configured = resolve(repoRoot, process.env.TREC_EVAL_CONFORMANCE_DIR?.trim() || "../shared/conformance/trec_eval");
/** The folder the commands run from: the one that holds `test/` (given the `test/` folder itself, its parent). */
const dataDir = basename(configured) === "test" && existsSync(resolve(configured, "out.test")) ? dirname(configured) : configured;

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

/** The `quicktest` target of trec_eval 10.0's Makefile: each command and the file its stdout must equal. */
const QUICKTEST: ReadonlyArray<readonly [expected: string, command: string]> = [
  ["test/out.test", "test/qrels.test test/results.test"],
  ["test/out.test", "test/qrels.test.with-comments test/results.test"],
  ["test/out.comment.test", "test/qrels.comment.test test/results.comment.test"],
  ["test/out.test.a", "-m all_trec test/qrels.test test/results.test"],
  ["test/out.test.aq", "-m all_trec -q test/qrels.test test/results.test"],
  ["test/out.test.aqc", "-m all_trec -q -c test/qrels.test test/results.trunc"],
  ["test/out.test.aqcM", "-m all_trec -q -c -M100 test/qrels.test test/results.trunc"],
  ["test/out.test.aql", "-m all_trec -mrelstring.20 -q -l2 test/qrels.rel_level test/results.test"],
  ["test/out.test.prefs", "-m all_prefs -q -R prefs test/prefs.test test/prefs.results.test"],
  ["test/out.test.prefs", "-m all_prefs -q -R prefs test/prefs.comment.test test/prefs.results.test"],
  ["test/out.test.qrels_prefs", "-m all_prefs -q -R qrels_prefs test/qrels.test test/results.test"],
  ["test/out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg test/qrels.123 test/results.test"],
  ["test/out.test.qrels_jg", "-m qrels_jg -q -R qrels_jg test/qrels.comments.123 test/results.test"],
  [
    "test/out.test.meas_params",
    "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 test/qrels.test test/results.test",
  ],
  ["test/out.test.aqZ", "-q -m all_trec -Z test/zscores_file test/qrels.test test/results.test"],
];

function quicktestCommands(): Command[] {
  return QUICKTEST.map(([expected, command]) => ({ expected, args: command.split(/\s+/) }));
}

/** A quicktest command as run from the conformance folder: its `test/...` files are found there. */
function runCli(args: readonly string[]): Outcome {
  return runCommandLine(args.map((arg) => (arg.startsWith("test/") ? resolve(dataDir, arg) : arg)));
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

const present = existsSync(resolve(dataDir, "test/out.test"));
const required = process.env.REQUIRE_CONFORMANCE === "1";
if (!present && !required) {
  console.warn(
    `\n*** SKIPPED trec_eval conformance tests: no test/out.test under ${dataDir}. Set TREC_EVAL_CONFORMANCE_DIR to a ` +
      "checkout of usnistgov/trec_eval (or its test/ folder); REQUIRE_CONFORMANCE=1 makes missing data a failure. ***\n",
  );
}

if (!present && required) {
  describe("trec_eval 10.0 conformance", () => {
    it("has its data (REQUIRE_CONFORMANCE=1)", () => {
      expect.fail(`REQUIRE_CONFORMANCE=1 but there is no test/out.test under ${dataDir} (TREC_EVAL_CONFORMANCE_DIR)`);
    });
  });
}

(present ? describe : describe.skip)("trec_eval 10.0 conformance (quicktest commands through pnpm trec-eval)", () => {
  const commands = quicktestCommands();

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

  /*
   * num_rel's summary under -c with a relevance level other than 1. trec_eval 10.0 has no expected
   * file for it, so the expected number is derived from its source: m_num_rel.c gives num_rel a
   * calc_avg hook of its own, te_calc_avg_num_rel, which (only when -c is given,
   * epi->average_complete_flag) replaces the summed per-topic values by a recount over every topic
   * of the qrels (all_rel_info) of the judgments with `rel > 0`. It never looks at -l
   * (epi->relevance_level), while the per-topic values (te_calc_num_rel via te_form_res_rels)
   * count grade >= -l. So the `all` line is the number of qrels lines with a grade above 0,
   * counted here straight from the file, while -q lines follow -l.
   */
  for (const level of ["2", "0"]) {
    it(`num_rel under -c -l${level} sums judgments with grade > 0 over all judged topics, as trec_eval's te_calc_avg_num_rel`, () => {
      const qrelsLines = readFileSync(resolve(dataDir, "test/qrels.rel_level"), "latin1")
        .split("\n")
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f.length === 4);
      const positive = qrelsLines.filter((f) => Number(f[3]) > 0).length;
      const atLevel = qrelsLines.filter((f) => Number(f[3]) >= Number(level)).length;
      expect(positive).not.toBe(atLevel); // the case tells the two rules apart
      const r = runCli(["-c", `-l${level}`, "-q", "-m", "num_rel", "test/qrels.rel_level", "test/results.test"]);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      expect(lines.at(-1)).toBe(`num_rel               \tall\t${positive}`);
      // The per-topic lines still count grade >= -l.
      const perTopic = lines.slice(0, -1).reduce((sum, line) => sum + Number(line.split("\t")[2]), 0);
      expect(perTopic).toBe(atLevel);
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
