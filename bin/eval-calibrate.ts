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
 * Exit status: 0 measured and written; 1 the judge model or an answer failed on a labelled case
 * (nothing written: a calibration with holes is not one); 2 bad arguments, a labels file that does
 * not fit its schema or names a case or metric the fixtures lack (one line naming file, line and
 * field), a labels file with no label or none of the answer the engine gives now (nothing written:
 * the committed calibration stays), an `--out` that cannot be written, or a dataset without the
 * answer cases. The file is written atomically (a temp file renamed over it).
 */
import { statSync } from "node:fs";
import { join, dirname, relative, resolve } from "node:path";
import type { Preset } from "@hybrid-search/engine";
import { PRESETS } from "@hybrid-search/engine/models";
import { ConfigError, quoteInput } from "@hybrid-search/eval-gate";
import { loadBaseline } from "@hybrid-search/eval-gate/baseline";
import { CALIBRATION_FILE, calibrate, calibrationTable, writeCalibration } from "@hybrid-search/eval-gate/calibration";
import type { Label } from "@hybrid-search/eval-gate/labels";
import { passMarkOf, withFlags } from "@hybrid-search/eval-gate/pass-marks";
import type { AskCase } from "../scorers/ask-case.js";
import { judgeId } from "../scorers/judge-call.js";
import { JUDGED_GRADERS, judgeConfigHash, judgedGraderName } from "../scorers/judged-graders.js";
import { casesFor } from "../scorers/answer/index.js";
import { triadAppliesTo } from "../scorers/triad/index.js";
import { answerCases, judgeLabels, type LabelledAnswer, openEngine, readLabelsFile } from "./lib/calibration-run.js";
import { type CommandIo, parseCommandLine, positiveInteger, processIo, UsageError } from "./lib/cli-args.js";
import { DatasetError, loadDataset } from "../helpers/dataset.js";
import { formatFixtureError, isFixtureError, loadAskCases } from "../helpers/fixture-files.js";
import { REPO_ROOT } from "../helpers/fixture-files/paths.js";
import { evalModels } from "../helpers/models.js";
import { gitInfo } from "./lib/run-context.js";

const USAGE =
  "Usage: pnpm eval:calibrate <labels.jsonl> [--trials N] [--out file] | pnpm eval:calibrate --show <case ids|all> [--preset slim|balanced|quality]";

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
        },
        allowPositionals: true,
      },
      USAGE,
    );
    if (values.help) {
      say(USAGE);
      return 0;
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

    const baselinePath = resolve(process.env.EVAL_BASELINE?.trim() || join(REPO_ROOT, "evals/baseline.json"));
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
    const { judged, fallbacks, failed } = await judgeLabels(labels, answers, { judge, timeoutMs, trials });
    const methods = [
      { method: "heuristic" as const, model: null, judgeConfig: null },
      ...(judge ? [{ method: "llm-judge" as const, model: judgeId(judge), judgeConfig: judgeConfigHash(judgeId(judge)) }] : []),
    ];
    const calibration = calibrate({
      labels,
      judged,
      methods,
      passMark,
      labelsFile: { file: relative(REPO_ROOT, labelsPath) || labelsPath, sha256, labellers: Object.keys(header.labellers) },
      createdAt: new Date(),
      commit: gitInfo(REPO_ROOT).commit,
    });
    for (const line of calibrationTable(calibration, judgedGraderName)) say(line);
    const stale = calibration.methods[0]!.metrics.reduce((n, m) => n + m.stale, 0);
    if (stale > 0)
      say(
        `eval:calibrate: ${stale} label(s) left out: they graded another answer than the engine gives now (label them again: pnpm eval:calibrate --show <ids>)`,
      );
    const current = calibration.methods[0]!.metrics.reduce((n, m) => n + m.labels, 0);
    if (current === 0)
      throw new ConfigError(
        `not written: none of the ${labels.length} label(s) grades the answer the engine gives now (${stale} stale: the answers changed since they were labelled; label them again: pnpm eval:calibrate --show <ids>); ${relative(process.cwd(), outPath) || outPath} is untouched`,
      );
    if (fallbacks + failed > 0) {
      say(
        `eval:calibrate: not written: ${fallbacks > 0 ? `the judge failed twice on ${fallbacks} grade(s) (the heuristic stood in)` : ""}${fallbacks > 0 && failed > 0 ? " and " : ""}${failed > 0 ? `${failed} grade(s) of a failed answer` : ""}; a calibration with holes is not one`,
      );
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
    if (l.metric === "topic-coverage" ? !withTopics.has(c.id) : !triadAppliesTo(c))
      throw new ConfigError(
        `${at}: /metric: ${l.metric} does not apply to case ${l.case} (${l.metric === "topic-coverage" ? "it has no expectedTopics" : "it expects a refusal, and the triad measures answers"})`,
      );
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
  for (const s of r.sources)
    lines.push(`  source [${s.ref}] ${s.docId} — ${s.title}: ${[s.heading, s.text].filter(Boolean).join(" / ").replace(/\s+/g, " ")}`);
  return lines;
}
