/**
 * A fixtures layout whose relevantDocs are a subset of its graded judgments (test/datasets/
 * fixtures-layout-subset), read with that tool's semantics: Recall@k counts relevantDocs, nDCG@k
 * the graded judgments. Each query is ranked by the in-process engine, scored by the suite's
 * scorers, and the same rankings are scored by the project's trec_eval on qrels built straight from
 * the file: from relevantDocs for recall_k, from judgments for ndcg_cut_k. The two must agree.
 * Then the reader's rules one by one: a relevantDocs document without a judgment, one judged 0
 * (a warning, never a refusal), and sets that agree (the model as if relevantDocs were absent).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trecEval } from "@hybrid-search/trec-eval";
import { afterAll, describe, expect, it } from "vitest";
import { ndcgAtK, ndcgAtKScore, recallAtK, recallAtKScore } from "../../scorers/retrieval.js";
import { REPO_ROOT } from "../fixture-files/paths.js";
import { retrievalExpected } from "../retrieval-task.js";
import { buildTempIndex, type TempIndex } from "../setup-db.js";
import { inProcessTarget } from "../targets/kinds/in-process.js";
import { observedRanking } from "../targets/observe.js";
import { Engine } from "@hybrid-search/engine";
import { detectFormat } from "./detect.js";
import { datasetHeader } from "./header.js";
import { indexSource, loadDataset } from "./load.js";
import { judgedCases } from "./model.js";

const SAMPLE = join(REPO_ROOT, "test/datasets/fixtures-layout-subset");
const scratch = mkdtempSync(join(tmpdir(), "relevant-sets-"));
const built: TempIndex[] = [];
afterAll(() => {
  for (const b of built) b.remove();
  rmSync(scratch, { recursive: true, force: true });
});

interface LayoutQuery {
  id: string;
  relevantDocs: string[];
  judgments: Array<{ docid: string; relevance: number }>;
}

/** trec_eval's per-topic values, `measure topic` → value, from its -q output. */
function trecEvalPerTopic(qrels: string, run: string, measure: string, cutoffs: string): Map<string, number> {
  const qrelsFile = join(scratch, `${measure}.qrels`);
  const runFile = join(scratch, `${measure}.run`);
  writeFileSync(qrelsFile, qrels);
  writeFileSync(runFile, run);
  // As `pnpm trec-eval -q -m <measure>.<cutoffs> qrels run` computes it.
  const out = trecEval({ qrelsFile, runFile, measures: [{ name: measure, params: cutoffs }], perTopic: true });
  return new Map(
    out
      .trimEnd()
      .split("\n")
      .map((line) => line.split("\t").map((part) => part.trim()))
      .map(([name, topic, value]) => [`${name} ${topic}`, Number(value)]),
  );
}

