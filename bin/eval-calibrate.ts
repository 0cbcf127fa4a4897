/**
 * `pnpm eval:calibrate <labels.jsonl>`: how far each judge method agrees with people. Reads a
 * labels file (packages/eval-gate/labels.schema.json: per case and judged metric a person's grade,
 * pass/fail or 0–3, with the labeller's id), answers the labelled cases with the in-process engine
 * and the run's models, grades them with every judge method the run has — the heuristic, and the
 * judge model when one is configured — and prints per metric and method: agreement, Cohen's κ
 * (quadratic-weighted for 0–3), Spearman's ρ against the score, the confusion matrix at the pass
 * mark, the best-agreeing pass mark, with `--trials N` the flip rate between trials of the same
 * answer, and inter-annotator κ where two people graded the same answers; 95 % bootstrap intervals
 * over cases (packages/eval-gate/src/calibration.ts). Writes the result beside the baseline
 * (`judge-calibration.json`), which every later `pnpm eval` reads for its judge line.
 *
 * `pnpm eval:calibrate --show <case ids|all> [--preset p]` prints what a labeller reads: each
 * case's question, sources and answer, with the answer's hash a label names.
 *
 * `pnpm eval:calibrate --items <items.jsonl> [--out file.json]` measures the same on external
 * labelled items (packages/eval-gate/src/labelled-items.ts: question, contexts, answer, reference,
 * grades; ragas' column names too), which need no engine, no fixture case and no dataset: every
 * method scores every item (bin/lib/calibration-items.ts). It prints the table; `--out` writes it
 * with every item's score per method (`items`), in the calibration file's format, so that written
 * beside the baseline (`--out evals/judge-calibration.json`) it is the calibration the gate reads.
 *
 * Exit status: 0 measured and written; 1 the judge model or an answer failed on a labelled case
 * (nothing written: a calibration with holes is not one); 2 bad arguments, a labels file that does
 * not fit its schema or names a case or metric the fixtures lack (one line naming file, line and
 * field), a labels file with no label or none of the answer the engine gives now (nothing written:
 * the committed calibration stays), an `--out` that cannot be written, or a dataset without the
 * answer cases; for `--items`, an items file that does not fit its schema (one line naming file,
 * line and field) or an `--out` that cannot be written. The file is written atomically (a temp file
 * renamed over it).
 */
import { statSync } from "node:fs";
import { join, dirname, relative, resolve } from "node:path";
import type { Preset } from "@hybrid-search/engine";
import { PRESETS } from "@hybrid-search/engine/models";
import { ConfigError, quoteInput } from "@hybrid-search/eval-gate";
import { loadBaseline } from "@hybrid-search/eval-gate/baseline";
import {
  CALIBRATION_FILE,
  type CalibrationItemScore,
  calibrate,
  calibrationTable,
  type JudgedScore,
  methodName,
  writeCalibration,
} from "@hybrid-search/eval-gate/calibration";
import type { ItemsFile } from "@hybrid-search/eval-gate/labelled-items";
import type { Label } from "@hybrid-search/eval-gate/labels";
import { passMarkOf, withFlags } from "@hybrid-search/eval-gate/pass-marks";
import type { AskCase } from "../scorers/ask-case.js";
import { JUDGED_GRADERS, judgedGraderName, judgeMethods } from "../scorers/judged-graders.js";
import { casesFor } from "../scorers/answer/index.js";
import { notApplicable, type TriadMetricId } from "../scorers/triad/index.js";
import { judgeItems, readItemsFile } from "./lib/calibration-items.js";
import { answerCases, judgeLabels, type LabelledAnswer, openEngine, readLabelsFile } from "./lib/calibration-run.js";
import { type CommandIo, parseCommandLine, positiveInteger, processIo, UsageError } from "./lib/cli-args.js";
import { DatasetError, loadDataset } from "../helpers/dataset.js";
import { formatFixtureError, isFixtureError, loadAskCases } from "../helpers/fixture-files.js";
import { REPO_ROOT } from "../helpers/fixture-files/paths.js";
import { evalModels } from "../helpers/models.js";
import { gitInfo } from "./lib/run-context.js";

