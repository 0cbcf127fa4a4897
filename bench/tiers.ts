/**
 * `pnpm bench:tiers`: what each hybrid tier buys, per collection (docs/benchmarks.md, "Tiers").
 *
 * For every collection (the fixtures, and each BEIR folder given with --dataset; by default also
 * ../shared/datasets/cisi when it is there) it builds a fresh index with the offline models, runs
 * every judged query at fast, balanced and thorough with `limit 100`, and prints per tier nDCG@10,
 * nDCG@20, MAP (over the top 100), R@100, p50/p95 latency and the mean number of results, with
 * the paired randomization test (two-sided, packages/eval-gate/src/stats.ts) of each tier against
 * the one below on every metric. In the same run, on the same documents, a raw SQLite FTS5
 * baseline: one row per document, `tokenize = 'porter unicode61'`, columns title and body,
 * `bm25(fts, 2, 1)`, the query as an OR of its quoted unicode61 tokens.
 *
 * Metrics are trec_eval's (ndcg_cut, map, recall) through scorers/retrieval.ts, on the ranking as
 * returned. Usage: pnpm bench:tiers [--dataset fixtures|<beir folder>]... [--hybrid '<json>'] [--json <file>]
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { Engine, type HybridConfig, type Tier } from "@hybrid-search/engine";
import { mean, pairedRandomizationTest, percentile } from "@hybrid-search/eval-gate/stats";
import { readSource } from "@hybrid-search/engine/source";
import { argumentsOrExit, parseCommandLine, UsageError } from "../bin/lib/cli-args.js";
import { judgedCases, loadDataset, type Dataset, type RetrievalCase } from "../helpers/dataset.js";
import { averagePrecisionScore, ndcgAtKScore, recallAtKScore, type RetrievalRanking } from "../scorers/retrieval.js";

const USAGE = "Usage: pnpm bench:tiers [--dataset fixtures|<beir folder>]... [--hybrid '<json>'] [--json <file>]";
const DEFAULT_BEIR = resolve("../shared/datasets/cisi");
const LIMIT = 100;
const TIERS: Tier[] = ["fast", "balanced", "thorough"];
const METRICS = ["nDCG@10", "nDCG@20", "MAP", "R@100"] as const;
type Metric = (typeof METRICS)[number];
type System = "fts5-porter" | Tier;

const args = argumentsOrExit("bench:tiers", () => {
  const { values } = parseCommandLine(
    { options: { dataset: { type: "string", multiple: true }, hybrid: { type: "string" }, json: { type: "string" } } },
    USAGE,
  );
  let hybrid: Partial<HybridConfig> = {};
  if (values.hybrid !== undefined) {
    try {
      hybrid = JSON.parse(values.hybrid) as Partial<HybridConfig>;
    } catch (error) {
      throw new UsageError(`--hybrid: not valid JSON (${(error as Error).message})`);
    }
  }
  const datasets = values.dataset ?? ["fixtures", ...(existsSync(join(DEFAULT_BEIR, "corpus.jsonl")) ? [DEFAULT_BEIR] : [])];
  return { datasets, hybrid, json: values.json };
});

interface SystemRun {
  perQuery: Record<Metric, number[]>;
  latencyMs: number[];
  results: number[];
}

function scoreRanking(ranking: RetrievalRanking, c: RetrievalCase): Record<Metric, number> {
  const expected = { judgments: c.judgments };
  return {
    "nDCG@10": ndcgAtKScore(ranking, expected, 10).score,
    "nDCG@20": ndcgAtKScore(ranking, expected, 20).score,
    MAP: averagePrecisionScore(ranking, expected).score,
    "R@100": recallAtKScore(ranking, expected, 100).score,
  };
}

function emptyRun(): SystemRun {
  return { perQuery: { "nDCG@10": [], "nDCG@20": [], MAP: [], "R@100": [] }, latencyMs: [], results: [] };
}

function record(run: SystemRun, ranking: RetrievalRanking, c: RetrievalCase, ms: number): void {
  const scores = scoreRanking(ranking, c);
  for (const m of METRICS) run.perQuery[m].push(scores[m]);
  run.latencyMs.push(ms);
  run.results.push(ranking.results.length);
}

/** The raw FTS5 baseline: whole documents, porter unicode61, title weight 2, OR of quoted tokens. */
function fts5Baseline(dataset: Dataset, cases: RetrievalCase[]): SystemRun {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, title, body, tokenize = 'porter unicode61')");
  const insert = db.prepare("INSERT INTO docs (id, title, body) VALUES (?, ?, ?)");
  const source = readSource(dataset.corpus);
  db.transaction(() => {
    for (const doc of source.documents) insert.run(doc.path, doc.title, doc.body);
  })();
  const search = db.prepare("SELECT id, bm25(docs, 0, 2, 1) AS s FROM docs WHERE docs MATCH ? ORDER BY s LIMIT ?");
  const run = emptyRun();
  for (const c of cases) {
    const started = performance.now();
    const tokens = [...new Set(c.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    const match = tokens.map((t) => `"${t}"`).join(" OR ");
    const rows = match === "" ? [] : (search.all(match, LIMIT) as Array<{ id: string; s: number }>);
    record(run, { results: rows.map((r) => ({ docId: r.id, score: -r.s })) }, c, performance.now() - started);
  }
  db.close();
  return run;
}

async function engineRuns(dataset: Dataset, cases: RetrievalCase[], hybrid: Partial<HybridConfig>): Promise<Record<Tier, SystemRun>> {
  const dir = mkdtempSync(join(tmpdir(), "bench-tiers-"));
  try {
    const engine = Engine.open(join(dir, "index.db"), { create: true, hybrid });
    await engine.index(dataset.corpus, { collection: dataset.collection });
    const runs = { fast: emptyRun(), balanced: emptyRun(), thorough: emptyRun() };
    for (const tier of TIERS) {
      // One untimed query loads what each tier loads once (catalog, vectors, term list).
      await engine.query(cases[0]!.query, { tier, limit: LIMIT });
      for (const c of cases) {
        const options = { tier, limit: LIMIT, ...(c.collection ? { collection: c.collection } : {}) };
        const started = performance.now();
        const r = await engine.query(c.query, options);
        record(runs[tier], r, c, performance.now() - started);
      }
    }
    engine.close();
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const f4 = (x: number): string => x.toFixed(4);

function comparison(label: string, a: SystemRun, b: SystemRun): string {
  const cells = METRICS.map((m) => {
    const diffs = a.perQuery[m].map((v, i) => v - b.perQuery[m][i]!);
    const d = mean(diffs);
    const { p } = pairedRandomizationTest(diffs);
    return `${d >= 0 ? "+" : ""}${f4(d)} (p ${p < 0.0001 ? "<0.0001" : f4(p)})`;
  });
  return `| ${label} | ${cells.join(" | ")} |`;
}

async function benchCollection(name: string): Promise<{ dataset: string; queries: number; runs: Record<System, SystemRun> }> {
  const dataset = name === "fixtures" ? loadDataset({}) : loadDataset({ EVAL_DATASET: name });
  const cases = judgedCases(dataset.cases);
  const baseline = fts5Baseline(dataset, cases);
  const tiers = await engineRuns(dataset, cases, args.hybrid);
  const runs: Record<System, SystemRun> = { "fts5-porter": baseline, ...tiers };

  const lines = [
    `## ${dataset.name}: ${cases.length} judged queries, limit ${LIMIT}`,
    "",
    "| system | nDCG@10 | nDCG@20 | MAP | R@100 | p50 ms | p95 ms | results/query |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...(Object.entries(runs) as Array<[System, SystemRun]>).map(
      ([system, run]) =>
        `| ${system} | ${METRICS.map((m) => f4(mean(run.perQuery[m]))).join(" | ")} | ${percentile(run.latencyMs, 50).toFixed(1)} | ${percentile(run.latencyMs, 95).toFixed(1)} | ${mean(run.results).toFixed(1)} |`,
    ),
    "",
    `| paired test (Δ mean, two-sided randomization p) | ${METRICS.join(" | ")} |`,
    "| --- | --- | --- | --- | --- |",
    comparison("fast − fts5-porter", runs.fast, runs["fts5-porter"]),
    comparison("balanced − fast", runs.balanced, runs.fast),
    comparison("thorough − balanced", runs.thorough, runs.balanced),
    comparison("thorough − fast", runs.thorough, runs.fast),
    "",
  ];
  console.log(lines.join("\n"));
  return { dataset: dataset.name, queries: cases.length, runs };
}

const started = Date.now();
console.log(
  `# bench:tiers (${new Date().toISOString().slice(0, 10)}, node ${process.version}, offline models${Object.keys(args.hybrid).length ? `, hybrid ${JSON.stringify(args.hybrid)}` : ""})\n`,
);
const all = [];
for (const name of args.datasets) all.push(await benchCollection(name));
if (args.json) writeFileSync(args.json, `${JSON.stringify(all)}\n`);
console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
