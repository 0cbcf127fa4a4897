/**
 * The dataset model: everything an eval reads about the data it measures, whatever format the data
 * came in (helpers/datasets/formats/). A reader fills one `Dataset`; the eval files, the index
 * build, a target's seed and the report read only this.
 *
 * - documents: id, title, text, language when known, validity; one collection per dataset;
 * - retrieval cases with graded judgments (docId → 0..3), and the relevant set apart from them when
 *   the dataset lists one that differs (a fixtures layout's relevantDocs);
 * - answer cases (the suite's ask-case fields, plus a reference answer when the format has one);
 * - translation groups, refusal markers, and the dataset's own gate settings when it brings them;
 * - what the reader could not map (`unmapped`) and what it warns about: both are printed in the
 *   run's header and recorded in the report, never dropped in silence.
 */
import type { Document } from "@hybrid-search/target-contract/types";
import type { RefusalMarkers } from "../../scorers/refusal.js";
import type { TurnCase } from "../../scorers/agent/turn-case.js";
import type { AskCase } from "../fixture-files/types.js";
import type { DraftFields } from "./drafts.js";

/** A judged query; a drafted one carries `status: "draft"` and its provenance (drafts.ts). */
export interface RetrievalCase extends DraftFields {
  id: string;
  query: string;
  /** Query language, when the dataset says. */
  language?: string;
  /** The query's category when the dataset gives one; in the lanes (helpers/lanes.ts), the CJK category, the lexical matrix cell or the kind of temporal change. */
  category?: string;
  collection?: string;
  /** An identifier query's identifier, as the relevant document spells it (the fixture format's `identifier`). */
  identifier?: string;
  /** docId → graded relevance (0 = judged non-relevant): what nDCG@k counts. */
  judgments: Record<string, number>;
  /**
   * The documents Recall@k, P@k, MRR, AP and "lost at" count as relevant, when the dataset lists
   * them apart from its graded judgments and they are not exactly the documents judged 1 or more
   * (a fixtures layout's `relevantDocs`). Absent: the documents judged 1 or more, as in every
   * other format. Each is in `judgments` too (a listed document without a judgment is judged 1).
   */
  relevant?: string[];
  /** What this query guards, when the dataset says. */
  note?: string;
}

/** An answer case: the suite's ask-case fields (scorers/ask-case.ts); a drafted one carries `status: "draft"` and its provenance (drafts.ts). */
export type AnswerCase = AskCase & DraftFields;

export interface TranslationGroup {
  id: string;
  docs: string[];
  note?: string;
}

/**
 * Gate settings a dataset brings itself (a golden Q&A set's `thresholds`): held with that format's
 * semantics on the answer eval's questions (helpers/datasets/thresholds.ts), shown in the verdict.
 */
export interface DatasetGate {
  /** Share of questions that must pass (0..1): passed ÷ all questions ≥ minPassRate. */
  minPassRate?: number;
  /** p95 of the questions' answer latency (ms) must be at most this. */
  maxP95LatencyMs?: number;
  /** Where the settings were read (file and field), for the verdict's line. */
  source: string;
}

/** A field of the input the reader could not map to the model, with how many records had it and why. */
export interface UnmappedField {
  file: string;
  field: string;
  records: number;
  why: string;
}

/**
 * A dataset's agent turn cases (docs/evals.md, "The agent eval"): the file they came from, the
 * surfaces (tool sets) they run on and the cases, each with its surface's tools when the file
 * lists them.
 */
export interface DatasetTurns {
  file: string;
  /** `turn-cases`: the suite's turn-case format; `golden-cases`: a v10r-style golden set, mapped (turn-cases.ts). */
  format: "turn-cases" | "golden-cases";
  /** Surface → its tools; null when the file names the surface but not its tools (they live in its tool's code). */
  surfaces: Record<string, string[] | null>;
  /** A drafted case carries `status: "draft"` and its provenance (drafts.ts), as in any case file. */
  cases: Array<TurnCase & DraftFields>;
}

/** Where the documents are: a folder or JSONL file the engine reads itself, or documents given as data. */
export type CorpusSource =
  | { kind: "folder"; path: string }
  | { kind: "jsonl"; path: string }
  /**
   * `ids`: `paths` when the ids are file paths (their words searchable, as for a folder), `keys` for
   * record keys. `files`: the folder and each document's path below it, when the documents are files
   * that name their own ids (front matter `id`, the suite's fixture format): `pnpm eval:import` copies them as they are.
   */
  | {
      kind: "documents";
      documents: readonly Document[];
      ids: "paths" | "keys";
      files?: { root: string; paths: ReadonlyMap<string, string> };
    };