const USAGE =
  "Usage: pnpm eval:calibrate <labels.jsonl> [--trials N] [--out file] | pnpm eval:calibrate --items <items.jsonl> [--trials N] [--out file.json] | pnpm eval:calibrate --show <case ids|all> [--preset slim|balanced|quality]";

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-calibrate.ts does). */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const say = (line: string): void => io.stdout(`${line}\n`);
  try {
    const { values, positionals } = parseCommandLine(
      {
        args: argv,
        options: {
          help: { type: "boolean", short: "h" },
          trials: { type: "string" },
          out: { type: "string" },
          show: { type: "string" },
          preset: { type: "string" },
          items: { type: "string" },
        },
        allowPositionals: true,
      },
      USAGE,
    );
    if (values.help) {
      say(USAGE);
      return 0;
    }
    if (values.items !== undefined) {
      if (positionals.length > 0 || values.show !== undefined || values.preset !== undefined)
        throw new UsageError(`--items takes no labels file, --show or --preset; ${USAGE}`);
      return await calibrateItems(values.items, positiveInteger("trials", values.trials, 1), values.out, say);
    }
    const dataset = loadDataset();
    if (!dataset.demo)
      throw new ConfigError(
        `the labels grade the project's fixture answer cases; EVAL_DATASET (${dataset.name}) is another dataset: unset it`,
      );
    const cases = loadAskCases();
    const models = evalModels();
    if (values.show !== undefined) {
      if (positionals.length > 0) throw new UsageError(`--show takes no labels file; ${USAGE}`);
      const preset = presetOf(values.preset ?? "balanced", "--preset");
      const ids = values.show === "all" ? cases.map((c) => c.id) : values.show.split(",").map((s) => s.trim());
      const wanted = ids.map((id) => {
        const c = cases.find((x) => x.id === id);
        if (!c) throw new ConfigError(`--show: no answer case ${quoteInput(id)} in the fixtures`);
        return { case: c, preset };
      });
      const engine = await openEngine(dataset, models);
      for (const a of await answerCases(engine, wanted, models)) for (const line of showLines(a)) say(line);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`one labels file is needed, got ${positionals.length}; ${USAGE}`);
    if (values.preset !== undefined) throw new UsageError(`--preset goes with --show; a label names its own preset`);
    const trials = positiveInteger("trials", values.trials, 1);
    const labelsPath = resolve(positionals[0]!);
    const shown = relative(process.cwd(), labelsPath) || labelsPath;
    const { header, labels, sha256 } = readLabelsFile(labelsPath, shown);
    // A calibration from no label would replace the committed one with nothing: every later run's judge line would report it.
    if (labels.length === 0) throw new ConfigError(`${shown}: holds its header and no label: a calibration needs labels; nothing written`);
    const byCase = checkLabels(labels, cases, shown);

    const baselinePath = baselineFile();
    const marks = withFlags(loadBaseline(baselinePath).baseline.passMarks, []);
    const passMark = (metric: string): number => passMarkOf(marks, judgedGraderName(metric));
    const outPath = resolve(values.out ?? join(dirname(baselinePath), CALIBRATION_FILE));
    writablePlace(outPath, values.out !== undefined ? "--out" : "the calibration file");

    say(
      `eval:calibrate: ${labels.length} labels of ${new Set(labels.map((l) => l.case)).size} cases by ${Object.keys(header.labellers).join(", ")} (${shown})`,
    );
    say(models.description);
    const engine = await openEngine(dataset, models);
    const wanted = [
      ...new Map(labels.map((l) => [`${l.case}\u0000${l.preset}`, { case: byCase.get(l.case)!, preset: l.preset as Preset }])).values(),
    ];
    const answers = await answerCases(engine, wanted, models);
    const judge = models.judge;
    const timeoutMs = models.selection.limits.timeoutMs;
    const { judged, fallbacks, failed, notScored } = await judgeLabels(labels, answers, { judge, timeoutMs, trials });
    const calibration = calibrate({
      labels,
      judged,
      methods: judgeMethods(judge),
      passMark,
      labelsFile: {
        file: relative(REPO_ROOT, labelsPath) || labelsPath,
        sha256,
        labellers: Object.keys(header.labellers),
        kind: "answers",
      },
      createdAt: new Date(),
      commit: gitInfo(REPO_ROOT).commit,
    });
    for (const line of calibrationTable(calibration, judgedGraderName)) say(line);
    const stale = calibration.methods[0]!.metrics.reduce((n, m) => n + m.stale, 0);
    if (stale > 0)
      say(
        `eval:calibrate: ${stale} label(s) left out: they graded another answer than the engine gives now (label them again: pnpm eval:calibrate --show <ids>)`,
      );
    for (const line of notScoredLines(notScored)) say(line);
    const current = calibration.methods[0]!.metrics.reduce((n, m) => n + m.labels, 0);
    if (current === 0)
      throw new ConfigError(
        `not written: none of the ${labels.length} label(s) grades the answer the engine gives now (${stale} stale: the answers changed since they were labelled; label them again: pnpm eval:calibrate --show <ids>); ${relative(process.cwd(), outPath) || outPath} is untouched`,
      );
    if (fallbacks + failed > 0) {
      say(holes(fallbacks, failed));
      return 1;
    }
    writeCalibration(outPath, calibration);
    say(`eval:calibrate: written to ${relative(process.cwd(), outPath) || outPath}; every pnpm eval prints its judge line from it`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof DatasetError) {
      io.stderr(`eval:calibrate: ${error.message}\n`);
      return 2;
    }
    if (isFixtureError(error)) {
      io.stderr(`eval:calibrate: ${formatFixtureError(error)}\n`);
      return 2;
    }
    throw error;
  }
}

