/**
 * trec_eval 10.0, reimplemented: reads a qrels file and a run, scores every judged topic with
 * the requested measures and renders trec_eval's output (`%-22s\t%s\t%6.4f`, counts as
 * integers, per-topic lines with -q in topic byte order, `all` lines last).
 *
 * Topic rules (trec_eval's): run topics without judgments are ignored (not even checked for
 * repeated documents: trec_eval finds those while scoring a topic); a judged topic missing
 * from the run is an error unless -c is given (trec_eval 10.0 refuses it too, with exit status 4
 * and a misleading message), and with -c it is scored as trec_eval 10.0 scores it: as a ranking
 * of one unjudged document, with num_ret, utility, relstring, unj and rbp_resid set to 0; and
 * num_rel's `all` line is recounted from the qrels (grade > 0, whatever -l), as trec_eval does.
 *
 * Ids are handled as raw bytes (Latin-1 strings), so ordering and output are byte-exact for any
 * encoding, as in trec_eval.
 */
import { DuplicateDocumentError, judgedRanking, placeholderRanking } from "./judged-ranking.js";
import { aggregate } from "./aggregate.js";
import { FormatError, showId } from "./formats/format-error.js";
import { GradeTooLargeError } from "./gain-table.js";
import { readTrecQrels } from "./formats/trec-qrels.js";
import { readTrecRun } from "./formats/trec-run.js";
import type { MeasureRequest } from "./measure-spec.js";
import { formatFixedWidth } from "./printf.js";
import { resolveMeasures, type EvalContext, type MeasureInstance } from "./registry.js";

export interface TrecEvalOptions {
  readonly qrelsFile: string;
  readonly runFile: string;
  /** `-m` requests in command-line order; empty means trec_eval's `official` set. */
  readonly measures: readonly MeasureRequest[];
  /** -q: print a line per topic before the summary. @default false */
  readonly perTopic?: boolean;
  /** -c: average over every judged topic; missing ones score 0. @default false */
  readonly complete?: boolean;
  /** -l: minimum grade that counts as relevant. @default 1 */
  readonly relevanceLevel?: number;
  /** -M: evaluate at most this many documents per topic. @default Infinity */
  readonly maxDepth?: number;
  /** -N: documents in the collection (utility). @default 0 */
  readonly numDocsInCollection?: number;
  /** -n: print no summary lines. @default true */
  readonly summary?: boolean;
}

type TopicValues = Array<Array<number | string>>;

/** Runs the evaluation and returns trec_eval's output as a Latin-1 string (one char per byte). */
export function trecEval(options: TrecEvalOptions): string {
  const instances = resolveMeasures(options.measures);
  const relevanceLevel = options.relevanceLevel ?? 1;
  const maxDepth = options.maxDepth ?? Infinity;
  const ctx: EvalContext = { numDocsInCollection: options.numDocsInCollection ?? 0 };
  const qrels = readTrecQrels(options.qrelsFile, { idEncoding: "latin1" });

  /** Computes a topic's measures; a grade the gain table cannot hold is an input error on the topic's first qrels line. */
  const inTopic = (id: string, compute: () => TopicValues): TopicValues => {
    try {
      return compute();
    } catch (error) {
      if (!(error instanceof GradeTooLargeError)) throw error;
      throw new FormatError(qrels.file, qrels.topics.get(id)!.line, error.message);
    }
  };
  const results = new Map<string, TopicValues>();
  const run = readTrecRun(options.runFile, {
    idEncoding: "latin1",
    wantTopic: (id) => qrels.topics.has(id),
    onRestart: () => results.clear(),
    onTopic: (topic) => {
      let judged: ReturnType<typeof judgedRanking>;
      try {
        judged = judgedRanking(topic, qrels.topics.get(topic.id)!, { relevanceLevel, maxDepth });
      } catch (error) {
        if (!(error instanceof DuplicateDocumentError)) throw error;
        throw new FormatError(
          options.runFile,
          topic.lines[error.secondIndex]!,
          `document "${showId(error.docId, "latin1")}" appears twice for topic "${showId(topic.id, "latin1")}" (first on line ${topic.lines[error.firstIndex]})`,
        );
      }
      results.set(
        topic.id,
        inTopic(topic.id, () => instances.map((i) => i.measure.compute(judged, i.params, ctx))),
      );
    },
  });

  const perTopic: TopicValues[] = [];
  for (const id of qrels.topicOrder) {
    let values = results.get(id);
    if (values === undefined) {
      const topic = qrels.topics.get(id)!;
      if (!options.complete) {
        throw new FormatError(
          qrels.file,
          topic.line,
          `topic "${showId(id, "latin1")}" is judged but has no results in ${options.runFile}; pass -c to score missing topics as 0 (trec_eval 10.0 refuses this as well)`,
        );
      }
      const judged = placeholderRanking(topic, relevanceLevel);
      values = inTopic(id, () =>
        instances.map(({ measure, params }) => {
          const computed = measure.compute(judged, params, ctx);
          return measure.placeholder === "zero" ? computed.map((v) => (typeof v === "string" ? "" : 0)) : computed;
        }),
      );
    }
    perTopic.push(values);
  }

  let out = "";
  if (options.perTopic) {
    qrels.topicOrder.forEach((id, t) => {
      instances.forEach((instance, m) => {
        if (instance.measure.perTopic) out += lines(instance, id, perTopic[t]![m]!);
      });
    });
  }
  if (options.summary ?? true) {
    instances.forEach((instance, m) => {
      const { measure } = instance;
      if (measure.summary === "none") return;
      if (measure.summary === "runid") {
        out += `${pad("runid")}\tall\t${run.runId}\n`;
        return;
      }
      const summary =
        options.complete && measure.completeSummary
          ? [measure.completeSummary(qrels.topics.values())]
          : instance.names.map((_, slot) =>
              aggregate(
                measure.summary,
                perTopic.map((values) => values[m]![slot] as number),
              ),
            );
      out += lines(instance, "all", summary);
    });
  }
  return out;
}

function pad(name: string): string {
  return name.padEnd(22, " ");
}

function lines(instance: MeasureInstance, topic: string, values: ReadonlyArray<number | string>): string {
  const { names, measure } = instance;
  let out = "";
  values.forEach((v, slot) => {
    const text = typeof v === "string" ? `'${v}'` : measure.value === "count" ? String(Math.trunc(v)) : formatFixedWidth(v, 6, 4);
    out += `${pad(names[slot]!)}\t${topic}\t${text}\n`;
  });
  return out;
}
