/**
 * Drafting a golden set's next cases from a corpus (`pnpm eval:draft`, docs/evals.md "Growing the
 * golden set"): candidates from every document — by the offline rules (rules.ts) or, with a model
 * configured, by the model (model-drafter.ts) for the answer cases — every answer candidate held to
 * the checks (check.ts), near-duplicates and questions the dataset already asks dropped, then a
 * balanced pick of `n`: about one in ten a question the corpus does not answer (off-corpus.ts), the
 * rest taken in turns from each category × language (and within one, from each document in turn),
 * so no rule, language or document crowds out the others. What was found, kept and dropped, per
 * category and language, is reported. Deterministic for the same documents and options (offline).
 */
import type { AnswerCase, RetrievalCase } from "../dataset.js";
import { DRAFT } from "../datasets/drafts.js";
import { draftProblem, QuestionSet } from "./check.js";
import { type ModelDraft, type ModelDrafter, MODEL_CATEGORIES } from "./model-drafter.js";
import { factTests, offCorpusQuestions } from "./off-corpus.js";
import { phrasingFor } from "./phrasing.js";
import {
  ANSWER_RULES,
  answerDrafts,
  corpusWords,
  documentStructure,
  headingCounts,
  QUERY_RULES,
  queryDrafts,
  type SourceDocument,
} from "./rules.js";

export type { SourceDocument } from "./rules.js";

/** The categories of drafted cases, in the order they take turns. */
export const DRAFT_CATEGORIES = [...ANSWER_RULES, ...MODEL_CATEGORIES, ...QUERY_RULES, "off-corpus"] as const;

export interface DraftOptions {
  /** How many cases to draft. */
  n: number;
  /** Only documents in these languages (base tags); null: every language. */
  languages: readonly string[] | null;
  /** The date drafts are stamped with (YYYY-MM-DD). */
  date: string;
  /** The questions and queries the dataset already has: a draft asking the same is dropped. */
  existingQuestions: readonly string[];
  /** Ids in use: drafted ids avoid them. */
  existingIds: ReadonlySet<string>;
  /** A document's translations (translation groups): judged like it in a drafted query. */
  translationsOf?: (docId: string) => readonly string[];
  /** With a model configured: it drafts the answer cases instead of the offline rules. */
  model?: ModelDrafter | null;
}

/** Counts per category, then per language. */
export type Counts = Record<string, Record<string, number>>;

export interface DraftReport {
  /** `offline rules`, or the model that drafted the answer cases. */
  method: string;
  documents: number;
  /** Documents in a language the offline rules cannot ask in (retrieval drafts only), by language. */
  unphrased: Record<string, number>;
  /** Documents left out by `--languages`. */
  leftOut: number;
  /** Candidates that passed the checks and were not duplicates, per category and language. */
  available: Counts;
  /** The drafts written, per category and language. */
  drafted: Counts;
  dropped: {
    /** Near-duplicates of another draft. */
    duplicates: number;
    /** Questions the dataset already asks. */
    existing: number;
    /** Drafts that failed the checks, by reason (the first example of each). */
    failed: Array<{ reason: string; count: number; example: string }>;
  };
}

export interface DraftedSet {
  answerCases: AnswerCase[];
  retrievalCases: RetrievalCase[];
  report: DraftReport;
}

/** One candidate, whatever its kind: an answer, a query or an off-corpus question. */
interface Candidate {
  category: string;
  language: string;
  docId: string | null;
  text: string;
  make: (id: string) => { answer?: AnswerCase; query?: RetrievalCase };
}

const base = (language: string | null | undefined): string => (language ? language.toLowerCase().split(/[-_]/)[0]! : "unknown");

function count(counts: Counts, category: string, language: string): void {
  const row = (counts[category] ??= {});
  row[language] = (row[language] ?? 0) + 1;
}

