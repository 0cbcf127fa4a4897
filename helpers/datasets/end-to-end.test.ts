/**
 * Each format's sample measured end to end, as a run measures it but without Evalite: its corpus
 * indexed (whatever its format: a folder, a corpus.jsonl, documents given as data), every judged
 * query ranked by the in-process engine and every answer case asked and given its question verdict
 * (every expectation it states). The same corpus is what a target is seeded with (engine serve,
 * seeded, answers as the engine in-process does), and recorded answers (`EVAL_RUN_DIR`) are judged
 * against the same answer cases.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "@hybrid-search/engine";
import { serveEngine } from "@hybrid-search/engine/serve";
import { afterAll, describe, expect, it } from "vitest";
import { recognizeRefusal } from "../../scorers/refusal.js";
import { questionVerdict } from "../../scorers/verdict.js";
import { loadRefusalMarkers, translationsByDoc } from "../fixture-files.js";
import { REPO_ROOT } from "../fixture-files/paths.js";
import { buildTempIndex, type TempIndex } from "../setup-db.js";
import { openHttpTarget } from "../targets/http-target.js";
import { inProcessTarget } from "../targets/kinds/in-process.js";
import { observedAnswer, observedRanking } from "../targets/observe.js";
import { openRecordedTarget } from "../targets/recorded-target.js";
import { datasetDocuments, seedTarget } from "../targets/seed.js";
import type { Target, TargetAsk, TargetSearch } from "../targets/target.js";
import { indexSource, loadDataset } from "./load.js";
import { type Dataset, judgedCases } from "./model.js";

/** How these tests name a target: by its name. */
const named = (name: string): string => name;
/** A target's ranking and answer as the suite observes them (helpers/targets/observe.ts). */
const ranked = async (target: Target, request: TargetSearch) => observedRanking(await target.search(request));
const answered = async (target: Target, request: TargetAsk) => observedAnswer(request.question, await target.ask(request), target.label);

const SAMPLES = join(REPO_ROOT, "test/datasets");
const built: TempIndex[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const b of built) b.remove();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function measure(dataset: Dataset, target: Target) {
  const rankings = await Promise.all(
    judgedCases(dataset.cases).map(async (c) => {
      const { results } = await ranked(target, { id: c.id, query: c.query, mode: "balanced", limit: 10 });
      const relevant = Object.entries(c.judgments)
        .filter(([, g]) => g >= 1)
        .map(([d]) => d);
      const found = relevant.filter((d) => results.some((r) => r.docId === d)).length;
      return { id: c.id, docs: results.map((r) => r.docId), recall: found / relevant.length };
    }),
  );
  const markers = dataset.refusalMarkers ?? loadRefusalMarkers();
  const verdicts = [];
  for (const c of dataset.askCases) {
    const result = await answered(target, { id: c.id, question: c.question });
    const recognized = { ...result, refusalCheck: await recognizeRefusal(result, markers) };
    verdicts.push({
      id: c.id,
      answer: result,
      verdict: await questionVerdict(c, recognized, { translations: translationsByDoc(dataset.translations) }),
    });
  }
  return { rankings, verdicts };
}

async function inProcess(dataset: Dataset): Promise<{ engine: Engine; target: Target }> {
  const index = await buildTempIndex(
    indexSource(dataset, () => dataset),
    { dataset: dataset.name, collection: dataset.collection },
  );
  built.push(index);
  const engine = Engine.open(index.dbPath);
  return { engine, target: inProcessTarget(engine, "offline") };
}

const SOURCES = [
  ["the suite's fixture format (the starter)", join(REPO_ROOT, "templates/starter"), 4],
  ["BEIR with answer cases", join(SAMPLES, "beir-answers"), 4],
  ["a golden Q&A set", join(SAMPLES, "golden-qa"), 5],
  ["a bundle", join(SAMPLES, "bundle"), 4],
  ["a fixtures layout", join(SAMPLES, "fixtures-layout"), 4],
  ["question/reference JSONL", join(SAMPLES, "qa-jsonl/golden.jsonl"), 4],
] as const;

