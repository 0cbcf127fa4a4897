/**
 * The lint every user dataset gets, whatever its format, on the model a reader filled: ids used once
 * and made of Unicode text (no lone surrogate), every judged or cited document in the corpus, a corpus that is not empty, every question with
 * at least one expectation, each expected fact present in a document it names (in any document
 * when it names none), relevantDocs that agree with the judgments, translation groups that do not
 * overlap. Messages name the source file, the record and the source field (`RecordOrigin`), so a
 * golden Q&A set's `expectedDocumentTitle` is named as such, not as the model's `mustCite`.
 *
 * The demo corpus (`fixtures/`) is checked by its own loaders (helpers/fixture-files/), which add the
 * demo's rules: path-shaped ids, languages, categories and notes on every record.
 */
import type { FixtureIssue } from "../fixture-files/errors.js";
import { show } from "../fixture-files/errors.js";
import { displayPath } from "../fixture-files/paths.js";
import { normalizeForMatch } from "../fixture-files/types.js";
import { factsFound } from "./fact-search.js";
import type { AnswerCase, RetrievalCase, TranslationGroup } from "./model.js";
import { fail, named } from "./read.js";

/** Where a record of the model came from: its file, how messages name it, its JSON pointer, and its fields' names there. */
export interface RecordOrigin {
  file: string;
  /** `question q001`, `line 3`, …; absent: the pointer alone names it. */
  record?: string;
  /** The record's JSON pointer in its file ("" for a JSONL line). */
  pointer: string;
  /** Model field → the field's name in the source (`mustCite` → `expectedDocumentTitle`); absent: the same name. */
  fields?: Readonly<Record<string, string>>;
}

/** What the lint reads of the corpus. */
export interface CorpusView {
  /** How the corpus is named in messages (a folder, a file, a file's field). */
  where: string;
  ids: ReadonlySet<string>;
  text(id: string): string;
}

export interface LintInput {
  corpus: CorpusView;
  cases: readonly RetrievalCase[];
  /** Origins of the retrieval cases, by case; derived cases have none (their answer case's origin names them). */
  caseOrigins: ReadonlyMap<RetrievalCase, RecordOrigin>;
  /** relevantDocs as the source lists them, when it does. */
  relevantDocs?: ReadonlyMap<RetrievalCase, readonly string[]>;
  askCases: readonly AnswerCase[];
  askOrigins: ReadonlyMap<AnswerCase, RecordOrigin>;
  translations: readonly TranslationGroup[];
  translationOrigins?: ReadonlyMap<TranslationGroup, RecordOrigin>;
}

interface Located {
  file: string;
  issue: FixtureIssue;
}

function at(origin: RecordOrigin, field: string | null, problem: string): Located {
  const [head = "", ...rest] = field === null ? [] : field.split("/");
  const source = field === null ? null : [origin.fields?.[head] ?? head, ...rest].join("/");
  const pointer = source === null ? origin.pointer : `${origin.pointer}/${source}`;
  return { file: origin.file, issue: { ...(origin.record ? { record: origin.record } : {}), pointer, problem } };
}