/** Drafts up to `options.n` cases from `documents` (module comment). */
export async function draftCases(documents: readonly SourceDocument[], options: DraftOptions): Promise<DraftedSet> {
  const wanted = new Set((options.languages ?? []).map(base));
  const docs = documents.filter((d) => wanted.size === 0 || wanted.has(base(d.language)));
  const words = corpusWords(docs);
  const structures = docs.map((d) => documentStructure(d.text, d.title));
  const headings = headingCounts(structures);
  const textOf = new Map(docs.map((d) => [d.id, d.text]));
  const report: DraftReport = {
    method: options.model ? `model ${options.model.id}` : "offline rules",
    documents: docs.length,
    unphrased: {},
    leftOut: documents.length - docs.length,
    available: {},
    drafted: {},
    dropped: { duplicates: 0, existing: 0, failed: [] },
  };
  const failures = new Map<string, { count: number; example: string }>();
  const fail = (reason: string, example: string): void => {
    const f = failures.get(reason) ?? { count: 0, example };
    f.count++;
    failures.set(reason, f);
  };
  const provenance = (method: string, docId?: string, quote?: string, also?: Array<{ docId: string; quote: string }>) => ({
    method,
    ...(docId !== undefined ? { docId } : {}),
    ...(quote !== undefined ? { quote } : {}),
    ...(also && also.length > 0 ? { also } : {}),
    drafted: options.date,
  });

  const candidates: Candidate[] = [];
  const answer = (
    category: string,
    language: string,
    question: string,
    expected: string[],
    sources: Array<{ docId: string; quote: string }>,
    method: string,
  ): void => {
    const problem = draftProblem({ question, expected, sources }, (id) => textOf.get(id));
    // Failures are counted by kind: the reason without the values it quotes.
    if (problem !== null) {
      fail(problem.replace(/:? ?"(?:[^"\\]|\\.)*"/g, "").replace(/: .*$/, ""), `${sources[0]?.docId ?? "?"}: ${problem}`);
      return;
    }
    const [first, ...also] = sources;
    candidates.push({
      category,
      language,
      docId: first!.docId,
      text: question,
      make: (id) => ({
        answer: {
          id,
          question,
          language,
          category,
          expectedSubstrings: expected,
          mustCite: [...new Set(sources.map((s) => s.docId))],
          status: DRAFT,
          provenance: provenance(method, first!.docId, first!.quote, also),
        },
      }),
    });
  };

  // Answer cases: by the model when one is configured, else by the offline rules.
  if (options.model) {
    const drafts: ModelDraft[] = await options.model.draft(docs, structures, words, {
      perCategory: Math.ceil(options.n / 4) + 2,
      onFailure: fail,
    });
    for (const d of drafts) answer(d.category, d.language, d.question, d.expected, d.sources, `model/${options.model.id}`);
  } else {
    docs.forEach((doc, i) => {
      for (const d of answerDrafts(doc, structures[i]!, words))
        answer(d.rule, d.language, d.question, d.expected, [{ docId: d.docId, quote: d.quote }], `structure/${d.rule}`);
    });
  }
  docs.forEach((doc, i) => {
    if (!phrasingFor(doc.language)) report.unphrased[base(doc.language)] = (report.unphrased[base(doc.language)] ?? 0) + 1;
    for (const q of queryDrafts(doc, i, structures[i]!, words, headings)) {
      if (!doc.text.includes(q.quote)) {
        fail("its quote is not in the document as written", `${doc.id}: ${q.query}`);
        continue;
      }
      const grade = q.rule === "heading" ? 3 : 2;
      const judged = [doc.id, ...(options.translationsOf?.(doc.id) ?? []).filter((t) => t !== doc.id && textOf.has(t))];
      candidates.push({
        category: q.rule,
        language: base(q.language),
        docId: doc.id,
        text: q.query,
        make: (id) => ({
          query: {
            id,
            query: q.query,
            ...(q.language ? { language: q.language } : {}),
            category: q.rule,
            judgments: Object.fromEntries(judged.map((d) => [d, grade])),
            status: DRAFT,
            provenance: provenance(`structure/${q.rule}`, doc.id, q.quote),
          },
        }),
      });
    }
  });
  // Questions the corpus does not answer, in the corpus's languages.
  const languages = [...new Set(docs.map((d) => base(d.language)))].sort();
  const tests = factTests(docs.map((d) => `${d.title ?? ""}\n${d.text}`));
  for (const language of languages)
    for (const q of offCorpusQuestions(language, tests))
      candidates.push({
        category: "off-corpus",
        language,
        docId: null,
        text: q.question,
        make: (id) => ({
          answer: {
            id,
            question: q.question,
            language,
            category: "off-corpus",
            expectedRefusal: true,
            status: DRAFT,
            provenance: provenance("structure/off-corpus"),
          },
        }),
      });

  // Near-duplicates and questions the dataset has: dropped before the pick.
  const existing = new QuestionSet();
  for (const q of options.existingQuestions) existing.add(q);
  const seen = new QuestionSet();
  const fresh: Candidate[] = [];
  for (const c of candidates) {
    if (existing.matches(c.text)) {
      report.dropped.existing++;
      continue;
    }
    if (!seen.add(c.text)) {
      report.dropped.duplicates++;
      continue;
    }
    fresh.push(c);
    count(report.available, c.category, c.language);
  }

  // The pick: one in ten off-corpus, then turns over category × language, documents in turn within each.
  const offCorpus = fresh.filter((c) => c.category === "off-corpus");
  const rest = fresh.filter((c) => c.category !== "off-corpus");
  // About one in ten of what is drafted, never more: a corpus with few answerable drafts gives fewer
  // drafts, not a set of refusals.
  const offTarget = options.n >= 5 ? Math.max(1, Math.round(options.n / 10)) : 0;
  const restTaken = inTurns(groups(rest), options.n - Math.min(offTarget, offCorpus.length));
  const offTaken = inTurns(groups(offCorpus), Math.min(offTarget, Math.max(offTarget > 0 ? 1 : 0, Math.round(restTaken.length / 9))));
  const picked = [...offTaken, ...restTaken];

  const answerCases: AnswerCase[] = [];
  const retrievalCases: RetrievalCase[] = [];
  const ids = new Set(options.existingIds);
  const nextId = (prefix: string, from: { n: number }): string => {
    let id: string;
    do id = `${prefix}-${String(++from.n).padStart(3, "0")}`;
    while (ids.has(id));
    ids.add(id);
    return id;
  };
  const a = { n: 0 };
  const q = { n: 0 };
  for (const c of picked) {
    const isQuery = (QUERY_RULES as readonly string[]).includes(c.category);
    const made = c.make(nextId(isQuery ? "draft-q" : "draft-a", isQuery ? q : a));
    if (made.answer) answerCases.push(made.answer);
    if (made.query) retrievalCases.push(made.query);
    count(report.drafted, c.category, c.language);
  }
  report.dropped.failed = [...failures].map(([reason, f]) => ({ reason, ...f })).sort((x, y) => y.count - x.count);
  return { answerCases, retrievalCases, report };
}

