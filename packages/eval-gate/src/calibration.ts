/**
 * Judge calibration: how far each judge method (the heuristic; each judge model) agrees with
 * people's labels, per judged metric — the table `pnpm eval:calibrate` prints and writes beside the
 * baseline (`judge-calibration.json`, schema `calibration.schema.json`), and the judge line every
 * later `pnpm eval` prints from it. Pure: the labels, the judged scores and the pass marks come in.
 *
 * **Pairs.** One pair per label: the person's grade and the method's score of the same case,
 * metric and preset, when the method graded the same answer the person did (the label's
 * `answerSha256`); a label of another answer is left out and counted (`stale`), as is a label the
 * method did not score (`notJudged`). With trials, the method's score is the mean of its trials.
 * A case labelled by two people gives two pairs; the bootstrap resamples cases with all their pairs.
 *
 * **Per scale.** pass-fail: the person's pass/fail against the judge's (score ≥ the metric's pass
 * mark); agreement and Cohen's κ on those. 0-3: the judge's score read on the person's scale,
 * round(3 · score) (a score of 0.5 is 2: halves round up); agreement (same grade) and
 * quadratic-weighted κ. Both: Spearman's ρ of the person's grade (pass 1, fail 0) against the raw
 * score; the confusion matrix at the pass mark (a person passes a 0-3 grade g when g / 3 ≥ the
 * mark); the best-agreeing pass mark (agreement/best-pass-mark.ts); 95 % percentile bootstrap
 * intervals over cases (2,000 resamples, seeded) for κ and ρ.
 *
 * **Self-consistency** (with trials): the share of labelled cases whose pass/fail differs between
 * the method's trials of the same answer (flip rate), and the mean SD of their scores.
 *
 * **Inter-annotator κ**: for each metric and each two labellers who graded the same answers, κ of
 * one against the other on the metric's scale (Cohen's or quadratic-weighted), with its interval.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import {
  bestPassMark,
  cohenKappa,
  type ConfusionMatrix,
  confusionMatrix,
  percentAgreement,
  spearmanRho,
  weightedKappa,
} from "./agreement/index.js";
import { ConfigError } from "./errors.js";
import type { Label, LabelScale } from "./labels.js";
import { schemaProblems } from "./schema-errors.js";
import { compileValidator } from "./standalone-validators.js";
import { bootstrapCI, mean, sd } from "./stats.js";

export const CALIBRATION_VERSION = 1;
const RESAMPLES = 2_000;
const CATEGORIES = 4;

/** A judge method: the heuristic, or a judge model. */
export interface JudgeMethod {
  method: "heuristic" | "llm-judge";
  /** `provider/model` of a judge model; null for the heuristic. */
  model: string | null;
}

/** One method's scores of one labelled case's metric. */
export interface JudgedScore extends JudgeMethod {
  case: string;
  metric: string;
  preset: string;
  /** The hash of the answer it scored (the label's `answerSha256` when it is the same answer). */
  answerSha256: string;
  /** One score in [0, 1] per trial. */
  scores: number[];
}

/** A statistic with its 95 % bootstrap interval; null where undefined (see agreement/). */
export interface Estimate {
  value: number | null;
  ci: [number, number] | null;
}

export interface MetricCalibration {
  metric: string;
  scale: LabelScale;
  /** Pairs compared: labels of the answer the method scored. */
  labels: number;
  cases: number;
  /** Labels of another answer than the one the method scored: left out. */
  stale: number;
  /** Labels the method did not score: left out. */
  notJudged: number;
  /** Share of pairs on the same grade (pass-fail: the same side of the pass mark). */
  agreement: number | null;
  kappa: Estimate;
  kappaKind: "cohen" | "quadratic-weighted";
  spearman: Estimate;
  passMark: number;
  confusion: ConfusionMatrix;
  bestPassMark: { mark: number; kappa: number; agreement: number } | null;
  /** With trials: share of cases whose pass/fail flipped between trials, and the mean SD of their scores. */
  selfConsistency: { trials: number; cases: number; flipRate: number; meanSd: number } | null;
}

export interface MethodCalibration extends JudgeMethod {
  /** What the method's prompts and schemas hash to (llm-judge), so a later run can tell a calibration of another prompt; null for the heuristic. */
  judgeConfig: string | null;
  metrics: MetricCalibration[];
}