describe("a fixtures layout whose relevantDocs are a subset of its judgments", () => {
  it("scores Recall@k on relevantDocs and nDCG@k on the judgments, as trec_eval does on qrels built from each", async () => {
    const dataset = loadDataset({ EVAL_DATASET: SAMPLE });
    expect(dataset.format).toBe("fixtures-layout");
    expect(judgedCases(dataset.cases)).toHaveLength(5);
    const index = await buildTempIndex(
      indexSource(dataset, () => dataset),
      { dataset: dataset.name, collection: dataset.collection },
    );
    built.push(index);
    const target = inProcessTarget(Engine.open(index.dbPath), "offline");
    const rankings = new Map<string, string[]>();
    for (const c of dataset.cases) {
      const { results } = observedRanking(await target.search({ id: c.id, query: c.query, mode: "balanced", limit: 10 }));
      rankings.set(
        c.id,
        results.map((r) => r.docId),
      );
    }

    // The run in TREC form, scores strictly falling so trec_eval keeps the engine's order.
    const run = [...rankings]
      .flatMap(([topic, docs]) => docs.map((doc, i) => `${topic} Q0 ${doc} ${i + 1} ${docs.length - i} engine`))
      .join("\n");
    // Qrels straight from the file, not through the reader.
    const file = JSON.parse(readFileSync(join(SAMPLE, "queries.json"), "utf8")) as LayoutQuery[];
    const relevantQrels = file.flatMap((q) => q.relevantDocs.map((doc) => `${q.id} 0 ${doc} 1`)).join("\n");
    const gradedQrels = file.flatMap((q) => q.judgments.map((j) => `${q.id} 0 ${j.docid} ${j.relevance}`)).join("\n");
    const trecRecall = trecEvalPerTopic(`${relevantQrels}\n`, `${run}\n`, "recall", "1,2,5,10");
    const trecNdcg = trecEvalPerTopic(`${gradedQrels}\n`, `${run}\n`, "ndcg_cut", "1,2,5,10");

    const recallScorers = [1, 2, 5, 10].map((k) => [k, recallAtK(k)] as const);
    const ndcgScorers = [1, 2, 5, 10].map((k) => [k, ndcgAtK(k)] as const);
    let differs = 0;
    for (const c of dataset.cases) {
      const output = { results: rankings.get(c.id)!.map((docId) => ({ docId })) };
      const expected = retrievalExpected(c);
      for (const [k, scorer] of recallScorers) {
        const { score, metadata } = recallAtKScore(output, expected, k);
        expect(score, `${c.id} Recall@${k}`).toBeCloseTo(trecRecall.get(`recall_${k} ${c.id}`)!, 4);
        // w3 lists exactly its judged documents: no set apart, said nowhere.
        expect(metadata.relevantFrom).toBe(c.id === "w3" ? undefined : "relevant set");
        // The Evalite scorer the eval files use gives the same number.
        const viaEvalite = await scorer({ input: c, output, expected });
        expect(viaEvalite.score).toBe(score);
        // Had Recall counted every document judged 1 or more, some queries would score otherwise.
        if (recallAtKScore(output, { judgments: c.judgments }, k).score !== score) differs++;
      }
      for (const [k, scorer] of ndcgScorers) {
        const { score, metadata } = ndcgAtKScore(output, expected, k);
        expect(score, `${c.id} nDCG@${k}`).toBeCloseTo(trecNdcg.get(`ndcg_cut_${k} ${c.id}`)!, 4);
        expect(metadata.relevantFrom).toBe(c.id === "w3" ? undefined : "graded judgments");
        expect((await scorer({ input: c, output, expected })).score).toBe(score);
      }
    }
    expect(differs, "the sample must tell the two sets apart").toBeGreaterThan(0);
    // The means over the queries are trec_eval's `all` lines.
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    const outputs = dataset.cases.map((c) => [c, { results: rankings.get(c.id)!.map((docId) => ({ docId })) }] as const);
    expect(mean(outputs.map(([c, o]) => recallAtKScore(o, retrievalExpected(c), 5).score))).toBeCloseTo(trecRecall.get("recall_5 all")!, 4);
    expect(mean(outputs.map(([c, o]) => ndcgAtKScore(o, retrievalExpected(c), 10).score))).toBeCloseTo(trecNdcg.get("ndcg_cut_10 all")!, 4);
  });

  it("says in the header and the model which set each metric counts; mockSources are the cases' given sources", () => {
    const dataset = loadDataset({ EVAL_DATASET: SAMPLE });
    expect(dataset.cases[0]).toEqual({
      id: "w1",
      query: "when may I water my plot",
      language: "en",
      judgments: { "en/watering-schedule.md": 3, "de/giessplan.md": 2, "en/tool-shed.md": 1 },
      relevant: ["en/watering-schedule.md"],
    });
    expect(dataset.splitRelevance).toEqual({ relevantField: "relevantDocs", gradedField: "judgments", cases: 4 });
    expect(dataset.warnings).toEqual([]);
    const header = datasetHeader(dataset, detectFormat(SAMPLE));
    expect(header).toContain(
      "eval: dataset fixtures-layout-subset: relevance: in 4 of 5 queries relevantDocs is not exactly the documents judged 1 or more: " +
        'Recall@k, P@k, MRR, AP, cross-language recall and "lost at" count relevantDocs (binary); nDCG@k counts judgments (graded; a relevantDocs document without a judgment counts as judged 1); each row\'s metadata names its set (relevantFrom)',
    );
    expect(header.filter((l) => l.includes("not mapped"))).toEqual([]);
    expect(dataset.askCases.map((c) => c.givenSources?.map((s) => s.docId))).toEqual([
      ["en/compost-guide.md"],
      ["en/annual-fees.md", "en/tool-shed.md"],
    ]);
  });
});

