/**
 * The measuring half of `pnpm eval:calibrate` (bin/eval-calibrate.ts): the answers to the labelled
 * cases, from the in-process engine on a temp index of the dataset with the run's models (so a
 * model answer comes back from the model cache when its call is unchanged), and each judge
 * method's scores of them — the heuristic always, the judge model when one is configured — once
 * per trial. The statistics are the gate's (`calibrate`, packages/eval-gate/src/calibration.ts).
 */
import { createHash } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { Engine } from "@hybrid-search/engine";
import type { Preset } from "@hybrid-search/target-contract/types";
import type { JudgedScore } from "@hybrid-search/eval-gate/calibration";
import { type Label, type LabelsFile, labelsFrom } from "@hybrid-search/eval-gate/labels";
import type { AskCase } from "../../scorers/ask-case.js";
import { completenessScore } from "../../scorers/completeness.js";
import { judgeId } from "../../scorers/judge-call.js";
import { type RecognizedAnswer, recognizeRefusal } from "../../scorers/refusal.js";
import { triadScore, type TriadMetricId } from "../../scorers/triad/index.js";
import type { Grade } from "../../scorers/answer/grade.js";
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

/** The first 16 hex digits of the SHA-256 of an answer's text: what a label names the answer it graded by. */
export function answerSha(answer: string): string {
  return createHash("sha256").update(answer).digest("hex").slice(0, 16);
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
  a: LabelledAnswer,
  judge: LanguageModelV3 | undefined,
  timeoutMs: number,
  trial: number,
): Promise<Grade> {
  const headers = { "x-eval-trial": String(trial) };
  if (metric === "topic-coverage") return completenessScore(a.case, a.answer, { ...(judge ? { judge } : {}), headers, timeoutMs });
  return triadScore(metric as TriadMetricId, a.case, a.answer, { ...(judge ? { judge } : {}), headers, timeoutMs });
}

export interface JudgedLabels {
  judged: JudgedScore[];
  /** Judge-model grades that fell back to the heuristic (the judge failed twice): left out of the judge's scores, counted. */
  fallbacks: number;
  /** Grades that could not be scored (a failed answer): left out, counted. */
  failed: number;
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
  const wanted = new Map<string, { metric: string; answer: LabelledAnswer }>();
  for (const l of labels) {
    const answer = answers.find((a) => a.case.id === l.case && a.preset === l.preset);
    if (answer) wanted.set(`${l.metric}\u0000${l.case}\u0000${l.preset}`, { metric: l.metric, answer });
  }
  const methods: Array<{ method: "heuristic" | "llm-judge"; model: string | null; judge: LanguageModelV3 | undefined }> = [
    { method: "heuristic", model: null, judge: undefined },
    ...(options.judge ? [{ method: "llm-judge" as const, model: judgeId(options.judge), judge: options.judge }] : []),
  ];
  const judged: JudgedScore[] = [];
  let fallbacks = 0;
  let failed = 0;
  for (const m of methods)
    for (const { metric, answer } of wanted.values()) {
      const scores: number[] = [];
      for (let trial = 1; trial <= options.trials; trial++) {
        const grade = await gradeOf(metric, answer, m.judge, options.timeoutMs, trial);
        if (grade.metadata.status !== "scored") failed++;
        else if (grade.metadata.method !== m.method) fallbacks++;
        else scores.push(grade.score);
      }
      judged.push({
        method: m.method,
        model: m.model,
        case: answer.case.id,
        metric,
        preset: answer.preset,
        answerSha256: answer.sha,
        scores,
      });
    }
  return { judged, fallbacks, failed };
}