export interface InterAnnotator {
  metric: string;
  scale: LabelScale;
  labellers: [string, string];
  items: number;
  agreement: number | null;
  kappa: Estimate;
}

export interface Calibration {
  version: typeof CALIBRATION_VERSION;
  createdAt: string;
  commit: string | null;
  labels: { file: string; sha256: string; count: number; cases: number; labellers: string[] };
  passMarks: Record<string, number>;
  methods: MethodCalibration[];
  interAnnotator: InterAnnotator[];
}

export interface CalibrationInput {
  labels: readonly Label[];
  judged: readonly JudgedScore[];
  /** Each method the run has, with its judge config hash. */
  methods: ReadonlyArray<JudgeMethod & { judgeConfig: string | null }>;
  /** The pass mark of each metric (by metric id). */
  passMark: (metric: string) => number;
  labelsFile: { file: string; sha256: string; labellers: string[] };
  createdAt: Date;
  commit: string | null;
  resamples?: number;
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);
const ciOrNull = (ci: [number, number]): [number, number] | null => (Number.isFinite(ci[0]) && Number.isFinite(ci[1]) ? ci : null);

/** The person's grade as a number: pass 1, fail 0, or the 0–3 grade. */
export const gradeValue = (l: Pick<Label, "grade">): number => (l.grade === "pass" ? 1 : l.grade === "fail" ? 0 : l.grade);

/** Whether the person passed it at the pass mark. */
export const personPasses = (l: Pick<Label, "grade" | "scale">, mark: number): boolean =>
  l.scale === "pass-fail" ? l.grade === "pass" : gradeValue(l) / (CATEGORIES - 1) >= mark;

/** A judge's score on the person's scale: pass-fail at the mark, or round(3 · score). */
export const judgeCategory = (score: number, scale: LabelScale, mark: number): number =>
  scale === "pass-fail" ? (score >= mark ? 1 : 0) : Math.min(CATEGORIES - 1, Math.floor(score * (CATEGORIES - 1) + 0.5));

const personCategory = (l: Pick<Label, "grade" | "scale">): number => gradeValue(l);

function kappaOf(scale: LabelScale, a: readonly number[], b: readonly number[]): number {
  return scale === "pass-fail" ? cohenKappa(a, b) : weightedKappa(a, b, CATEGORIES);
}

/** The calibration (module comment). */
export function calibrate(input: CalibrationInput): Calibration {
  const resamples = input.resamples ?? RESAMPLES;
  const metricIds = [...new Set(input.labels.map((l) => l.metric))];
  const methods = input.methods.map((m) => ({
    method: m.method,
    model: m.model,
    judgeConfig: m.judgeConfig,
    metrics: metricIds.map((metric) =>
      metricCalibration(
        metric,
        input.labels.filter((l) => l.metric === metric),
        input.judged.filter((j) => j.metric === metric && j.method === m.method && j.model === m.model),
        input.passMark(metric),
        resamples,
      ),
    ),
  }));
  return {
    version: CALIBRATION_VERSION,
    createdAt: input.createdAt.toISOString(),
    commit: input.commit,
    labels: {
      ...input.labelsFile,
      count: input.labels.length,
      cases: new Set(input.labels.map((l) => l.case)).size,
    },
    passMarks: Object.fromEntries(metricIds.map((m) => [m, input.passMark(m)])),
    methods,
    interAnnotator: metricIds.flatMap((metric) =>
      interAnnotator(
        metric,
        input.labels.filter((l) => l.metric === metric),
        resamples,
      ),
    ),
  };
}