/** Candidates grouped by category and language (in DRAFT_CATEGORIES order, languages sorted), each group's documents in turn. */
function groups(candidates: readonly Candidate[]): Candidate[][] {
  const byKey = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = `${String(DRAFT_CATEGORIES.indexOf(c.category as (typeof DRAFT_CATEGORIES)[number])).padStart(2, "0")}|${c.language}`;
    let list = byKey.get(key);
    if (list === undefined) byKey.set(key, (list = []));
    list.push(c);
  }
  return [...byKey.keys()].sort().map((key) => byDocumentInTurn(byKey.get(key)!));
}

/** A group's candidates with its documents taking turns: each document's first, then each one's second, … */
function byDocumentInTurn(list: readonly Candidate[]): Candidate[] {
  const perDoc = new Map<string, Candidate[]>();
  for (const c of list) {
    const key = c.docId ?? c.text;
    let l = perDoc.get(key);
    if (l === undefined) perDoc.set(key, (l = []));
    l.push(c);
  }
  const queues = [...perDoc.values()];
  const out: Candidate[] = [];
  for (let round = 0; out.length < list.length; round++) for (const queue of queues) if (round < queue.length) out.push(queue[round]!);
  return out;
}

/** Up to `n` candidates, one from each group in turn. */
function inTurns(lists: readonly Candidate[][], n: number): Candidate[] {
  const out: Candidate[] = [];
  for (let round = 0; out.length < n; round++) {
    let took = false;
    for (const list of lists) {
      if (out.length >= n) break;
      if (round < list.length) {
        out.push(list[round]!);
        took = true;
      }
    }
    if (!took) break;
  }
  return out;
}

/** The counts as lines: one per category with its languages, and the total. */
export function countLines(counts: Counts): string[] {
  const categories = DRAFT_CATEGORIES.filter((c) => counts[c]);
  const total = categories.reduce((n, c) => n + Object.values(counts[c]!).reduce((a, b) => a + b, 0), 0);
  return [
    ...categories.map((c) => {
      const row = counts[c]!;
      const sum = Object.values(row).reduce((a, b) => a + b, 0);
      return `${c} ${sum} (${Object.entries(row)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([l, k]) => `${l} ${k}`)
        .join(", ")})`;
    }),
    `total ${total}`,
  ];
}
