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
 *    Each round runs every system once, in the opposite order to the round before (`--rounds`,
 *    default 9); per system the median total time, the median, lowest and highest of its per-round
 *    ratio to in-process (each round's ratio compares passes made minutes apart at most, so the
 *    machine's load moves both), p50/p95 per call, calls per second, and whether every ranking
 *    equals the in-process one; the sum of each call's median time across rounds (a call slowed by
 *    other work in one round counts at its usual time) and its ratio to in-process; for the module,
 *    also its ratio in this process's CPU time (every thread's: the module runs in a worker thread of
 *    its own, helpers/targets/module-thread.ts), and the time its thread takes to start and load the
 *    module. Goals: the module ≤ 1.05× in-process; the adapter ≤ the contract client.
 * 2. Concurrency. A stand-in that answers every contract call after a fixed 200 ms
 *    (`--latency-ms`), measured by `pnpm eval thoroughness` (the compiled suite, as a user runs it)
 *    at EVAL_TARGET_CONCURRENCY 4 and 16: the stand-in records when each call arrived and left, and
 *    the suite's wall time for its N calls (first arrival to last answer) is compared with the bound
 *    N × 200 ms ÷ concurrency; `--eval-rounds` rounds (default 3), alternating which concurrency
 *    goes first, and beside each the wall of the same N calls made by the contract's client alone
 *    (no suite) at that concurrency, in the same round: what this machine's load allows. "Slots
 *    busy" is the stand-in's time with calls in flight over the wall × concurrency: below 100 %, the
 *    client was late sending the next call. Goal: ≤ 1.2× the bound. The load average is printed with each half.
 *
 * Usage: pnpm bench:target [--rounds n] [--eval-rounds n] [--concurrency n] [--latency-ms n]
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { Engine } from "@hybrid-search/engine";
import { readContractDocuments } from "@hybrid-search/engine/serve/documents";
import { percentile } from "@hybrid-search/eval-gate/stats";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import { argumentsOrExit, parseCommandLine, positiveInteger } from "../bin/lib/cli-args.js";
import { judgedCases, loadDataset } from "../helpers/dataset.js";
import { buildTempIndex } from "../helpers/setup-db.js";
import { loadAdapter } from "../helpers/targets/adapter-file.js";
import { openAdapterTarget } from "../helpers/targets/adapter-target.js";
import { openHttpTarget } from "../helpers/targets/http-target.js";
import { inProcessTarget } from "../helpers/targets/kinds/in-process.js";
import { moduleTargetConfig } from "../helpers/targets/module-config.js";
import { openModuleTarget } from "../helpers/targets/module-target.js";
import type { Target, TargetSearch } from "../helpers/targets/target.js";
import { runEval } from "../test/eval-run.js";
import { bodyOf, listen, sendJson } from "../test/stand-ins/serve.js";