function metricCalibration(
  metric: string,
  labels: readonly Label[],
  judged: readonly JudgedScore[],
  mark: number,
  resamples: number,
): MetricCalibration {
  const scale = labels[0]!.scale;
  const byKey = new Map(judged.map((j) => [`${j.case}\u0000${j.preset}`, j]));
  const pairs: Array<{ case: string; label: Label; score: number }> = [];
  let stale = 0;
  let notJudged = 0;
  for (const label of labels) {
    const j = byKey.get(`${label.case}\u0000${label.preset}`);
    if (!j || j.scores.length === 0) notJudged++;
    else if (j.answerSha256 !== label.answerSha256) stale++;
    else pairs.push({ case: label.case, label, score: mean(j.scores) });
  }
  const cases = [...new Set(pairs.map((p) => p.case))];
  const pairsOf = (picks: readonly number[]) => picks.flatMap((i) => pairs.filter((p) => p.case === cases[i]));
  const kappaOn = (ps: typeof pairs) =>
    kappaOf(
      scale,
      ps.map((p) => personCategory(p.label)),
      ps.map((p) => judgeCategory(p.score, scale, mark)),
    );
  const rhoOn = (ps: typeof pairs) =>
    spearmanRho(
      ps.map((p) => gradeValue(p.label)),
      ps.map((p) => p.score),
    );
  const person = pairs.map((p) => personCategory(p.label));
  const judge = pairs.map((p) => judgeCategory(p.score, scale, mark));
  const repeated = judged.filter((j) => j.scores.length > 1 && labels.some((l) => l.case === j.case && l.preset === j.preset));
  return {
    metric,
    scale,
    labels: pairs.length,
    cases: cases.length,
    stale,
    notJudged,
    agreement: finiteOrNull(percentAgreement(person, judge)),
    kappa: {
      value: finiteOrNull(kappaOn(pairs)),
      ci: ciOrNull(bootstrapCI(cases.length, (picks) => kappaOn(pairsOf(picks)), resamples)),
    },
    kappaKind: scale === "pass-fail" ? "cohen" : "quadratic-weighted",
    spearman: {
      value: finiteOrNull(rhoOn(pairs)),
      ci: ciOrNull(bootstrapCI(cases.length, (picks) => rhoOn(pairsOf(picks)), resamples)),
    },
    passMark: mark,
    confusion: confusionMatrix(
      pairs.map((p) => personPasses(p.label, mark)),
      pairs.map((p) => p.score >= mark),
    ),
    bestPassMark: bestPassMark(
      pairs.map((p) => p.score),
      pairs.map((p) => personPasses(p.label, mark)),
      mark,
    ),
    selfConsistency:
      repeated.length === 0
        ? null
        : {
            trials: Math.max(...repeated.map((j) => j.scores.length)),
            cases: repeated.length,
            flipRate: repeated.filter((j) => new Set(j.scores.map((s) => s >= mark)).size > 1).length / repeated.length,
            meanSd: mean(repeated.map((j) => sd(j.scores))),
          },
  };
}

function interAnnotator(metric: string, labels: readonly Label[], resamples: number): InterAnnotator[] {
  const scale = labels[0]!.scale;
  const labellers = [...new Set(labels.map((l) => l.labeller))].sort();
  const out: InterAnnotator[] = [];
  for (let i = 0; i < labellers.length; i++)
    for (let k = i + 1; k < labellers.length; k++) {
      const a = labels.filter((l) => l.labeller === labellers[i]);
      const b = new Map(
        labels.filter((l) => l.labeller === labellers[k]).map((l) => [`${l.case}\u0000${l.preset}\u0000${l.answerSha256}`, l]),
      );
      const items = a.flatMap((l) => {
        const other = b.get(`${l.case}\u0000${l.preset}\u0000${l.answerSha256}`);
        return other ? [{ a: personCategory(l), b: personCategory(other) }] : [];
      });
      if (items.length === 0) continue;
      const on = (xs: typeof items) =>
        kappaOf(
          scale,
          xs.map((x) => x.a),
          xs.map((x) => x.b),
        );
      out.push({
        metric,
        scale,
        labellers: [labellers[i]!, labellers[k]!],
        items: items.length,
        agreement: finiteOrNull(
          percentAgreement(
            items.map((x) => x.a),
            items.map((x) => x.b),
          ),
        ),
        kappa: {
          value: finiteOrNull(on(items)),
          ci: ciOrNull(bootstrapCI(items.length, (picks) => on(picks.map((p) => items[p]!)), resamples)),
        },
      });
    }
  return out;
}

const num = (x: number | null, digits = 2): string => (x === null ? "undefined" : x.toFixed(digits));
/** `0.71 [0.58, 0.82]`, `undefined` when the statistic is, `0.71 [no interval]` when only the interval is. */
export const estimateText = (e: Estimate): string =>
  e.value === null ? "undefined" : `${num(e.value)} ${e.ci ? `[${num(e.ci[0])}, ${num(e.ci[1])}]` : "[no interval]"}`;

