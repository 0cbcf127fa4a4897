/**
 * Several `pnpm eval` runs at once in one folder, as CI jobs and a developer's terminals start
 * them: each finishes with its own verdict and its own report, though they share Evalite's
 * storage (one SQLite file) and the reports folder, and none listens on a TCP port (Evalite's
 * server carries only the model cache, on a Unix socket of the run's own: helpers/evalite-socket.ts).
 * Where a UI server is wanted (`evalite run`/`serve`/`watch`, `pnpm eval:watch`), it binds before
 * it says a port, so two started together never die of EADDRINUSE.
 * The runs are of `expansion`, a one-file filter with no index of its own to build, so five at
 * once stay cheap. The model cache (helpers/model-cache.ts, beside the storage) works across runs: a second run replays every call.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Report } from "@hybrid-search/eval-gate/report";
import { afterAll, describe, expect, it } from "vitest";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { treeListeningPorts } from "../bench/lib/process-tree.js";
import { ROOT, RUN_TIMEOUT_MS, runEval, type EvalRun } from "./eval-run.js";
import { startStubServer } from "./stub-openai-server.js";

const FILTER = "expansion";
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `count` runs of `pnpm eval expansion` started together on one storage file and one reports folder. */
async function together(count: number): Promise<{ runs: EvalRun[]; reportsDir: string }> {
  const shared = mkdtempSync(join(tmpdir(), "eval-together-"));
  dirs.push(shared);
  const reportsDir = join(shared, "reports");
  // Every run with Evalite's configuration as it stands (EVALITE_PORT as the caller's environment has it), as CI jobs start them.
  const env = { EVALITE_STORAGE: join(shared, "evalite.db"), EVAL_REPORTS_DIR: reportsDir };
  const runs = await Promise.all(Array.from({ length: count }, () => runEval([FILTER], env)));
  dirs.push(...runs.map((r) => r.dir));
  return { runs, reportsDir };
}

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
    const verdict = /^eval: (PASS; exit 0|FAIL \(\d+ latency ceiling\(s\) exceeded or went missing\); exit 1)$/m.exec(run.stdout);
    expect(verdict, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).not.toBeNull();
    expect(run.code).toBe(verdict![1]!.startsWith("PASS") ? 0 : 1);
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
    "two runs each finish with their own report",
    async () => {
      const { runs, reportsDir } = await together(2);
      checkOwnReports(runs, reportsDir);
    },
    RUN_TIMEOUT_MS * 2,
  );

  it(
    "five runs each finish with their own report",
    async () => {
      const { runs, reportsDir } = await together(5);
      checkOwnReports(runs, reportsDir);
    },
    RUN_TIMEOUT_MS * 3,
  );
});

/** Evalite's own CLI (`evalite run <file>`), with `env` over this process's environment; what it printed and returned. */
async function evaliteRun(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(join(ROOT, "node_modules/.bin/evalite"), ["run", file], {
    cwd: ROOT,
    env: { ...process.env, EVAL_GATED: "", EVAL_SELECTED_FILES: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

/** A port that nothing listened on a moment ago (the system picked it). */
async function unusedPort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

describe("Evalite's UI server where one is wanted", () => {
  it(
    "two `evalite run`s configured for one port both finish: the server binds first and falls back on EADDRINUSE, saying to which port",
    async () => {
      const shared = mkdtempSync(join(tmpdir(), "evalite-port-"));
      dirs.push(shared);
      const port = await unusedPort();
      const runs = await Promise.all(
        [1, 2].map((i) => evaliteRun(`evals/${FILTER}.eval.ts`, { EVALITE_PORT: String(port), EVALITE_STORAGE: join(shared, `${i}.db`) })),
      );
      for (const run of runs) {
        expect(run.code, run.output.slice(-3000)).toBe(0);
        expect(run.output).not.toContain("EADDRINUSE");
      }
      // A run that found the port taken names the one it bound instead, one of the three after it.
      const fallbacks = runs.flatMap((r) => [...stripAnsi(r.output).matchAll(/^Port (\d+) unavailable, using port (\d+)$/gm)]);
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
      const shared = mkdtempSync(join(tmpdir(), "evalite-port-"));
      dirs.push(shared);
      const run = await evaliteRun(`evals/${FILTER}.eval.ts`, { EVALITE_PORT: "0", EVALITE_STORAGE: join(shared, "evalite.db") });
      expect(run.code, run.output.slice(-3000)).toBe(0);
      expect(stripAnsi(run.output)).toMatch(/^Port 0: using port [1-9]\d*, picked by the system$/m);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("the model cache across runs", () => {
  it(
    "a second run beside the same storage replays every model call from the cache (0 requests to the model)",
    async () => {
      const shared = mkdtempSync(join(tmpdir(), "eval-cache-"));
      dirs.push(shared);
      const stub = await startStubServer("good");
      try {
        const env = {
          OPENAI_COMPATIBLE_BASE_URL: stub.url,
          OPENAI_COMPATIBLE_API_KEY: "sk-stub",
          ENGINE_MODEL: "stub-model",
          EVALITE_STORAGE: join(shared, "evalite.db"),
        };
        const first = await runEval([FILTER], env);
        dirs.push(first.dir);
        expect(first.code, first.stdout.slice(-2000)).toBe(0);
        const called = stub.requests.length;
        expect(called).toBeGreaterThan(0);
        const second = await runEval([FILTER], env);
        dirs.push(second.dir);
        expect(second.code, second.stdout.slice(-2000)).toBe(0);
        expect(stub.requests.length - called).toBe(0);
        expect(`${first.stdout}${first.stderr}${second.stdout}${second.stderr}`).not.toMatch(/Cache (fetch|write) failed/);
      } finally {
        await stub.close();
      }
    },
    RUN_TIMEOUT_MS,
  );
});

describe.skipIf(process.platform !== "linux")("pnpm eval and the network (Linux /proc)", () => {
  it(
    "listens on no TCP port, in its own process or its workers, from start to verdict",
    async () => {
      const seen = new Set<number>();
      let watching: NodeJS.Timeout | undefined;
      const run = await runEval([FILTER], {}, (child) => {
        watching = setInterval(() => {
          for (const port of treeListeningPorts(child.pid!)) seen.add(port);
        }, 20);
      });
      clearInterval(watching);
      dirs.push(run.dir);
      expect(run.code, run.stdout.slice(-2000)).toBe(0);
      expect([...seen]).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});
