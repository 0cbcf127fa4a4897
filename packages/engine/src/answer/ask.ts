/**
 * `ask`, an orchestration over the query pipeline: retrieve (a tier, as `query` runs it), choose
 * the sources, check the evidence — before any model is called — and, when it suffices, have the
 * preset's answerer write the answer; then the citations. The trace is retrieval's, then an
 * `evidence` and a `generation` stage. With `sources` given, retrieval does not run: the answer is
 * written from those passages (the trace has only its evidence and generation stages). Never throws for a model failure: the result then has
 * `error` and an empty answer.
 */
import type { EngineCore } from "../core.js";
import { checkEvidenceThreshold, resolveAskOptions } from "../options/call-options.js";
import { query } from "../pipeline/run.js";
import { now, stage, TraceRecorder, type Traced } from "../pipeline/trace.js";
import type { OfflineRerankOptions } from "../retrieval/heuristic-reranker.js";
import { rerankScoring } from "../store/index-state.js";
import type { GivenSource, Trace } from "@hybrid-search/target-contract/types";
import type { AskOptions, AskResult, AskSource, Preset } from "../types.js";
import type { AnswerRequest, Answerer } from "./answerer.js";
import { citedRefs, REFUSAL } from "./citations.js";
import { checkEvidence, evidenceNote } from "./evidence.js";
import { chooseSources, flaggedSentences } from "./sources.js";

interface AskContext extends Traced {
  readonly core: EngineCore;
  readonly question: string;
  readonly sources: readonly AskSource[];
  readonly scoring: OfflineRerankOptions;
}

export async function ask(core: EngineCore, question: string, options: AskOptions): Promise<AskResult> {
  const started = now();
  const { preset, tier, limit, evidenceThreshold, headers, policy, filters, given } = resolveAskOptions(
    question,
    options,
    core.modelLimits,
  );
  const answerer = core.answerers[preset] ?? core.extractive;
  const threshold = evidenceThreshold ?? answerer.evidenceThreshold;
  checkEvidenceThreshold(threshold);

  const scoring = rerankScoring(core.index.state());
  let sources: AskSource[];
  let retrievalTrace: Trace = [];
  if (given !== null) sources = givenSources(given);
  else {
    const retrieval = await query(core, question, { ...filters, limit, tier });
    retrievalTrace = retrieval.trace;
    sources = chooseSources(
      question,
      retrieval.results,
      (hit) => core.passages.ofDocument(hit.collection, hit.docId),
      core.lexicalScorer,
      scoring,
    );
  }
  const ctx: AskContext = { core, question, sources, scoring, trace: new TraceRecorder([...retrievalTrace]) };

  const check = evidence(ctx, threshold);
  const answeredBy = answerer === core.extractive ? null : preset;
  const finish = (answer: string, extra: Partial<AskResult> = {}, declared: readonly number[] = []): AskResult => {
    // The [n] in the text first, then any source a structured answer declares beyond them.
    const refs = [...new Set([...citedRefs(answer), ...declared])];
    const citations = refs
      .filter((r) => r >= 1 && r <= sources.length)
      .map((r) => ({ ref: r, docId: sources[r - 1]!.docId, passageId: sources[r - 1]!.passageId }));
    return {
      question,
      sources,
      evidence: check.evidence,
      flagged: flaggedSentences(sources),
      preset: answeredBy,
      answerer: answerer.id,
      answer,
      refused: false,
      citations,
      invalidCitations: refs.filter((r) => r < 1 || r > sources.length),
      ...extra,
      trace: ctx.trace.stages,
      elapsedMs: now() - started,
    };
  };
  if (!check.evidence.sufficient) return finish(REFUSAL, { refused: true, refusal: "insufficient-evidence" });

  const answer = await generation(ctx, answerer, answeredBy, { question, sources, scoring, policy, ...(headers ? { headers } : {}) });
  const format = answer.format ? { answerFormat: answer.format } : {};
  if (answer.error !== undefined) return finish("", { error: answer.error, ...format });
  return answer.refusal
    ? finish(answer.text, { refused: true, refusal: answer.refusal, citations: [], ...format })
    : finish(answer.text, format, answer.citations);
}

/** A case's own passages as the answerer's sources, in the order given ([1] first): generation apart from retrieval. */
function givenSources(given: readonly GivenSource[]): AskSource[] {
  return given.map((g, i) => ({
    ref: i + 1,
    docId: g.docId,
    passageId: `${g.docId}#given-${i + 1}`,
    title: g.title ?? "",
    heading: "",
    text: g.text,
    language: null,
    score: 1,
  }));
}

/** Whether the sources can answer at all: the best source's IDF-weighted share of the question's content terms. */
const evidence = stage("evidence", (ctx: AskContext, threshold: number) => {
  const check = checkEvidence(ctx.question, ctx.sources, ctx.core.lexicalScorer, ctx.scoring, threshold);
  return {
    value: check,
    input: { question: ctx.question, method: "IDF-weighted share of the question's content terms in a source", threshold },
    output: ctx.sources.map((src, i) => ({ docId: src.docId, passageId: src.passageId, score: check.coverage[i]!, rank: src.ref })),
    note: evidenceNote(check),
  };
});

/** The answerer writes the answer (or refuses, or fails); the trace records what it reports. */
const generation = stage("generation", async (_ctx: AskContext, answerer: Answerer, answeredBy: Preset | null, request: AnswerRequest) => {
  const answer = await answerer.answer(request);
  return {
    value: answer,
    input: { ...answer.trace.input, ...(answeredBy ? { preset: answeredBy } : {}) },
    output: answer.trace.output,
    note: answer.trace.note || undefined,
  };
});
