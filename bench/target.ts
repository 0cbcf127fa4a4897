/**
 * `pnpm bench:target`: what measuring a system through each kind of target costs
 * (docs/benchmarks.md, "Targets"). Three measurements, each against its baseline in the same run:
 *
 * 1. Calls. On one fixture index it makes the retrieval evals' calls — every judged query in each
 *    mode (search, vsearch, fast, balanced, thorough), limit 10, trace 50 deep — on the in-process
 *    engine; on the engine wrapped as a target module (examples/targets/engine.target.ts, handed
 *    the corpus as a run hands it); and through `pnpm engine serve` (a child process on 127.0.0.1,
 *    port 0) with the contract's HTTP client and with an adapter that describes the contract's own
 *    routes (bench/contract.adapter.json: the same service, the adapter's mapping instead of the
 *    contract's reading), one call at a time, and the contract client at `--concurrency` too.
 *    Rounds alternate the systems (`--rounds`, default 3); per system the median total time, its
 *    ratio to in-process, p50/p95 per call and calls per second, and whether every ranking equals
 *    the in-process one. Goals: the module ≤ 1.05× in-process; the adapter ≤ the contract client.
 * 2. Concurrency. A stand-in that answers every contract call after a fixed 200 ms
 *    (`--latency-ms`), measured by `pnpm eval thoroughness` (the compiled suite, as a user runs it)
 *    at EVAL_TARGET_CONCURRENCY 4 and 16: the stand-in records when each call arrived and left, and
 *    the suite's wall time for its N calls (first arrival to last answer) is compared with the bound
 *    N × 200 ms ÷ concurrency. Goal: ≤ 1.2× the bound.
 *
 * Usage: pnpm bench:target [--rounds n] [--concurrency n] [--latency-ms n]
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { Engine } from "@hybrid-search/engine";
import { readContractDocuments } from "@hybrid-search/engine/serve/documents";
import { percentile } from "@hybrid-search/eval-gate/stats";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import { argumentsOrExit, parseCommandLine, positiveInteger } from "../helpers/cli-args.js";
import { judgedCases, loadDataset } from "../helpers/dataset.js";
import { buildTempIndex } from "../helpers/setup-db.js";
import { loadAdapter } from "../helpers/targets/adapter-file.js";
import { openAdapterTarget } from "../helpers/targets/adapter-target.js";
import { openHttpTarget } from "../helpers/targets/http-target.js";
import { inProcessTarget } from "../helpers/targets/in-process.js";
import { moduleTargetConfig, openModuleTarget } from "../helpers/targets/module-target.js";
import type { Target, TargetSearch } from "../helpers/targets/target.js";
import { runEval } from "../test/eval-run.js";
import { bodyOf, listen, sendJson } from "../test/stand-ins/serve.js";

const USAGE = "Usage: pnpm bench:target [--rounds n] [--concurrency n] [--latency-ms n]";
const args = argumentsOrExit("bench:target", () => {
  const { values } = parseCommandLine(
    { options: { rounds: { type: "string" }, concurrency: { type: "string" }, "latency-ms": { type: "string" } } },
    USAGE,
  );
  return {
    rounds: positiveInteger("rounds", values.rounds, 3),
    concurrency: positiveInteger("concurrency", values.concurrency, 4),
    latencyMs: positiveInteger("latency-ms", values["latency-ms"], 200),
  };
});

const dataset = loadDataset({});
const requests: TargetSearch[] = CONTRACT_MODES.flatMap((mode) =>
  judgedCases(dataset.cases).map((c) => ({ id: c.id, query: c.query, mode, limit: 10, traceDepth: 50 })),
);
const index = await buildTempIndex(dataset.corpus, { dataset: dataset.name, collection: dataset.collection });
const engine = Engine.open(index.dbPath);
const local = inProcessTarget(engine, "offline");

const server = spawn(
  resolve("node_modules/.bin/tsx"),
  ["packages/engine/src/entry.ts", "serve", "--db", index.dbPath, "--port", "0", "--concurrency", String(args.concurrency)],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
// The server is this script's child: it never outlives the script, however the script ends.
process.on("exit", () => server.kill("SIGTERM"));
const url = await new Promise<string>((ok, fail) => {
  let out = "";
  server.stdout.on("data", (d: Buffer) => {
    out += d;
    const m = /on (http:\/\/\S+)/.exec(out);
    if (m) ok(m[1]!);
  });
  server.on("exit", (code) => fail(new Error(`engine serve exited ${code}`)));
});
// No retries: a request that fails fails the benchmark, so every timed request was answered once.
const httpConfig = (concurrency: number) => ({ url, timeoutMs: 30_000, retries: 0, concurrency });
const http = (concurrency: number) => openHttpTarget(httpConfig(concurrency));
const adapter = await openAdapterTarget(httpConfig(1), loadAdapter("bench/contract.adapter.json", {}));
const engineModule = await openModuleTarget(moduleTargetConfig("examples/targets/engine.target.ts", { EVAL_TARGET_TIMEOUT_MS: "60000" }));
await engineModule.putDocuments("eval", readContractDocuments(dataset.corpus));

const systems: Array<{ name: string; target: Target; parallel: number }> = [
  { name: "in-process", target: local, parallel: 1 },
  { name: "module (the engine), concurrency 1", target: engineModule, parallel: 1 },
  { name: "http contract, concurrency 1", target: await http(1), parallel: 1 },
  { name: "http adapter of the contract, concurrency 1", target: adapter, parallel: 1 },
  { name: `http contract, concurrency ${args.concurrency}`, target: await http(args.concurrency), parallel: args.concurrency },
];

const expected = new Map<number, string>();
for (const [i, r] of requests.entries()) expected.set(i, JSON.stringify((await local.search(r)).results.map((h) => [h.docId, h.score])));

/** One pass over every request: `parallel` at a time, each timed from the client. */
async function pass(target: Target, parallel: number): Promise<{ totalMs: number; latencies: number[]; mismatches: number }> {
  const latencies: number[] = [];
  let mismatches = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      const t = performance.now();
      const r = await target.search(requests[i]!);
      latencies.push(performance.now() - t);
      if (JSON.stringify(r.results.map((h) => [h.docId, h.score])) !== expected.get(i)) mismatches++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { totalMs: performance.now() - started, latencies, mismatches };
}