export interface Dataset {
  /** `fixtures` for the project's demo corpus; otherwise the dataset's folder or file name: it keys the floors. */
  name: string;
  /** The name of the format it was read in (helpers/datasets/formats/). */
  format: string;
  /** The project's own fixtures (`fixtures/`): the demo corpus, held to its own stricter rules. */
  demo: boolean;
  /** The folder or file the dataset was read from. */
  source: string;
  /** What gets indexed: a folder of Markdown files, a corpus.jsonl, or the source file (documents given as data). */
  corpus: string;
  corpusSource: CorpusSource;
  collection: string;
  /** Retrieval cases: the judged queries, or (`derivedCases`) one per answer case with required citations. */
  cases: RetrievalCase[];
  /** True when `cases` were derived from the answer cases' required citations (the format has no judgments). */
  derivedCases: boolean;
  askCases: AnswerCase[];
  /** The agent turn cases, when the dataset brings them (the demo's: fixtures/turn-cases.json); null: the agent eval is skipped. */
  turns: DatasetTurns | null;
  translations: TranslationGroup[];
  /** The dataset's own refusal phrases (they replace the suite's), or null: the suite's. */
  refusalMarkers: RefusalMarkers | null;
  gate: DatasetGate | null;
  /** Set when some case's relevant set differs from its documents judged 1 or more (a fixtures layout's relevantDocs): which field each metric counts. */
  splitRelevance: SplitRelevance | null;
  /** The `version` the dataset's own files state (a golden Q&A set's), or null. */
  version: number | string | null;
  unmapped: UnmappedField[];
  /** Problems that do not stop the run (a short refusal marker); printed in the header and recorded. */
  warnings: string[];
  /** Every document id of the corpus. */
  corpusIds: readonly string[];
  /**
   * Document id → language, for the documents whose language the dataset declares (front matter,
   * a language folder, a record's field); the others are told by language.ts when an eval needs them.
   */
  declaredLanguages: ReadonlyMap<string, string>;
  /** Files of the dataset whose content identifies it (hashed into the report). */
  files: readonly string[];
}

/** A problem with the dataset named in EVAL_DATASET, reported on one line (exit 2). */
export class DatasetError extends Error {
  override readonly name = "DatasetError";
}

/** Cases that have at least one relevant document (grade ≥ 1, or a relevant set that is not empty): the ones ranking metrics can score. */
export function judgedCases(cases: readonly RetrievalCase[]): RetrievalCase[] {
  return cases.filter((c) => (c.relevant?.length ?? 0) > 0 || Object.values(c.judgments).some((g) => g >= 1));
}

/** A case's relevant set: its `relevant` list when it has one, else the documents judged 1 or more. */
export function relevantSet(c: Pick<RetrievalCase, "judgments" | "relevant">): string[] {
  return c.relevant ?? Object.keys(c.judgments).filter((doc) => c.judgments[doc]! >= 1);
}

/**
 * Where a dataset's relevant sets came from, when some case's differs from its documents judged 1
 * or more: the fields each metric counts, for the run's header and the report.
 */
export interface SplitRelevance {
  /** The source field of the relevant sets (`relevantDocs`): Recall@k, P@k, MRR, AP and "lost at" count it. */
  relevantField: string;
  /** The source field of the graded judgments (`judgments`): nDCG@k counts it. */
  gradedField: string;
  /** How many cases list a relevant set that differs from their documents judged 1 or more. */
  cases: number;
}

/** Metric → the source field it counts, for a dataset whose relevant sets are listed apart (the report's `fixtures.relevance.metrics`). */
export function fieldsCounted(split: SplitRelevance): Record<string, string> {
  const binary = ["Recall@k", "P@k", "MRR", "AP", "Cross-language Recall@k", "Lost at"];
  return { ...Object.fromEntries(binary.map((m) => [m, split.relevantField])), "nDCG@k": split.gradedField };
}

/** The retrieval cases of answer cases with required citations: each cited document judged 1 (relevant). */
export function casesFromAnswers(askCases: readonly AnswerCase[]): RetrievalCase[] {
  return askCases
    .filter((c) => (c.mustCite ?? []).length > 0)
    .map((c) => ({
      id: c.id,
      query: c.question,
      ...(c.language ? { language: c.language } : {}),
      ...(c.category ? { category: c.category } : {}),
      judgments: Object.fromEntries((c.mustCite ?? []).map((doc) => [doc, 1])),
      // The query of a drafted question is as unreviewed as the question.
      ...(c.status ? { status: c.status } : {}),
    }));
}
