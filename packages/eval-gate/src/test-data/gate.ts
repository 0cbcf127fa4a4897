/** Small Evalite outputs and reports for the gate's unit tests. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Evalite } from "evalite";
import type { SliceAggregate } from "../aggregate.js";
import type { EvaliteVerdict } from "../analysis.js";
import { emptyBaseline, type Baseline } from "../baseline.js";
import { type GateOptions, judgeRun, type RecordedRun } from "../judge-run.js";
import type { PassMarks } from "../pass-marks.js";
import type { Report } from "../report.js";
import type { RunInfo, SkippedEval } from "../run-info.js";

export interface RowSpec {
  id: string;
  scores: Record<string, number | { score: number; metadata: Record<string, unknown> }>;
  language?: string;
  category?: string;
  elapsedMs?: number;
  error?: string;
}

const CREATED_AT = "2026-11-29 12:00:00";

/** An exported eval row: `fields` over a successful row without scores. */
export function evalRow(fields: Partial<Evalite.Exported.Eval> & Pick<Evalite.Exported.Eval, "input">): Evalite.Exported.Eval {
  return {
    id: 1,
    duration: 5,
    output: null,
    status: "success",
    colOrder: 0,
    createdAt: CREATED_AT,
    averageScore: 0,
    scores: [],
    traces: [],
    ...fields,
  };
}

export function row(spec: RowSpec): Evalite.Exported.Eval {
  const input = {
    id: spec.id,
    query: `query ${spec.id}`,
    ...(spec.language ? { language: spec.language } : {}),
    ...(spec.category ? { category: spec.category } : {}),
  };
  if (spec.error) return evalRow({ input, output: { name: "Error", message: spec.error, stack: "…" }, status: "fail", duration: 3 });
  return evalRow({
    input,
    output: spec.elapsedMs === undefined ? { answer: "x" } : { elapsedMs: spec.elapsedMs },
    scores: Object.entries(spec.scores).map(([name, s], i) => ({
      id: i + 1,
      name,
      createdAt: CREATED_AT,
      ...(typeof s === "number" ? { score: s } : { score: s.score, metadata: s.metadata }),
    })),
  });
}

export function suite(name: string, rows: Evalite.Exported.Eval[], variant?: { group: string; name: string }): Evalite.Exported.Suite {
  return {
    id: 1,
    name,
    filepath: `/repo/evals/${(variant?.group ?? name).toLowerCase().replace(/\W+/g, "-")}.eval.ts`,
    duration: 0,
    status: rows.some((r) => r.status !== "success") ? "fail" : "success",
    ...(variant ? { variantName: variant.name, variantGroup: variant.group } : {}),
    createdAt: CREATED_AT,
    averageScore: 0,
    evals: rows,
  };
}

export function output(suites: Evalite.Exported.Suite[]): Evalite.Exported.Output {
  return { run: { id: 1, runType: "full", createdAt: CREATED_AT }, suites };
}

/** A test run in which `failedTests` tests failed (a task threw) and no file failed to load. */
export const failedTests = (n: number): EvaliteVerdict => ({ failedTests: n, unloadedFiles: [] });

export const RUN_INFO: RunInfo = {
  fingerprint: {
    schemaVersion: 1,
    analyzer: "analyzer-v1(test)",
    chunkers: ["chunker-v1(test)"],
    embedder: "offline/test",
    dimensions: 8,
    corpusHash: "a".repeat(64),
    documents: 3,
    passages: 5,
    dataset: "fixtures",
    collection: "corpus",
  },
  mode: "offline",
  models: { embedder: "offline/test", judge: null },
  engineOptions: {},
};

/** The grader ids a judge grades, as the suite registers them (scorers/judged-graders.ts). */
export const JUDGED_GRADERS = ["context-relevance", "faithfulness", "answer-relevance", "topic-coverage"];