const runs = new Map<string, Array<Awaited<ReturnType<typeof pass>>>>();
for (let round = 0; round < args.rounds; round++)
  for (const s of systems) runs.set(s.name, [...(runs.get(s.name) ?? []), await pass(s.target, s.parallel)]);

server.kill("SIGTERM");
engine.close();
index.remove();

const median = (xs: number[]) => percentile(xs, 50);
const totals = new Map([...runs].map(([name, rs]) => [name, median(rs.map((r) => r.totalMs))]));
const base = totals.get("in-process")!;
console.log(
  `bench:target: ${requests.length} calls (${judgedCases(dataset.cases).length} judged queries × ${CONTRACT_MODES.length} modes), ${args.rounds} rounds, engine serve at ${url}`,
);
console.log("| system | total (median) | ratio to in-process | p50 ms | p95 ms | calls/s | rankings equal |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const s of systems) {
  const rs = runs.get(s.name)!;
  const total = totals.get(s.name)!;
  const all = rs.flatMap((r) => r.latencies);
  const mismatches = rs.reduce((n, r) => n + r.mismatches, 0);
  console.log(
    `| ${s.name} | ${(total / 1000).toFixed(2)} s | ${(total / base).toFixed(3)}× | ${percentile(all, 50).toFixed(1)} | ${percentile(all, 95).toFixed(1)} | ${((requests.length / total) * 1000).toFixed(0)} | ${mismatches === 0 ? "all" : `${mismatches} differ`} |`,
  );
}
const moduleRatio = totals.get("module (the engine), concurrency 1")! / base;
const adapterRatio = totals.get("http adapter of the contract, concurrency 1")! / totals.get("http contract, concurrency 1")!;
console.log(`goal: module ≤ 1.05× in-process: ${moduleRatio.toFixed(3)}× (${moduleRatio <= 1.05 ? "met" : "missed"})`);
console.log(
  `goal: adapter ≤ the contract client (same service, same run): ${adapterRatio.toFixed(3)}× (${adapterRatio <= 1 ? "met" : "missed"})`,
);

// 2. A stand-in answering after a fixed latency, measured by the suite itself.
const calls: Array<{ arrived: number; answered: number }> = [];
const standIn = await listen((req, res) => {
  const arrived = performance.now();
  bodyOf(req).then(() => {
    if (req.url === "/health")
      return sendJson(res, 200, {
        name: "latency",
        version: "0",
        fingerprint: "latency-stand-in",
        capabilities: { modes: ["fast", "balanced", "thorough"], ask: false, expand: false, documents: false, trace: false },
      });
    setTimeout(() => {
      sendJson(res, 200, { results: [] });
      calls.push({ arrived, answered: performance.now() });
    }, args.latencyMs);
  });
});
console.log(
  `\n| concurrency | calls N | suite's wall for them | bound N × ${args.latencyMs} ms ÷ concurrency | ratio | pnpm eval thoroughness, whole |`,
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const concurrency of [4, 16]) {
  calls.length = 0;
  const started = performance.now();
  const r = await runEval(["thoroughness"], {
    EVAL_TARGET: standIn.url,
    EVAL_TARGET_NAME: "latency",
    EVAL_TARGET_CONCURRENCY: String(concurrency),
    EVAL_TARGET_RETRIES: "0",
  });
  const whole = performance.now() - started;
  rmSync(r.dir, { recursive: true, force: true });
  if (calls.length === 0) throw new Error(`pnpm eval made no call (exit ${r.code}): ${r.stderr.slice(-500)}`);
  const wall = Math.max(...calls.map((c) => c.answered)) - Math.min(...calls.map((c) => c.arrived));
  const bound = (calls.length * args.latencyMs) / concurrency;
  console.log(
    `| ${concurrency} | ${calls.length} | ${(wall / 1000).toFixed(2)} s | ${(bound / 1000).toFixed(2)} s | ${(wall / bound).toFixed(3)}× (${wall / bound <= 1.2 ? "met" : "missed"}) | ${(whole / 1000).toFixed(1)} s, exit ${r.code} |`,
  );
}
await standIn.stop();
