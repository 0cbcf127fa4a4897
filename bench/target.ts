/**
 * `pnpm bench:target`: the cost of measuring the engine over HTTP (docs/benchmarks.md, "Targets
 * over HTTP"). On one fixture index, in one run, it makes the retrieval evals' calls — every judged
 * query in each mode (search, vsearch, fast, balanced, thorough), limit 10, trace 50 deep — in
 * process and through `pnpm engine serve` (a child process on 127.0.0.1, port 0) with the suite's
 * HTTP target, at concurrency 1 (as in-process, one call at a time) and at `--concurrency`
 * (default 4, the HTTP target's default). Rounds alternate the systems (`--rounds`, default 3);
 * it prints per system the median total time, its ratio to in-process, p50/p95 per request
 * (client-measured) and requests per second, and checks that every ranking matched in-process.
 *
 * Usage: pnpm bench:target [--rounds n] [--concurrency n]
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { Engine } from "@hybrid-search/engine";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import { percentile } from "@hybrid-search/eval-gate/stats";
import { argumentsOrExit, parseCommandLine, positiveInteger } from "../helpers/cli-args.js";
import { judgedCases, loadDataset } from "../helpers/dataset.js";
import { buildTempIndex } from "../helpers/setup-db.js";
import { openHttpTarget } from "../helpers/targets/http-target.js";
import { inProcessTarget } from "../helpers/targets/in-process.js";
import type { Target, TargetSearch } from "../helpers/targets/target.js";

const USAGE = "Usage: pnpm bench:target [--rounds n] [--concurrency n]";
const args = argumentsOrExit("bench:target", () => {
  const { values } = parseCommandLine({ options: { rounds: { type: "string" }, concurrency: { type: "string" } } }, USAGE);
  return { rounds: positiveInteger("rounds", values.rounds, 3), concurrency: positiveInteger("concurrency", values.concurrency, 4) };
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
  ["packages/engine/src/cli.ts", "serve", "--db", index.dbPath, "--port", "0", "--concurrency", String(args.concurrency)],
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
const http = (concurrency: number) => openHttpTarget({ url, timeoutMs: 30_000, retries: 0, concurrency });
const systems: Array<{ name: string; target: Target; parallel: number }> = [
  { name: "in-process", target: local, parallel: 1 },
  { name: "http, concurrency 1", target: await http(1), parallel: 1 },
  { name: `http, concurrency ${args.concurrency}`, target: await http(args.concurrency), parallel: args.concurrency },
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
const base = median(runs.get("in-process")!.map((r) => r.totalMs));
console.log(
  `bench:target: ${requests.length} requests (${judgedCases(dataset.cases).length} judged queries × ${CONTRACT_MODES.length} modes), ${args.rounds} rounds, engine serve at ${url}`,
);
console.log("| system | total (median) | ratio | p50 ms | p95 ms | requests/s | rankings equal |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const s of systems) {
  const rs = runs.get(s.name)!;
  const total = median(rs.map((r) => r.totalMs));
  const all = rs.flatMap((r) => r.latencies);
  const mismatches = rs.reduce((n, r) => n + r.mismatches, 0);
  console.log(
    `| ${s.name} | ${(total / 1000).toFixed(2)} s | ${(total / base).toFixed(2)}× | ${percentile(all, 50).toFixed(1)} | ${percentile(all, 95).toFixed(1)} | ${((requests.length / total) * 1000).toFixed(0)} | ${mismatches === 0 ? "all" : `${mismatches} differ`} |`,
  );
}