describe("relevantDocs and judgments that disagree", () => {
  function variant(change: (queries: LayoutQuery[]) => void): string {
    const folder = mkdtempSync(join(scratch, "layout-"));
    cpSync(SAMPLE, folder, { recursive: true });
    const path = join(folder, "queries.json");
    const queries = JSON.parse(readFileSync(path, "utf8")) as LayoutQuery[];
    change(queries);
    writeFileSync(path, JSON.stringify(queries));
    return folder;
  }

  it("a relevantDocs document without a judgment counts as judged 1, for nDCG@k too", () => {
    const folder = variant((q) => {
      q[2]!.relevantDocs.push("en/tool-shed.md");
    });
    const c = loadDataset({ EVAL_DATASET: folder }).cases[2]!;
    expect(c.judgments).toEqual({ "en/compost-guide.md": 3, "en/tool-shed.md": 1 });
    // The two sets agree once the listed document is judged 1: the model is as without relevantDocs.
    expect(c).not.toHaveProperty("relevant");
    const output = { results: [{ docId: "en/tool-shed.md" }] };
    expect(ndcgAtKScore(output, retrievalExpected(c), 10).metadata).toMatchObject({ dcg: 1, idcg: 3 + 1 / Math.log2(3) });
  });

  it("a relevantDocs entry judged 0 is counted by Recall@k, not by nDCG@k, with a warning that names it, never a refusal", () => {
    const folder = variant((q) => {
      q[1]!.relevantDocs.push("en/compost-guide.md");
    });
    const dataset = loadDataset({ EVAL_DATASET: folder });
    const c = dataset.cases[1]!;
    expect(c.relevant).toEqual(["en/plot-allocation.md", "en/compost-guide.md"]);
    expect(dataset.warnings).toEqual([
      expect.stringMatching(
        /queries\.json: query w2 \(\/1\/relevantDocs\): relevantDocs lists "en\/compost-guide\.md" although judged 0: counted relevant by Recall@k, P@k, MRR and AP, with no gain in nDCG@k; if that is a mistake, judge it or leave it out of relevantDocs$/,
      ),
    ]);
    const output = { results: [{ docId: "en/compost-guide.md" }] };
    expect(recallAtKScore(output, retrievalExpected(c), 5).score).toBe(0.5);
    expect(ndcgAtKScore(output, retrievalExpected(c), 5).score).toBe(0);
  });

  it("sets that agree leave the model as if relevantDocs were absent: no relevant set, no split said", () => {
    const folder = variant((queries) => {
      for (const q of queries) q.relevantDocs = q.judgments.filter((j) => j.relevance >= 1).map((j) => j.docid);
    });
    const dataset = loadDataset({ EVAL_DATASET: folder });
    expect(dataset.cases.some((c) => c.relevant !== undefined)).toBe(false);
    expect(dataset.splitRelevance).toBeNull();
    expect(datasetHeader(dataset, detectFormat(folder)).some((l) => l.includes("relevance:"))).toBe(false);
  });

  it("a relevantDocs document the corpus lacks is one line naming relevantDocs", () => {
    const folder = variant((q) => {
      q[0]!.relevantDocs.push("en/greenhouse.md");
    });
    expect(() => loadDataset({ EVAL_DATASET: folder })).toThrow(
      /query w1 \(\/0\/relevantDocs\): \[unknown-document\] lists "en\/greenhouse\.md", which is not a document of/,
    );
  });
});
