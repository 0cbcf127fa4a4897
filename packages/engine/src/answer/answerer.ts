/**
 * The seam between `ask()` and whatever writes the answer. `ask()` retrieves, chooses the sources
 * and checks the evidence; an `Answerer` only turns a question and its numbered sources into an
 * answer that cites them as [n], or a refusal. Two implement it: `ExtractiveAnswerer` (offline,
 * quotes sentences) and `ModelAnswerer` (a preset's language model).
 */
import type { OfflineRerankOptions } from "../retrieval/heuristic-reranker.js";
import type { AskResult, AskSource, CallPolicy } from "../types.js";

/** Evidence needed before an answerer is asked, by kind (see AskOptions.evidenceThreshold). */
export const EVIDENCE_THRESHOLD = { extractive: 0.4, model: 0.3 } as const;

export interface AnswerRequest {
  question: string;
  /** Numbered sources; `sources[i].ref` is `i + 1`. */
  sources: readonly AskSource[];
  /** The index's statistics for lexical scoring (IDF per term, languages), as the heuristic reranker takes them. */
  scoring: OfflineRerankOptions;
  /** Limits of a model call. */
  policy: CallPolicy;
  /** Extra HTTP headers for a model call. */
  headers?: Record<string, string>;
}

export interface Answer {
  /** The answer; the refusal sentence when refused; "" when the answerer failed. */
  text: string;
  /** Set when the answerer refused. */
  refusal?: Extract<AskResult["refusal"], "no-supporting-sentence" | "model">;
  /**
   * How a model wrote it: `structured` (JSON with its own `refused` and `citations`) or `text`
   * (free text: refused when it starts with the refusal sentence). Absent for the extractive answerer.
   */
  format?: "structured" | "text";
  /** The source numbers a structured answer declares it cites (besides the [n] in its text). */
  citations?: number[];
  /** Set when the answerer failed (one line); `text` is then "". */
  error?: string;
  /** What the trace's generation stage records. */
  trace: { input: Record<string, unknown>; output: Record<string, unknown>; note?: string };
}

export interface Answerer {
  /** Recorded in results and traces: `offline/extractive-v1`, or `provider/modelId`. */
  readonly id: string;
  /** Evidence below which `ask()` refuses without asking this answerer, unless the call sets one. */
  readonly evidenceThreshold: number;
  /** Never rejects for a model failure: the answer then carries `error`. */
  answer(request: AnswerRequest): Promise<Answer>;
}
