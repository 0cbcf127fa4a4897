/**
 * One Evalite run read back from Evalite's storage. Evalite's Node API (`runEvalite`) returns no
 * results, and its `outputPath` export takes the storage's latest full run, whichever process
 * made it. So the gate learns which run this invocation created by recording the ids the storage
 * hands out (`recordCreatedRuns`), and reads that run's rows itself (`exportRun`), in the shape
 * of Evalite's `--outputPath` export (`Evalite.Exported.Output`, same fields, same mapping). After
 * the gate, `markFailedSuites` writes its verdicts back as the suites' status, for Evalite's UI.
 *
 * I/O through the `Evalite.Storage` interface only; Evalite itself is not imported (types only).
 */
import type { Evalite } from "evalite";

export interface RecordingStorage {
  /** The storage to give Evalite: the same rows, with `runs.create` recorded. */
  storage: Evalite.Storage;
  /** Ids of the runs created through `storage`, in order. */
  createdRunIds: readonly number[];
}

/** `storage`, recording the id of every run created through it: exactly the run(s) Evalite made for this invocation. */
export function recordCreatedRuns(storage: Evalite.Storage): RecordingStorage {
  const createdRunIds: number[] = [];
  return {
    createdRunIds,
    storage: {
      runs: {
        create: async (opts) => {
          const run = await storage.runs.create(opts);
          createdRunIds.push(run.id);
          return run;
        },
        getMany: (opts) => storage.runs.getMany(opts),
      },
      suites: storage.suites,
      evals: storage.evals,
      scores: storage.scores,
      traces: storage.traces,
      cache: storage.cache,
      close: () => storage.close(),
      [Symbol.asyncDispose]: () => storage[Symbol.asyncDispose](),
    },
  };
}

/**
 * Run `runId` as Evalite's `--outputPath` export would write it: its finished suites (in the order
 * they were created), their evals (by column order), scores and traces. Unlike Evalite's export, it
 * is the run asked for, not the storage's latest.
 */
export async function exportRun(storage: Evalite.Storage, runId: number): Promise<Evalite.Exported.Output> {
  const [run] = await storage.runs.getMany({ ids: [runId], limit: 1 });
  if (!run) throw new Error(`Evalite's storage has no run ${runId}`);
  const suites = await storage.suites.getMany({ runIds: [runId], statuses: ["fail", "success"], orderBy: "id", orderDirection: "asc" });
  // Each getMany with an empty id list would match every row: ask only when there are ids.
  const evals = suites.length > 0 ? await storage.evals.getMany({ suiteIds: suites.map((s) => s.id) }) : [];
  const evalIds = evals.map((e) => e.id);
  const scores = evalIds.length > 0 ? await storage.scores.getMany({ evalIds }) : [];
  const traces = evalIds.length > 0 ? await storage.traces.getMany({ evalIds }) : [];
  const scoresOf = groupBy(scores, (s) => s.eval_id);
  const tracesOf = groupBy(traces, (t) => t.eval_id);
  const evalsOf = groupBy(evals, (e) => e.suite_id);
  return {
    run: { id: run.id, runType: run.runType, createdAt: run.created_at },
    suites: suites.map((suite) => {
      const rows = (evalsOf.get(suite.id) ?? []).map((row) => exportedEval(row, scoresOf.get(row.id) ?? [], tracesOf.get(row.id) ?? []));
      return {
        id: suite.id,
        name: suite.name,
        filepath: suite.filepath,
        duration: suite.duration,
        status: suite.status,
        variantName: suite.variant_name,
        variantGroup: suite.variant_group,
        createdAt: suite.created_at,
        // As Evalite computes it: the mean of every score of the suite's evals, 0 without scores.
        averageScore: mean(rows.flatMap((r) => r.scores.map((s) => s.score))),
        evals: rows,
      };
    }),
  };
}

/**
 * Writes the gate's verdicts into the run's suites, the one mark Evalite's UI lets a run set
 * (suite-verdicts.ts): status "fail" (Evalite's ⊗) for each suite the gate failed that Evalite
 * had not already failed. Returns the names of the suites it marked.
 */
export async function markFailedSuites(
  storage: Evalite.Storage,
  output: Pick<Evalite.Exported.Output, "suites">,
  verdicts: ReadonlyArray<{ suite: string; status: "pass" | "fail" }>,
): Promise<string[]> {
  const failed = new Set(verdicts.filter((v) => v.status === "fail").map((v) => v.suite));
  const marked: string[] = [];
  for (const suite of output.suites) {
    if (!failed.has(suite.name) || suite.status === "fail") continue;
    await storage.suites.update({ id: suite.id, status: "fail" });
    marked.push(suite.name);
  }
  return marked;
}

function exportedEval(
  row: Evalite.Storage.Entities.Eval,
  scores: readonly Evalite.Storage.Entities.Score[],
  traces: readonly Evalite.Storage.Entities.Trace[],
): Evalite.Exported.Eval {
  return {
    id: row.id,
    duration: row.duration,
    input: row.input,
    output: row.output,
    expected: row.expected,
    status: row.status,
    colOrder: row.col_order,
    renderedColumns: row.rendered_columns,
    createdAt: row.created_at,
    averageScore: mean(scores.map((s) => s.score)),
    scores: scores.map((s) => ({
      id: s.id,
      name: s.name,
      score: s.score,
      description: s.description,
      metadata: s.metadata,
      createdAt: s.created_at,
    })),
    traces: traces.map((t) => ({
      id: t.id,
      input: t.input,
      output: t.output,
      startTime: t.start_time,
      endTime: t.end_time,
      inputTokens: t.input_tokens,
      outputTokens: t.output_tokens,
      totalTokens: t.total_tokens,
      colOrder: t.col_order,
    })),
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const mean = (values: readonly number[]): number => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0);