/** `--items` (module comment): the table on external labelled items, written with every item's score by `--out`. */
async function calibrateItems(file: string, trials: number, out: string | undefined, say: (line: string) => void): Promise<number> {
  const path = resolve(file);
  const shown = relative(process.cwd(), path) || path;
  const items = readItemsFile(path, shown);
  const outPath = out === undefined ? null : resolve(out);
  if (outPath !== null) writablePlace(outPath, "--out");
  const marks = withFlags(loadBaseline(baselineFile()).baseline.passMarks, []);
  const passMark = (metric: string): number => passMarkOf(marks, judgedGraderName(metric));
  const perMetric = Object.entries(items.scales).map(
    ([metric, scale]) => `${judgedGraderName(metric)} ${items.labels.filter((l) => l.metric === metric).length} (${scale})`,
  );
  say(`eval:calibrate: ${items.items.length} items, labels ${perMetric.join(", ")}, by ${items.labellers.join(", ")} (${shown})`);
  const models = evalModels();
  say(models.description);
  const judge = models.judge;
  const { judged, fallbacks, failed, notScored } = await judgeItems(items, { judge, timeoutMs: models.selection.limits.timeoutMs, trials });
  const calibration = calibrate({
    labels: items.labels,
    judged,
    methods: judgeMethods(judge),
    passMark,
    labelsFile: { file: relative(REPO_ROOT, path) || path, sha256: items.sha256, labellers: items.labellers, kind: "items" },
    createdAt: new Date(),
    commit: gitInfo(REPO_ROOT).commit,
  });
  for (const line of calibrationTable(calibration, judgedGraderName)) say(line);
  for (const line of notScoredLines(notScored)) say(line);
  if (fallbacks + failed > 0) {
    say(holes(fallbacks, failed));
    return 1;
  }
  if (outPath === null) {
    say(
      "eval:calibrate: not written (--out <file.json> writes the table and every item's score; written beside the baseline as judge-calibration.json, it is the calibration pnpm eval gates by)",
    );
    return 0;
  }
  // A calibration that compared no label would replace a committed one with nothing (as for a labels file).
  if (calibration.methods[0]!.metrics.every((m) => m.labels === 0))
    throw new ConfigError(
      `not written: no method scored any of the ${items.labels.length} label(s) of ${shown}; ${relative(process.cwd(), outPath) || outPath} is untouched`,
    );
  writeCalibration(outPath, { ...calibration, items: itemScores(items, judged) });
  say(`eval:calibrate: written to ${relative(process.cwd(), outPath) || outPath}, with every item's score per method`);
  return 0;
}

/** Every label's item with each method's score of it (the mean over trials; null when the method did not score it). */
function itemScores(items: ItemsFile, judged: readonly JudgedScore[]): CalibrationItemScore[] {
  const scores = new Map(judged.map((j) => [`${j.case}\u0000${j.metric}\u0000${methodName(j)}`, j.scores]));
  const methods = [...new Set(judged.map((j) => methodName(j)))];
  return items.items.flatMap((item) =>
    Object.entries(item.labels).flatMap(([metric, label]) =>
      methods.map((method) => {
        const s = scores.get(`${item.id}\u0000${metric}\u0000${method}`) ?? [];
        return {
          id: item.id,
          metric,
          method,
          score: s.length === 0 ? null : s.reduce((a, b) => a + b, 0) / s.length,
          label: label!,
          labeller: item.labeller,
        };
      }),
    ),
  );
}

