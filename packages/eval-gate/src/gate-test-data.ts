/** Small Evalite outputs and reports for the gate's unit tests. */
import type { SliceAggregate } from "./aggregate.js";
import { checkFloors, emptyBaseline, type Baseline } from "./baseline.js";
import type { EvaliteEvalRow, EvaliteOutput, EvaliteSuite } from "./evalite-output.js";
import { analyzeRun, buildReport, type Report, type RunInfo } from "./report.js";

export interface RowSpec {
  id: string;
  scores: Record<string, number | { score: number; metadata: Record<string, unknown> }>;
  language?: string;
  category?: string;
  elapsedMs?: number;
  error?: string;
}

export function row(spec: RowSpec): EvaliteEvalRow {
  const input = {
    id: spec.id,
    query: `query ${spec.id}`,
    ...(spec.language ? { language: spec.language } : {}),
    ...(spec.category ? { category: spec.category } : {}),
  };
  if (spec.error) return { input, output: { name: "Error", message: spec.error, stack: "…" }, status: "fail", duration: 3, scores: [] };
  return {
    input,
    output: spec.elapsedMs === undefined ? { answer: "x" } : { elapsedMs: spec.elapsedMs },
    status: "success",
    duration: 5,
    scores: Object.entries(spec.scores).map(([name, s]) =>
      typeof s === "number" ? { name, score: s } : { name, score: s.score, metadata: s.metadata },
    ),
  };
}

export function suite(name: string, rows: EvaliteEvalRow[], variant?: { group: string; name: string }): EvaliteSuite {
  return {
    name,
    filepath: `/repo/evals/${(variant?.group ?? name).toLowerCase().replace(/\W+/g, "-")}.eval.ts`,
    status: rows.some((r) => r.status !== "success") ? "fail" : "success",
    variantName: variant?.name ?? null,
    variantGroup: variant?.group ?? null,
    evals: rows,
  };
}

export function output(suites: EvaliteSuite[]): EvaliteOutput {
  return { run: { id: 1, runType: "full", createdAt: "2026-11-29 12:00:00" }, suites };
}

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

/** A report of `out` gated on `baseline`, as bin/eval.ts builds it. */
export function reportOf(
  out: EvaliteOutput,
  options: { baseline?: Baseline; runInfo?: RunInfo; evaliteStatus?: number; fixturesHash?: string; threshold?: number } = {},
): Report {
  const baseline = options.baseline ?? emptyBaseline();
  const analysis = analyzeRun(out, (e) => Object.keys(baseline.floors.offline?.[e] ?? {}));
  return buildReport({
    startedAt: new Date("2026-11-29T12:00:00.000Z"),
    finishedAt: new Date("2026-11-29T12:00:09.500Z"),
    git: { commit: "0123456789abcdef0123456789abcdef01234567", dirty: false },
    args: [],
    runInfo: options.runInfo ?? RUN_INFO,
    floorMode: "offline",
    fixtures: {
      dataset: "fixtures",
      kind: "fixtures",
      version: 1,
      hash: options.fixturesHash ?? "b".repeat(64),
      queries: 4,
      judgedQueries: 4,
      askCases: 0,
    },
    evaliteStatus: options.evaliteStatus ?? 0,
    evaliteThreshold:
      options.threshold === undefined
        ? { threshold: 70, source: "evalite.config.ts", binding: false }
        : { threshold: options.threshold, source: "--threshold", binding: true },
    output: out,
    analysis,
    baselinePath: "evals/baseline.json",
    gate: checkFloors(baseline, "offline", analysis.aggregates, analysis.ranEvals),
    changes: [],
  });
}

export const find = (aggregates: readonly SliceAggregate[], evalKey: string, slice: string, metric: string) =>
  aggregates.find((a) => a.eval === evalKey && a.slice === slice)?.metrics.find((m) => m.metric === metric);