const USAGE = "Usage: pnpm bench:target [--rounds n] [--eval-rounds n] [--concurrency n] [--latency-ms n]";
const args = argumentsOrExit("bench:target", () => {
  const { values } = parseCommandLine(
    {
      options: {
        rounds: { type: "string" },
        "eval-rounds": { type: "string" },
        concurrency: { type: "string" },
        "latency-ms": { type: "string" },
      },
    },
    USAGE,
  );
  return {
    rounds: positiveInteger("rounds", values.rounds, 9),
    evalRounds: positiveInteger("eval-rounds", values["eval-rounds"], 3),
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
const named = (name: string) => name;
const http = (concurrency: number) => openHttpTarget(httpConfig(concurrency), named);
const adapter = await openAdapterTarget(httpConfig(1), loadAdapter("bench/contract.adapter.json", {}), named);
// The module runs in a worker thread of its own (helpers/targets/module-thread.ts): starting it and
// loading the module, then handing it the corpus, are timed apart from its calls.
const moduleStart = performance.now();
const engineModule = await openModuleTarget(
  moduleTargetConfig("examples/targets/engine.target.ts", { EVAL_TARGET_TIMEOUT_MS: "60000" }),
  named,
);
const moduleStartMs = performance.now() - moduleStart;
const moduleSeed = performance.now();
await engineModule.putDocuments("eval", readContractDocuments(dataset.corpus));
const moduleSeedMs = performance.now() - moduleSeed;

const systems: Array<{ name: string; target: Target; parallel: number }> = [
  { name: "in-process", target: local, parallel: 1 },
  { name: "module (the engine), concurrency 1", target: engineModule, parallel: 1 },
  { name: "http contract, concurrency 1", target: await http(1), parallel: 1 },
  { name: "http adapter of the contract, concurrency 1", target: adapter, parallel: 1 },
  { name: `http contract, concurrency ${args.concurrency}`, target: await http(args.concurrency), parallel: args.concurrency },
];

const expected = new Map<number, string>();
for (const [i, r] of requests.entries())
  expected.set(i, JSON.stringify((await local.search(r)).message.results.map((h) => [h.docId, h.score])));

/** One pass over every request: `parallel` at a time, each timed from the client. */
async function pass(
  target: Target,
  parallel: number,
): Promise<{ totalMs: number; cpuMs: number; latencies: number[]; mismatches: number }> {
  const latencies: number[] = [];
  let mismatches = 0;
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      const t = performance.now();
      const r = await target.search(requests[i]!);
      latencies[i] = performance.now() - t;
      if (JSON.stringify(r.message.results.map((h) => [h.docId, h.score])) !== expected.get(i)) mismatches++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  const used = process.cpuUsage(cpu);
  return { totalMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, latencies, mismatches };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
const loadBefore = load();
const runs = new Map<string, Array<Awaited<ReturnType<typeof pass>>>>(systems.map((s) => [s.name, []]));
for (let round = 0; round < args.rounds; round++)
  for (const s of round % 2 === 0 ? systems : [...systems].reverse()) runs.get(s.name)!.push(await pass(s.target, s.parallel));

server.kill("SIGTERM");
engine.close();
index.remove();

const median = (xs: number[]) => percentile(xs, 50);
/** The median, lowest and highest of `a`'s per-round total time over `b`'s. */
const roundRatios = (a: string, b: string, of: "totalMs" | "cpuMs" = "totalMs") => {
  const as = runs.get(a)!;
  const bs = runs.get(b)!;
  const ratios = as.map((r, i) => r[of] / bs[i]![of]);
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
};
/**
 * The sum over calls of each call's median time across rounds: a total in which a call slowed by
 * the machine's other work in one round counts at its usual time.
 */
const callMedians = (name: string) => requests.reduce((sum, _, i) => sum + median(runs.get(name)!.map((r) => r.latencies[i]!)), 0);
const spread = (r: ReturnType<typeof roundRatios>) => `${r.median.toFixed(3)}× (${r.low.toFixed(3)}–${r.high.toFixed(3)})`;
console.log(
  `bench:target: ${requests.length} calls (${judgedCases(dataset.cases).length} judged queries × ${CONTRACT_MODES.length} modes), ${args.rounds} rounds alternating the order, engine serve at ${url}; load average ${loadBefore} before, ${load()} after`,
);
console.log(
  "| system | total (median) | ratio to in-process, per round: median (lowest–highest) | sum of per-call medians, ratio to in-process | p50 ms | p95 ms | calls/s | rankings equal |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const s of systems) {
  const rs = runs.get(s.name)!;
  const total = median(rs.map((r) => r.totalMs));
  const all = rs.flatMap((r) => r.latencies);
  const mismatches = rs.reduce((n, r) => n + r.mismatches, 0);
  console.log(
    `| ${s.name} | ${(total / 1000).toFixed(2)} s | ${spread(roundRatios(s.name, "in-process"))} | ${s.parallel > 1 ? "— (calls overlap)" : `${(callMedians(s.name) / 1000).toFixed(2)} s, ${(callMedians(s.name) / callMedians("in-process")).toFixed(3)}×`} | ${percentile(all, 50).toFixed(2)} | ${percentile(all, 95).toFixed(2)} | ${((requests.length / total) * 1000).toFixed(0)} | ${mismatches === 0 ? "all" : `${mismatches} differ`} |`,
  );
}
const moduleRatio = roundRatios("module (the engine), concurrency 1", "in-process");
const adapterRatio = roundRatios("http adapter of the contract, concurrency 1", "http contract, concurrency 1");
console.log(`goal: module ≤ 1.05× in-process: ${spread(moduleRatio)} (${moduleRatio.median <= 1.05 ? "met" : "missed"})`);
console.log(
  `module thread: started and the module loaded in ${moduleStartMs.toFixed(0)} ms, handed the corpus in ${moduleSeedMs.toFixed(0)} ms (once per process of a run)`,
);
// Both run in this process, so its CPU time is theirs and, unlike the wall time, not stretched
// while the machine's other work holds the cores; an HTTP system's work is partly in the server.
console.log(
  `module ÷ in-process in this process's CPU time, per round: ${spread(roundRatios("module (the engine), concurrency 1", "in-process", "cpuMs"))}`,
);
console.log(
  `goal: adapter ≤ the contract client (same service, same run): ${spread(adapterRatio)} (${adapterRatio.median <= 1 ? "met" : "missed"})`,
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
/** The stand-in's calls, first arrival to last answer, and how full the target's `concurrency` slots were over it. */
function served(concurrency: number): { wall: number; busy: number } {
  const wall = Math.max(...calls.map((c) => c.answered)) - Math.min(...calls.map((c) => c.arrived));
  const inFlight = calls.reduce((sum, c) => sum + c.answered - c.arrived, 0);
  return { wall, busy: inFlight / (wall * concurrency) };
}

/** The stand-in's view of `n` calls made by the contract's client alone, `concurrency` at once. */
async function clientAlone(n: number, concurrency: number): Promise<{ wall: number; busy: number }> {
  const client = await openHttpTarget({ url: standIn.url, timeoutMs: 30_000, retries: 0, concurrency }, named);
  calls.length = 0;
  await Promise.all(Array.from({ length: n }, (_, i) => client.search({ id: `c${i}`, query: "q", mode: "fast", limit: 10 })));
  return served(concurrency);
}

type EvalRound = { n: number; wall: number; busy: number; alone: number; aloneBusy: number; whole: number; code: number | null };
const evalRuns = new Map<number, EvalRound[]>([
  [4, []],
  [16, []],
]);
const evalLoadBefore = load();
for (let round = 0; round < args.evalRounds; round++)
  for (const concurrency of round % 2 === 0 ? [4, 16] : [16, 4]) {
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
    const n = calls.length;
    const suite = served(concurrency);
    const alone = await clientAlone(n, concurrency);
    evalRuns.get(concurrency)!.push({ n, ...suite, alone: alone.wall, aloneBusy: alone.busy, whole, code: r.code });
  }
console.log(`\n${args.evalRounds} rounds alternating which concurrency goes first; load average ${evalLoadBefore} before, ${load()} after`);
console.log(
  `| concurrency | calls N | bound N × ${args.latencyMs} ms ÷ concurrency | suite's wall for them, ratio to the bound: median (lowest–highest) | slots busy, suite | the client alone, ratio to the bound: median (lowest–highest) | slots busy, client alone | pnpm eval thoroughness, whole (median) |`,
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const [concurrency, rs] of evalRuns) {
  const n = rs[0]!.n;
  const bound = (n * args.latencyMs) / concurrency;
  const busy = (key: "busy" | "aloneBusy") => `${(median(rs.map((r) => r[key])) * 100).toFixed(0)} %`;
  const ratios = (key: "wall" | "alone") => {
    const xs = rs.map((r) => r[key] / bound);
    return `${median(xs).toFixed(3)}× (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`;
  };
  const suite = median(rs.map((r) => r.wall / bound));
  const codes = [...new Set(rs.map((r) => r.code))].join(", ");
  console.log(
    `| ${concurrency} | ${rs.map((r) => r.n).join(", ")} | ${(bound / 1000).toFixed(2)} s | ${ratios("wall")} (${suite <= 1.2 ? "met" : "missed"}) | ${busy("busy")} | ${ratios("alone")} | ${busy("aloneBusy")} | ${(median(rs.map((r) => r.whole)) / 1000).toFixed(1)} s, exit ${codes} |`,
  );
}
await standIn.stop();