/** Throws the first file's problems (one line), or returns when the dataset is clean. */
export function lintDataset(input: LintInput): void {
  const problems: Located[] = [];
  if (input.corpus.ids.size === 0) {
    problems.push({
      file: input.corpus.where,
      issue: { pointer: "", problem: named("empty-corpus", `${input.corpus.where} holds no document; a dataset needs its corpus`) },
    });
  }
  const badDoc = [...input.corpus.ids].find((id) => LONE_SURROGATE.test(id));
  if (badDoc !== undefined)
    problems.push({ file: input.corpus.where, issue: { pointer: "", problem: named("invalid-id", `document id ${notText(badDoc)}`) } });
  problems.push(...duplicates(input.cases, input.caseOrigins, "query"));
  problems.push(...duplicates(input.askCases, input.askOrigins, "question"));
  for (const c of input.cases) {
    const origin = input.caseOrigins.get(c);
    if (!origin) continue;
    const judged = Object.keys(c.judgments);
    if (judged.length === 0) problems.push(at(origin, "judgments", named("no-expectation", "the query judges no document")));
    problems.push(...unknownDocs(judged, origin, "judgments", "judges", input.corpus));
    const listed = input.relevantDocs?.get(c);
    if (listed) problems.push(...relevantDocsMismatch(c, listed, origin));
  }
  const facts = factChecker(input.askCases, input.corpus);
  for (const c of input.askCases) {
    const origin = input.askOrigins.get(c)!;
    problems.push(...answerCaseProblems(c, origin, input.corpus, facts));
  }
  const groupOf = new Map<string, string>();
  for (const group of input.translations) {
    const origin = input.translationOrigins?.get(group);
    if (!origin) continue;
    problems.push(...unknownDocs(group.docs, origin, "docs", "lists", input.corpus));
    for (const doc of new Set(group.docs)) {
      const other = groupOf.get(doc);
      if (other !== undefined && other !== group.id) problems.push(at(origin, "docs", `${doc} is already in group ${show(other)}`));
      groupOf.set(doc, group.id);
    }
  }
  if (problems.length === 0) return;
  const file = problems[0]!.file;
  fail(
    file,
    problems.filter((p) => p.file === file).map((p) => p.issue),
  );
}

function duplicates<T extends { id: string }>(records: readonly T[], origins: ReadonlyMap<T, RecordOrigin>, what: string): Located[] {
  const first = new Map<string, RecordOrigin>();
  const out: Located[] = [];
  for (const record of records) {
    const origin = origins.get(record);
    if (!origin) continue;
    if (LONE_SURROGATE.test(record.id)) out.push(at(origin, "id", named("invalid-id", `${what} id ${notText(record.id)}`)));
    const earlier = first.get(record.id);
    if (earlier === undefined) first.set(record.id, origin);
    else
      out.push(
        at(
          origin,
          "id",
          named(
            "duplicate-id",
            `${what} id ${show(record.id)} is already used by ${earlier.record ?? earlier.pointer}${earlier.file === origin.file ? "" : ` of ${displayPath(earlier.file)}`}`,
          ),
        ),
      );
  }
  return out;
}

/** A UTF-16 surrogate without its pair: not Unicode text, so no id can hold one and survive storage unchanged. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function notText(id: string): string {
  const at = id.search(LONE_SURROGATE);
  return `${show(id)} holds a lone surrogate (U+${id.charCodeAt(at).toString(16).toUpperCase()} at character ${at}), which is not Unicode text; ids are read exactly, never changed`;
}

function unknownDocs(ids: readonly string[], origin: RecordOrigin, field: string, verb: string, corpus: CorpusView): Located[] {
  const missing = [...new Set(ids.filter((id) => !corpus.ids.has(id)))];
  if (missing.length === 0) return [];
  return [
    at(
      origin,
      field,
      named(
        "unknown-document",
        `${verb} ${missing.map((m) => show(m)).join(", ")}, which ${missing.length === 1 ? "is" : "are"} not a document of ${corpus.where}`,
      ),
    ),
  ];
}

/** relevantDocs, when a source lists them, must be exactly the documents judged 1 or more. */
function relevantDocsMismatch(c: RetrievalCase, listed: readonly string[], origin: RecordOrigin): Located[] {
  const set = new Set(listed);
  const positive = Object.entries(c.judgments).filter(([, grade]) => grade >= 1);
  const unlisted = positive.filter(([doc]) => !set.has(doc)).map(([doc, grade]) => `${doc} (judged ${grade})`);
  const zero = listed.filter((doc) => Object.hasOwn(c.judgments, doc) && c.judgments[doc] === 0);
  const unjudged = listed.filter((doc) => !Object.hasOwn(c.judgments, doc));
  const parts: string[] = [];
  if (unlisted.length > 0) parts.push(`missing ${unlisted.join(", ")}`);
  if (zero.length > 0) parts.push(`lists ${zero.join(", ")} although judged 0`);
  if (unjudged.length > 0) parts.push(`lists ${unjudged.join(", ")} without a judgment`);
  if (parts.length === 0) return [];
  return [at(origin, "relevantDocs", `relevantDocs must be exactly the docs judged 1 or more: ${parts.join("; ")}`)];
}

