/**
 * The measuring half of `pnpm eval:calibrate` (bin/eval-calibrate.ts): the answers to the labelled
 * cases, from the in-process engine on a temp index of the dataset with the run's models (so a
 * model answer comes back from the model cache when its call is unchanged), and each judge
 * method's scores of them — the heuristic always, the judge model when one is configured — once
 * per trial, with the reference rows' (always-pass, bag-of-words). The statistics are the gate's
 * (`calibrate`, packages/eval-gate/src/calibration.ts). External items (`--items`) are turned into
 * cases and answers by calibration-items.ts and scored by the same `judgeEach`.
 */
import { createHash } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { Engine } from "@hybrid-search/engine";
import type { Preset } from "@hybrid-search/target-contract/types";
import type { JudgedScore } from "@hybrid-search/eval-gate/calibration";
import { answerSha, type Label, type LabelsFile, labelsFrom } from "@hybrid-search/eval-gate/labels";
import type { AskCase } from "../../scorers/ask-case.js";
import { completenessScore } from "../../scorers/completeness.js";
import { judgeId } from "../../scorers/judge-call.js";
import { type RecognizedAnswer, recognizeRefusal } from "../../scorers/refusal.js";
import { triadScore, type TriadMetricId } from "../../scorers/triad/index.js";
import type { Grade } from "../../scorers/answer/grade.js";
import { bagOfWordsScore, type ReferenceItem } from "../../scorers/text/bag-of-words.js";
import type { Dataset } from "../../helpers/dataset.js";
import { loadRefusalMarkers } from "../../helpers/fixture-files.js";
import { parseJsonl, readText } from "../../helpers/input-files/read.js";
import type { EvalModels } from "../../helpers/models.js";
import { buildTempIndex } from "../../helpers/setup-db.js";
import { inProcessTarget } from "../../helpers/targets/kinds/in-process.js";
import { observedAnswer } from "../../helpers/targets/observe.js";

/**
 * A labels file (`pnpm eval:calibrate <labels.jsonl>`) through the suite's one reader of a person's
 * files — UTF-8 checked (a UTF-16 file is named as such, never quoted), each line's JSON with its
 * line and column — then the labels' own checks (packages/eval-gate/src/labels.ts).
 */
export function readLabelsFile(path: string, shown: string): LabelsFile {
  const text = readText(path, { shown });
  return labelsFrom(parseJsonl(text, shown), shown, createHash("sha256").update(text).digest("hex"));
}

/** One labelled case's answer at a preset. */
export interface LabelledAnswer {
  case: AskCase;
  preset: Preset;
  answer: RecognizedAnswer;
  sha: string;
}

/** The in-process engine on a temp index of the dataset, with the run's models. */
export async function openEngine(dataset: Dataset, models: EvalModels): Promise<Engine> {
  const options = models.engine;
  const built = await buildTempIndex(dataset.corpus, { dataset: dataset.name, collection: dataset.collection, engine: options });
  return Engine.open(built.dbPath, options);
}

/** The answers to these cases at these presets (each once), with the suite's refusal recognition. */
export async function answerCases(
  engine: Engine,
  wanted: ReadonlyArray<{ case: AskCase; preset: Preset }>,
  models: EvalModels,
): Promise<LabelledAnswer[]> {
  const target = inProcessTarget(engine, "engine");
  const markers = loadRefusalMarkers();
  const out: LabelledAnswer[] = [];
  for (const { case: c, preset } of wanted) {
    const result = observedAnswer(c.question, await target.ask({ id: c.id, question: c.question, preset }), target.label);
    const refusalCheck = await recognizeRefusal(result, markers, {
      ...(models.judge ? { judge: models.judge } : {}),
      timeoutMs: models.selection.limits.timeoutMs,
    });
    out.push({ case: c, preset, answer: { ...result, refusalCheck }, sha: answerSha(result.answer) });
  }
  return out;
}

/** One judged grader's grade of an answer: the triad metric's, or topic coverage's (completeness). */
async function gradeOf(
  metric: string,
  c: AskCase,
  answer: RecognizedAnswer,
  judge: LanguageModelV3 | undefined,
  timeoutMs: number,
  trial: number,
): Promise<Grade> {
  const headers = { "x-eval-trial": String(trial) };
  if (metric === "topic-coverage") return completenessScore(c, answer, { ...(judge ? { judge } : {}), headers, timeoutMs });
  return triadScore(metric as TriadMetricId, c, answer, { ...(judge ? { judge } : {}), headers, timeoutMs });
}