/** Why nothing was written: the judge failed or answers failed on labelled items. */
function holes(fallbacks: number, failed: number): string {
  return `eval:calibrate: not written: ${fallbacks > 0 ? `the judge failed twice on ${fallbacks} grade(s) (the heuristic stood in)` : ""}${fallbacks > 0 && failed > 0 ? " and " : ""}${failed > 0 ? `${failed} grade(s) of a failed answer` : ""}; a calibration with holes is not one`;
}

/** The grades no method could score (the item lacks what the metric reads), per reason: left out of the table, said so. */
function notScoredLines(notScored: ReadonlyMap<string, number>): string[] {
  return [...notScored].map(([reason, n]) => `eval:calibrate: ${n} labelled grade(s) left out, no method can score them: ${reason}`);
}

function baselineFile(): string {
  return resolve(process.env.EVAL_BASELINE?.trim() || join(REPO_ROOT, "evals/baseline.json"));
}

/** Refuses, before any answer is made, a place the calibration cannot be written: a folder, or a path below a file. */
function writablePlace(path: string, what: string): void {
  const kind = (p: string): "file" | "folder" | null => {
    try {
      return statSync(p).isDirectory() ? "folder" : "file";
    } catch {
      return null;
    }
  };
  if (kind(path) === "folder") throw new ConfigError(`${what} ${path} is a folder; it names the calibration's file`);
  let above = dirname(path);
  while (kind(above) === null && dirname(above) !== above) above = dirname(above);
  if (kind(above) === "file") throw new ConfigError(`${what} ${path} is below ${above}, which is a file, not a folder`);
}

function presetOf(value: string, where: string): Preset {
  if (!(PRESETS as readonly string[]).includes(value))
    throw new ConfigError(`${where}: must be one of ${PRESETS.join(", ")} (got ${quoteInput(value)})`);
  return value as Preset;
}

/** Every label names a fixture case, a judged metric that applies to it and a preset; one line naming the first that does not. */
function checkLabels(labels: readonly Label[], cases: readonly AskCase[], shown: string): Map<string, AskCase> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const withTopics = new Set(casesFor("topic-coverage", cases).map((c) => c.id));
  for (const l of labels) {
    const at = `${shown}:${l.line}`;
    const c = byId.get(l.case);
    if (!c) throw new ConfigError(`${at}: /case: no answer case ${quoteInput(l.case)} in the fixtures`);
    if (!JUDGED_GRADERS.includes(l.metric))
      throw new ConfigError(`${at}: /metric: ${quoteInput(l.metric)} is not a judged metric (${JUDGED_GRADERS.join(", ")})`);
    const why =
      l.metric === "topic-coverage"
        ? withTopics.has(c.id)
          ? null
          : "it has no expectedTopics"
        : notApplicable(l.metric as TriadMetricId, c);
    if (why !== null) throw new ConfigError(`${at}: /metric: ${l.metric} does not apply to case ${l.case} (${why})`);
    presetOf(l.preset, `${at}: /preset`);
  }
  return byId;
}

/** What a labeller reads for one case: the question, the answer with its hash, the sources. */
function showLines(a: LabelledAnswer): string[] {
  const r = a.answer;
  const lines = [
    `== ${a.case.id} (${a.case.category}, ${a.case.language}) preset ${a.preset}, answerer ${r.answerer}, answerSha256 ${a.sha}`,
    `question: ${a.case.question}`,
    `answer${r.refusalCheck?.refused ? " (refused)" : ""}: ${r.error ? `ERROR: ${r.error}` : r.answer}`,
    `citations: ${r.citations.map((c) => `[${c.ref}] ${c.docId}`).join(", ") || "(none)"}`,
  ];
  if (a.case.expectedTopics?.length) lines.push(`expectedTopics: ${a.case.expectedTopics.map((t, i) => `${i + 1}. ${t}`).join("; ")}`);
  for (const s of r.sources ?? [])
    lines.push(`  source [${s.ref}] ${s.docId} — ${s.title}: ${[s.heading, s.text].filter(Boolean).join(" / ").replace(/\s+/g, " ")}`);
  return lines;
}