/** Whether a case states anything an answer can be held to. */
export function hasExpectation(c: AnswerCase): boolean {
  return (
    c.expectedRefusal === true ||
    (c.expectedSubstrings ?? []).length > 0 ||
    (c.forbiddenSubstrings ?? []).length > 0 ||
    (c.expectedTopics ?? []).length > 0 ||
    (c.mustCite ?? []).length > 0 ||
    (c.referenceAnswer ?? "").trim() !== ""
  );
}

/**
 * Whether an expected fact occurs where it must: in a document the case cites (each cited document
 * normalised once for the whole lint), or — a case that cites none — in some document of the
 * corpus, every such fact of the dataset looked for in one pass over the corpus (fact-search.ts).
 * Linear in the corpus and the facts, however many questions there are.
 */
function factChecker(askCases: readonly AnswerCase[], corpus: CorpusView): (fact: string, cite: readonly string[]) => boolean {
  const normalized = new Map<string, string>();
  const textOf = (doc: string): string => {
    let text = normalized.get(doc);
    if (text === undefined) {
      text = normalizeForMatch(corpus.text(doc));
      normalized.set(doc, text);
    }
    return text;
  };
  const uncited = askCases
    .filter((c) => (c.mustCite ?? []).length === 0)
    .flatMap((c) => (c.expectedSubstrings ?? []).map(normalizeForMatch));
  let anywhere: Set<string> | undefined;
  const everyDocument = function* (): Generator<string> {
    for (const id of corpus.ids) yield normalizeForMatch(corpus.text(id));
  };
  return (fact, cite) => {
    const form = normalizeForMatch(fact);
    if (cite.length > 0) return cite.some((doc) => textOf(doc).includes(form));
    anywhere ??= factsFound(uncited, everyDocument());
    return anywhere.has(form) || form === "";
  };
}

function answerCaseProblems(
  c: AnswerCase,
  origin: RecordOrigin,
  corpus: CorpusView,
  occurs: (fact: string, cite: readonly string[]) => boolean,
): Located[] {
  const out: Located[] = [];
  if (!hasExpectation(c))
    out.push(
      at(
        origin,
        null,
        named(
          "no-expectation",
          "the question states no expectation (no expected fact, citation, topic, forbidden text, reference answer or refusal)",
        ),
      ),
    );
  const cite = c.mustCite ?? [];
  const missing = unknownDocs(cite, origin, "mustCite", "cites", corpus);
  out.push(...missing);
  if (c.expectedRefusal === true && cite.length > 0)
    out.push(at(origin, "mustCite", "a question that expects a refusal cannot require citations"));
  if (c.expectedRefusal === true && (c.expectedSubstrings ?? []).length > 0)
    out.push(at(origin, "expectedSubstrings", "a question that expects a refusal cannot expect facts in the answer"));
  if (missing.length > 0) return out;
  // Each fact must occur in a document the case cites, or in some document when it cites none.
  (c.expectedSubstrings ?? []).forEach((fact, j) => {
    if (!occurs(fact, cite))
      out.push(
        at(
          origin,
          `expectedSubstrings/${j}`,
          cite.length > 0
            ? `${show(fact)} does not occur in the cited document${cite.length === 1 ? "" : "s"} (${cite.join(", ")})`
            : `${show(fact)} does not occur in any document of ${corpus.where}`,
        ),
      );
  });
  return out;
}
