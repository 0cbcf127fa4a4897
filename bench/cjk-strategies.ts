/**
 * `pnpm bench:cjk`: the measurement behind the analyzer's CJK strategy (docs/engine.md, "CJK").
 * For every strategy in CJK_STRATEGIES it builds the CJK lane's index (fixtures/cjk) and reports
 * per language BM25 Recall@10, nDCG@10, MRR@10 and the zero-result rate (the lane's metrics,
 * helpers/lanes.ts + scorers/lane.ts), the index's size (postings and distinct terms of the
 * full-text index), the time to index the lane's corpus repeated `--copies` times, and the mean
 * BM25 query time. It also checks that the Latin fixtures' BM25 nDCG@10 does not move.
 * Indexing is timed as the median of three fresh builds, after one warm-up build.
 * Usage: pnpm bench:cjk [--copies N] (default 100).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Engine } from "@hybrid-search/engine";
import { CJK_STRATEGIES, type CjkStrategy } from "@hybrid-search/engine/analysis";
import { countFlagOrExit } from "../bin/lib/cli-args.js";
import { judgedCases, loadDataset } from "../helpers/dataset.js";
import { CJK_DIR, CJK_LANGUAGES, listCorpusDocs } from "../helpers/fixture-files.js";
import { loadLane } from "../helpers/lanes.js";
import { formatLaneSummary, laneSummary, type LaneSummary } from "../scorers/lane.js";
import { ndcgAtKScore } from "../scorers/retrieval.js";

const copies = countFlagOrExit("bench:cjk", "copies", 100);

const scratch = mkdtempSync(join(tmpdir(), "bench-cjk-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

const lane = loadLane("cjk");
const corpus = join(CJK_DIR, "corpus");
const main = loadDataset();

/** The lane's corpus repeated `copies` times as one JSONL file, for a measurable indexing time. */
const bulk = join(scratch, "bulk.jsonl");
writeFileSync(
  bulk,
  `${Array.from({ length: copies }, (_, k) =>
    listCorpusDocs(corpus).map((doc) => {
      const text = readFileSync(join(corpus, doc), "utf8");
      const title = /^# (.*)$/m.exec(text)?.[1] ?? doc;
      return JSON.stringify({ _id: `${k}/${doc}`, title, text, language: doc.split("/")[0] });
    }),
  )
    .flat()
    .join("\n")}\n`,
);

interface Row {
  strategy: CjkStrategy;
  summaries: LaneSummary[];
  postings: number;
  terms: number;
  indexMs: number;
  /** Size of the index file of the repeated corpus. */
  bulkBytes: number;
  queryMs: number;
  latinNdcg: number;
}

async function measure(strategy: CjkStrategy): Promise<Row> {
  const analyzer = { cjk: strategy };
  const db = join(scratch, `${strategy.replace(/\W/g, "_")}.db`);
  const engine = Engine.open(db, { create: true, analyzer });
  await engine.index(corpus, { collection: "cjk" });
  const rankings = new Map<string, string[]>();
  let elapsed = 0;
  const reps = 5;
  for (let r = 0; r < reps; r++) {
    for (const c of lane.cases) {
      const response = engine.search(c.query, { limit: 10 });
      elapsed += response.elapsedMs;
      rankings.set(
        c.id,
        response.results.map((h) => h.docId),
      );
    }
  }
  const summaries = CJK_LANGUAGES.map((language) =>
    laneSummary(
      language,
      lane.cases.filter((c) => c.language === language).map((c) => ({ ranking: rankings.get(c.id)!, judgments: c.judgments })),
    ),
  );
  engine.close();
  const raw = new Database(db, { readonly: true });
  const { postings, terms } = raw.prepare("SELECT sum(cnt) AS postings, count(*) AS terms FROM passages_vocab").get() as {
    postings: number;
    terms: number;
  };
  raw.close();

  const times: number[] = [];
  let bulkBytes = 0;
  for (let run = 0; run < 4; run++) {
    const bulkDb = join(scratch, `bulk-${strategy.replace(/\W/g, "_")}-${run}.db`);
    const bulkEngine = Engine.open(bulkDb, { create: true, analyzer });
    const started = performance.now();
    await bulkEngine.index(bulk, { collection: "bulk" });
    if (run > 0) times.push(performance.now() - started);
    bulkEngine.close();
    bulkBytes = statSync(bulkDb).size;
    rmSync(bulkDb, { force: true });
  }
  const indexMs = times.sort((a, b) => a - b)[1]!;

  const latin = Engine.open(join(scratch, `latin-${strategy.replace(/\W/g, "_")}.db`), { create: true, analyzer });
  await latin.index(main.corpus, { collection: main.collection });
  const judged = judgedCases(main.cases);
  let ndcg = 0;
  for (const c of judged)
    ndcg += ndcgAtKScore({ results: latin.search(c.query, { limit: 10 }).results }, { judgments: c.judgments }, 10).score;
  latin.close();

  return {
    strategy,
    summaries,
    postings,
    terms,
    indexMs,
    bulkBytes,
    queryMs: elapsed / (reps * lane.cases.length),
    latinNdcg: ndcg / judged.length,
  };
}

const rows: Row[] = [];
for (const strategy of CJK_STRATEGIES) {
  const row = await measure(strategy);
  rows.push(row);
  console.log(`\n${strategy}`);
  for (const s of row.summaries) console.log(`  ${formatLaneSummary(s)}`);
  console.log(
    `  index: ${row.postings} postings, ${row.terms} distinct terms; ${copies}× corpus (${copies * 40} docs) indexed in ${row.indexMs.toFixed(0)} ms (${(row.bulkBytes / 2 ** 20).toFixed(1)} MiB); ` +
      `BM25 query ${row.queryMs.toFixed(2)} ms mean; Latin fixtures nDCG@10 ${row.latinNdcg.toFixed(3)}`,
  );
}

const f = (x: number): string => x.toFixed(3);
console.log(`\n| strategy | ${CJK_LANGUAGES.join(" | ")} | postings | index ${copies}× (size) | query | Latin nDCG@10 |`);
console.log(`| --- |${CJK_LANGUAGES.map(() => " --- |").join("")} --- | --- | --- | --- |`);
for (const r of rows) {
  const cells = r.summaries.map((s) => `${f(s.recallAt10)} / ${f(s.ndcgAt10)} / ${f(s.mrrAt10)} / ${f(s.zeroResultRate)}`);
  console.log(
    `| ${r.strategy} | ${cells.join(" | ")} | ${r.postings} | ${(r.indexMs / 1000).toFixed(2)} s (${(r.bulkBytes / 2 ** 20).toFixed(1)} MiB) | ${r.queryMs.toFixed(2)} ms | ${f(r.latinNdcg)} |`,
  );
}
console.log(
  `\n(cells: Recall@10 / nDCG@10 / MRR@10 / zero-result rate over ${lane.cases.length / CJK_LANGUAGES.length} queries each; postings of the lane's own index)`,
);