describe.each(SOURCES)("%s, end to end", (_what, source, documents) => {
  it("indexes its corpus with its own ids, ranks every judged query, answers and judges every answer case", async () => {
    const dataset = loadDataset({ EVAL_DATASET: source });
    const { engine, target } = await inProcess(dataset);
    expect(engine.stats().documents).toBe(documents);
    const { rankings, verdicts } = await measure(dataset, target);
    expect(rankings.length).toBeGreaterThan(0);
    const known = new Set(dataset.corpusIds);
    for (const r of rankings) {
      expect(r.docs.length, r.id).toBeGreaterThan(0);
      for (const doc of r.docs) expect(known.has(doc), `${r.id}: ${doc}`).toBe(true);
    }
    // The engine finds what the cases judge relevant on these small corpora: the ids line up.
    expect(rankings.reduce((s, r) => s + r.recall, 0) / rankings.length).toBeGreaterThan(0.5);
    expect(verdicts).toHaveLength(dataset.askCases.length);
    for (const { id, answer, verdict } of verdicts) {
      expect(answer.error, id).toBeUndefined();
      // Every expectation the case states is checked, each with a verdict.
      expect(verdict.expectations.length, id).toBeGreaterThan(0);
      for (const cited of answer.citations) expect(known.has(cited.docId), `${id} cites ${cited.docId}`).toBe(true);
    }
    // Each expectation a case states is one the verdict checked.
    const declared = (c: Dataset["askCases"][number]): string[] => [
      ...(c.expectedSubstrings ? ["answer-includes"] : []),
      ...(c.expectedTopics ? ["topic-coverage"] : []),
      ...(c.mustCite ? ["cites"] : []),
      ...(c.forbiddenSubstrings ? ["answer-excludes"] : []),
      "refusal",
    ];
    for (const [i, c] of dataset.askCases.entries())
      expect(verdicts[i]!.verdict.expectations.map((e) => e.expectation)).toEqual(expect.arrayContaining(declared(c)));
    // A target is seeded with the same documents, under the same ids.
    expect(
      datasetDocuments(dataset)
        .documents.map((d) => d.id)
        .sort(),
    ).toEqual([...dataset.corpusIds].sort());
  });
});

describe("recorded answers against a golden Q&A set's cases", () => {
  it("are judged as the in-process answers are: the same verdict for every question", async () => {
    const dataset = loadDataset({ EVAL_DATASET: join(SAMPLES, "golden-qa") });
    const { target } = await inProcess(dataset);
    const live = await measure(dataset, target);
    // What `engine ask --batch` writes, one answer per case id, as an EVAL_RUN_DIR folder holds it.
    const folder = mkdtempSync(join(tmpdir(), "recorded-"));
    dirs.push(folder);
    const lines = live.verdicts.map(({ id, answer: r }) =>
      JSON.stringify({
        id,
        question: r.question,
        answer: r.answer,
        citations: r.citations,
        refused: r.refused,
        ...(r.refusal ? { refusal: r.refusal } : {}),
        answerer: r.answerer,
        sources: r.sources,
        invalidCitations: r.invalidCitations,
      }),
    );
    writeFileSync(join(folder, "answers.jsonl"), `${lines.join("\n")}\n`);
    const recorded = openRecordedTarget(folder, new Set(dataset.cases.map((c) => c.id)), "recorded-engine", named);
    const replayed = await measure({ ...dataset, cases: [] }, recorded);
    // The same expectations fail (a recorded refusal carries no evidence coverage, so its wording differs).
    const outcome = (v: (typeof live.verdicts)[number]) => [
      v.id,
      v.verdict.pass,
      v.verdict.failed.map((f) => f.replace(/ \(evidence gate: .*?\)/, "")),
    ];
    expect(replayed.verdicts.map(outcome)).toEqual(live.verdicts.map(outcome));
    expect(live.verdicts.filter((v) => v.verdict.pass).length).toBeGreaterThan(0);
  });
});

describe("an HTTP target seeded with a dataset whose corpus is given as data (EVAL_TARGET_SEED)", () => {
  it.each([
    ["a golden Q&A set", join(SAMPLES, "golden-qa")],
    ["question/reference JSONL", join(SAMPLES, "qa-jsonl/golden.jsonl")],
  ])(
    "%s: engine serve on an empty index holds its documents under their ids, and its answers get the in-process verdicts",
    async (_what, source) => {
      const dataset = loadDataset({ EVAL_DATASET: source });
      const { target: local } = await inProcess(dataset);
      const folder = mkdtempSync(join(tmpdir(), "seeded-"));
      dirs.push(folder);
      const empty = Engine.open(join(folder, "empty.db"), { create: true });
      const server = await serveEngine(empty, { port: 0 });
      try {
        const seed = { collection: "eval-seed", keep: false, timeoutMs: 60_000 };
        const remote = await openHttpTarget({ url: server.url, timeoutMs: 60_000, retries: 0, concurrency: 2, backoffMs: 5, seed }, named);
        const said: string[] = [];
        const session = await seedTarget(remote, dataset, seed, { say: (l) => void said.push(l), warn: (l) => void said.push(l) });
        expect(session.documents).toBe(dataset.corpusIds.length);
        const [live, served] = [await measure(dataset, local), await measure(dataset, remote)];
        const outcome = (v: (typeof live.verdicts)[number]) => [v.id, v.verdict.pass, v.answer.citations.map((c) => c.docId)];
        expect(served.verdicts.map(outcome)).toEqual(live.verdicts.map(outcome));
        expect(served.rankings.map((r) => r.docs)).toEqual(live.rankings.map((r) => r.docs));
        await session.release();
        expect(empty.stats().collections).toEqual([]);
      } finally {
        await server.close();
        empty.close();
      }
    },
  );
});
