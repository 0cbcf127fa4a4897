/**
 * Several `pnpm eval` runs at once in one folder, as CI jobs and a developer's terminals start
 * them: each finishes with its own verdict and its own report, though they share Evalite's
 * storage (one SQLite file) and the reports folder, and none listens on a TCP port (Evalite's
 * server carries only the model cache, on a Unix socket of the run's own: helpers/evalite-socket.ts).
 * Where a UI server is wanted (`evalite run`/`serve`/`watch`, `pnpm eval:watch`), it binds before
 * it says a port, so two started together never die of EADDRINUSE.
 * The runs are of `expansion`, a one-file filter with no index of its own to build, so several at
 * once stay cheap; three start together (test/shared-runs/configurations/concurrency.ts), more
 * than two so that no pairing hides what a third run would meet. The model cache
 * (helpers/model-cache.ts, beside the storage) works across runs: a second run replays every call
 * (the answer eval's runs of judge-cost-e2e.test.ts, `models:answers`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Report } from "@hybrid-search/eval-gate/report";
import { describe, expect, it } from "vitest";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { type EvalRun, ROOT, RUN_TIMEOUT_MS } from "./eval-run.js";
import { TOGETHER } from "./shared-runs/configurations/concurrency.js";
import { sharedRun } from "./shared-runs/read.js";

const FILTER = "expansion";
const together = sharedRun("concurrent:together");
const evalitePort = sharedRun("concurrent:evalite-port");
/** A plain `evalite run evals/search.eval.ts` with EVALITE_PORT=0 (eval-suite.test.ts reads it too). */
const portZero = sharedRun("evalite-run:search");
const cached = sharedRun("models:answers");

/** The report a run's `report:` line names, read from the reports folder. */
function reportOf(run: EvalRun): { path: string; report: Report } {
  const named = /^report: (\S+\.json) /m.exec(run.stdout)?.[1];
  expect(named, run.stdout.slice(-2000)).toBeDefined();
  const path = resolve(ROOT, named!);
  return { path, report: JSON.parse(readFileSync(path, "utf8")) as Report };
}

function checkOwnReports(runs: EvalRun[], reportsDir: string): void {
  for (const run of runs) {
    // Runs started together slow each other down, and the latency ceilings say so truthfully on a
    // busy machine: that verdict is the gate working. Any other failure is the runs' interference.
    // A run in a mode without floors holds no bar: NOT GATED, exit 0 (never PASS).
    const verdict =
      /^eval: (PASS; exit 0|NOT GATED \(\d+ of \d+ cases pass; .*\); exit 0|FAIL \(\d+ latency ceiling\(s\) exceeded or went missing\); exit 1)$/m.exec(
        run.stdout,
      );
    expect(verdict, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).not.toBeNull();
    expect(run.code).toBe(verdict![1]!.startsWith("FAIL") ? 1 : 0);
    expect(run.stderr).not.toMatch(/EADDRINUSE|SQLITE_BUSY|database is locked/);
  }
  // One report set per run, none overwritten: each run's report holds its own arguments (its --outputPath).
  const reports = runs.map(reportOf);
  expect(new Set(reports.map((r) => r.path)).size).toBe(runs.length);
  reports.forEach(({ report }, i) => {
    expect(report.args).toContain(join(runs[i]!.dir, "results.json"));
  });
  expect(readdirSync(reportsDir).filter((f) => f.endsWith(".json"))).toHaveLength(runs.length);
  // Each gate read back the run its own Evalite made (recorded run ids), not the storage's latest.
  const runIds = runs.map((r) => r.output?.run.id);
  expect(runIds.every((id) => typeof id === "number")).toBe(true);
  expect(new Set(runIds).size).toBe(runs.length);
  for (const run of runs)
    expect(run.output!.suites.map((s) => s.filepath)).toEqual(run.output!.suites.map(() => join(ROOT, `evals/${FILTER}.eval.ts`)));
}

describe("pnpm eval runs started together in one folder", () => {
  it(
    `${TOGETHER} runs each finish with their own report`,
    async () => {
      const runs = await Promise.all(Array.from({ length: TOGETHER }, (_, i) => together.run(`run ${i + 1}`)));
      checkOwnReports(runs, await together.fact<string>("reportsDir"));
    },
    RUN_TIMEOUT_MS,
  );
});

describe("Evalite's UI server where one is wanted", () => {
  it(
    "two `evalite run`s configured for one port both finish: the server binds first and falls back on EADDRINUSE, saying to which port",
    async () => {
      const port = await evalitePort.fact<number>("port");
      const runs = await Promise.all([1, 2].map((i) => evalitePort.command(`run ${i}`)));
      for (const run of runs) {
        const output = run.stdout + run.stderr;
        expect(run.code, output.slice(-3000)).toBe(0);
        expect(output).not.toContain("EADDRINUSE");
      }
      // A run that found the port taken names the one it bound instead, one of the three after it.
      const fallbacks = runs.flatMap((r) => [...stripAnsi(r.stdout + r.stderr).matchAll(/^Port (\d+) unavailable, using port (\d+)$/gm)]);
      for (const [, wanted, used] of fallbacks) {
        expect(Number(wanted)).toBe(port);
        expect(Number(used)).toBeGreaterThan(port);
        expect(Number(used)).toBeLessThanOrEqual(port + 3);
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "port 0 binds a port the system picks and says which",
    async () => {
      const run = await portZero.command("main");
      const output = run.stdout + run.stderr;
      expect(run.code, output.slice(-3000)).toBe(0);
      expect(stripAnsi(output)).toMatch(/^Port 0: using port [1-9]\d*, picked by the system$/m);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("the model cache across runs", () => {
  it(
    "a second run beside the same storage replays every model call from the cache (0 requests to the model)",
    async () => {
      const first = await cached.run("first");
      const second = await cached.run("second");
      expect(first.code, first.stdout.slice(-2000)).toBe(0);
      expect(second.code, second.stdout.slice(-2000)).toBe(0);
      expect(await cached.fact("secondCalls")).toBe(0);
      expect(`${first.stdout}${first.stderr}${second.stdout}${second.stderr}`).not.toMatch(/Cache (fetch|write) failed/);
    },
    RUN_TIMEOUT_MS,
  );
});

describe.skipIf(process.platform !== "linux")("pnpm eval and the network (Linux /proc)", () => {
  it(
    "listens on no TCP port, in its own process or its workers, from start to verdict",
    async () => {
      // Each of the runs started together, watched every 20 ms from its start to its end.
      const runs = await Promise.all(Array.from({ length: TOGETHER }, (_, i) => together.run(`run ${i + 1}`)));
      for (const run of runs) expect(run.code, run.stdout.slice(-2000)).toBe(0);
      expect(await together.fact<number[][]>("ports")).toEqual(Array.from({ length: TOGETHER }, () => []));
    },
    RUN_TIMEOUT_MS,
  );
});