export interface JudgedLabels {
  judged: JudgedScore[];
  /** Judge-model grades that fell back to the heuristic (the judge failed twice): left out of the judge's scores, counted. */
  fallbacks: number;
  /** Grades of a failed answer: left out, counted. */
  failed: number;
  /**
   * Grades not scored because the answer lacks what the metric reads (no source text for
   * faithfulness and context relevance, scorers/observed.ts): left out, counted per reason. Not a
   * hole in the calibration: no method can score such an answer.
   */
  notScored: Map<string, number>;
}

/** One labelled answer's metric to score: the case and answer the graders read, and the plain texts the reference rows read. */
export interface ToJudge {
  metric: string;
  case: AskCase;
  answer: RecognizedAnswer;
  preset: string;
  sha: string;
  plain: ReferenceItem;
}

/**
 * Every method's scores of every labelled case's metric, `trials` times each: the heuristic, and
 * the judge model when given. A judge grade that fell back to the heuristic is not the judge's
 * and is left out (counted); so is a failed answer's 0.
 */
export async function judgeLabels(
  labels: readonly Label[],
  answers: readonly LabelledAnswer[],
  options: { judge: LanguageModelV3 | undefined; timeoutMs: number; trials: number },
): Promise<JudgedLabels> {
  const wanted = new Map<string, ToJudge>();
  for (const l of labels) {
    const a = answers.find((x) => x.case.id === l.case && x.preset === l.preset);
    if (a)
      wanted.set(`${l.metric}\u0000${l.case}\u0000${l.preset}`, {
        metric: l.metric,
        case: a.case,
        answer: a.answer,
        preset: a.preset,
        sha: a.sha,
        plain: {
          question: a.answer.question,
          answer: a.answer.answer,
          contexts: (a.answer.sources ?? []).map((s) => [s.title, s.heading, s.text].filter(Boolean).join("\n")),
          ...(a.case.referenceAnswer ? { reference: a.case.referenceAnswer } : {}),
          ...(a.case.expectedTopics ? { topics: a.case.expectedTopics } : {}),
        },
      });
  }
  return judgeEach([...wanted.values()], options);
}

/**
 * The scores of each method — the heuristic, the judge model when given, `trials` times each —
 * and of the reference rows (always-pass: 1; bag-of-words, scorers/text/bag-of-words.ts) on each
 * labelled answer's metric.
 */
export async function judgeEach(
  wanted: readonly ToJudge[],
  options: { judge: LanguageModelV3 | undefined; timeoutMs: number; trials: number },
): Promise<JudgedLabels> {
  const methods: Array<{ method: "heuristic" | "llm-judge"; model: string | null; judge: LanguageModelV3 | undefined }> = [
    { method: "heuristic", model: null, judge: undefined },
    ...(options.judge ? [{ method: "llm-judge" as const, model: judgeId(options.judge), judge: options.judge }] : []),
  ];
  const judged: JudgedScore[] = [];
  let fallbacks = 0;
  let failed = 0;
  const notScored = new Map<string, number>();
  const scored = (w: ToJudge, method: JudgedScore["method"], model: string | null, scores: number[]): JudgedScore => ({
    method,
    model,
    case: w.case.id,
    metric: w.metric,
    preset: w.preset,
    answerSha256: w.sha,
    scores,
  });
  for (const m of methods)
    for (const w of wanted) {
      const scores: number[] = [];
      for (let trial = 1; trial <= options.trials; trial++) {
        const grade = await gradeOf(w.metric, w.case, w.answer, m.judge, options.timeoutMs, trial);
        if (grade.metadata.status === "unknown") {
          const reason = String(grade.metadata.reason ?? "not scored");
          if (m === methods[0] && trial === 1) notScored.set(reason, (notScored.get(reason) ?? 0) + 1);
        } else if (grade.metadata.status !== "scored") failed++;
        else if (grade.metadata.method !== m.method) fallbacks++;
        else scores.push(grade.score);
      }
      judged.push(scored(w, m.method, m.model, scores));
    }
  for (const w of wanted) {
    const words = bagOfWordsScore(w.metric, w.plain);
    judged.push(scored(w, "always-pass", null, [1]), scored(w, "bag-of-words", null, words === null ? [] : [words]));
  }
  return { judged, fallbacks, failed, notScored };
}