/** A run of `out` as bin/eval-verdict.ts reads it back: `fields` over a clean offline run of the fixtures. */
export function recordedRun(out: Evalite.Exported.Output, fields: Partial<Omit<RecordedRun, "output">> = {}): RecordedRun {
  return {
    output: out,
    evalite: failedTests(0),
    runInfo: RUN_INFO,
    skipped: [],
    fixtures: {
      dataset: "fixtures",
      kind: "fixtures",
      version: 1,
      hash: "b".repeat(64),
      queries: 4,
      judgedQueries: 4,
      askCases: 0,
    },
    startedAt: new Date("2026-11-29T12:00:00.000Z"),
    finishedAt: new Date("2026-11-29T12:00:09.500Z"),
    git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
    args: [],
    filter: null,
    ...fields,
  };
}

/** The options of a plain `pnpm eval`: `fields` over no flags, evalite.config.ts's threshold 70 (not applied). */
export function gateOptions(fields: Partial<GateOptions> = {}): GateOptions {
  return {
    updateBaseline: false,
    lowerFloors: [],
    acceptFailures: [],
    reason: null,
    passMarks: [],
    threshold: null,
    configuredThreshold: 70,
    judgedGraders: JUDGED_GRADERS,
    baselinePath: "evals/baseline.json",
    baselineShown: "evals/baseline.json",
    upgradedFrom: null,
    root: "/repo",
    ...fields,
  };
}

/** A report of `out` gated on `baseline`, as `pnpm eval` builds it (judge-run.ts). */
export function reportOf(
  out: Evalite.Exported.Output,
  options: {
    baseline?: Baseline;
    runInfo?: RunInfo;
    evalite?: EvaliteVerdict;
    fixturesHash?: string;
    threshold?: number;
    filter?: string;
    passMarks?: PassMarks;
    skipped?: SkippedEval[];
  } = {},
): Report {
  const baseline = options.baseline ?? emptyBaseline();
  const run = recordedRun(out, {
    ...(options.runInfo ? { runInfo: options.runInfo } : {}),
    ...(options.evalite ? { evalite: options.evalite } : {}),
    ...(options.skipped ? { skipped: options.skipped } : {}),
    ...(options.filter !== undefined ? { filter: options.filter } : {}),
  });
  if (options.fixturesHash) run.fixtures = { ...run.fixtures, hash: options.fixturesHash };
  const judged = judgeRun(
    run,
    options.passMarks ? { ...baseline, passMarks: options.passMarks } : baseline,
    gateOptions(options.threshold === undefined ? {} : { threshold: options.threshold }),
  );
  if (judged.kind !== "judged") throw new Error(`the test run was not judged: ${judged.kind}`);
  return judged.report;
}

/** A slice aggregate with the given means (n cases each; language= and category= slices are not base slices). */
export function sliceOf(evalKey: string, name: string, n: number, metrics: Record<string, number>): SliceAggregate {
  const base = !name.includes("language=") && !name.includes("category=");
  return {
    eval: evalKey,
    slice: name,
    base,
    n,
    latency: null,
    metrics: Object.entries(metrics).map(([metric, mean]) => ({ metric, n, mean, sd: 0, min: 0, max: 1, passRate: 0, notScored: {} })),
  };
}

/** A run's slices of one eval: a whole, a language slice large enough for a floor (n 12) and one too small (n 3). */
export const SEARCH_SLICES: readonly SliceAggregate[] = [
  sliceOf("Search", "all", 58, { nDCG: 0.64, MRR: 0.8 }),
  sliceOf("Search", "language=de", 12, { nDCG: 0.45 }),
  sliceOf("Search", "language=xx", 3, { nDCG: 0.9 }),
];

/** A change context of the test runs: date, commit and `reason`. */
export const changeContext = (reason: string) => ({ date: "2026-11-29T12:00:00.000Z", commit: "abc123", reason });

export const find = (aggregates: readonly SliceAggregate[], evalKey: string, slice: string, metric: string) =>
  aggregates.find((a) => a.eval === evalKey && a.slice === slice)?.metrics.find((m) => m.metric === metric);

/** A temp folder for files a test writes: `file(name, content)` writes one and returns its path. */
export function scratchFolder(prefix: string): { dir: string; file: (name: string, content: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