/** The calibration as a table for people: one block per method, one line per metric; then inter-annotator κ. */
export function calibrationTable(c: Calibration, names: (metric: string) => string = (m) => m): string[] {
  const lines: string[] = [];
  for (const m of c.methods) {
    lines.push(`${methodName(m)}:`);
    lines.push(
      "  metric              scale      labels  agree  κ (95% CI)             ρ (95% CI)             pass mark  tp fn fp tn  best mark (κ)  flips",
    );
    for (const x of m.metrics) {
      const best = x.bestPassMark ? `${num(x.bestPassMark.mark)} (${num(x.bestPassMark.kappa)})` : "none";
      const flips = x.selfConsistency ? `${(x.selfConsistency.flipRate * 100).toFixed(0)} % of ${x.selfConsistency.cases}` : "–";
      const left = x.stale + x.notJudged > 0 ? `  (left out: ${x.stale} stale, ${x.notJudged} not judged)` : "";
      lines.push(
        `  ${names(x.metric).padEnd(18)}  ${x.scale.padEnd(9)}  ${String(x.labels).padStart(6)}  ${x.agreement === null ? "  –  " : `${(x.agreement * 100).toFixed(0)} %`.padStart(5)}  ${estimateText(x.kappa).padEnd(21)}  ${estimateText(x.spearman).padEnd(21)}  ${num(x.passMark).padStart(9)}  ${[x.confusion.tp, x.confusion.fn, x.confusion.fp, x.confusion.tn].map((v) => String(v).padStart(2)).join(" ")}  ${best.padEnd(13)}  ${flips}${left}`,
      );
    }
  }
  if (c.interAnnotator.length > 0) {
    lines.push("inter-annotator:");
    for (const x of c.interAnnotator)
      lines.push(`  ${names(x.metric)}: ${x.labellers.join(" vs ")}, ${x.items} shared, κ ${estimateText(x.kappa)}`);
  } else lines.push("inter-annotator: no case was labelled by two people");
  return lines;
}

export const methodName = (m: JudgeMethod): string => (m.method === "heuristic" ? "heuristic" : `llm-judge ${m.model}`);

/**
 * The judge line of a run for one method it used: its κ per metric from the calibration, or that
 * it was never measured — no calibration, none of this method or model, or one of other prompts
 * (`judgeConfig` differs: its κ belongs to another judge).
 */
export function judgeLine(
  calibration: Calibration | null,
  used: JudgeMethod & { judgeConfig: string | null },
  names: (metric: string) => string = (m) => m,
  where = "judge-calibration.json",
): string {
  const head = `judge: ${methodName(used)}`;
  const found = calibration?.methods.find((m) => m.method === used.method && m.model === used.model);
  if (!calibration || !found) return `${head}, κ never measured against human labels (pnpm eval:calibrate <labels>)`;
  if (found.judgeConfig !== used.judgeConfig)
    return `${head}, κ never measured for its current prompts (${where} measured other prompts on ${calibration.createdAt.slice(0, 10)}; pnpm eval:calibrate <labels>)`;
  const labels = found.metrics.reduce((n, x) => n + x.labels, 0);
  const per = found.metrics.map((x) => `${names(x.metric)} ${estimateText(x.kappa)}`).join(", ");
  return `${head}, κ ${per} vs ${labels} human labels, ${calibration.createdAt.slice(0, 10)}`;
}

export const CALIBRATION_SCHEMA_PATH = fileURLToPath(new URL("../calibration.schema.json", import.meta.url));
/** The calibration file's name: beside the baseline. */
export const CALIBRATION_FILE = "judge-calibration.json";

let validateCalibration: ValidateFunction | undefined;

/** The calibration file, checked against its schema; null when there is none. A malformed one is a ConfigError of one line. */
export function readCalibration(path: string, shown = path): Calibration | null {
  if (!existsSync(path)) return null;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${shown}: not JSON (${(error as Error).message.split("\n")[0]}); pnpm eval:calibrate <labels> writes it anew`);
  }
  validateCalibration ??= compileValidator({
    options: { allErrors: true, strict: false, validateFormats: false },
    schema: JSON.parse(readFileSync(CALIBRATION_SCHEMA_PATH, "utf8")) as object,
  });
  if (!validateCalibration(value))
    throw new ConfigError(`${shown}: ${schemaProblems(validateCalibration.errors ?? [])[0]}; pnpm eval:calibrate <labels> writes it anew`);
  return value as Calibration;
}

/** Writes the calibration (a temp file renamed into place: never half written). */
export function writeCalibration(path: string, calibration: Calibration): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, `${JSON.stringify(calibration, null, 2)}\n`);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new ConfigError(
      `${path}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was written`,
    );
  }
}
