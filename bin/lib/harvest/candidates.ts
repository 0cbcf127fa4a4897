/**
 * From production feedback to golden-set candidates (`pnpm eval:harvest`; docs/evals.md "Growing
 * the golden set"). Pure: records in, candidates out, every text scrubbed on the way (scrub.ts).
 *
 * - **A search** with the documents a person opened or graded becomes a retrieval case: an opened
 *   document is judged 1 (relevant: a click is weak evidence), a graded one its grade. Documents the
 *   dataset does not hold are left out and counted; the same query twice is one case, its judgments
 *   merged (the higher grade).
 * - **An answer rated down** (the contract's AskResponse) becomes an answer case. Its expectations
 *   are what the record's `correction` states (facts that occur in the documents it names, or in
 *   some document; documents the dataset holds; a refusal); what the answer did wrong — a citation
 *   of a document none of its sources held (unsurfaced), a refusal, an error — goes in its note
 *   (the answer evals hold every case to cites-only-surfaced already).
 * - **A turn rated down** (the contract's TurnResponse, the turn trace) becomes a turn case with the
 *   expectations its trace suggests, checked by the agent graders (scorers/agent/): a citation that
 *   no tool surfaced → `cites-only-surfaced`; a where-question on a surface with the catalog that
 *   never called it → `calls-tool catalog`; and the correction's facts (`answer-includes`),
 *   documents (`cites`) and refusal (`outcome refused`).
 * - A rated-down answer or turn from which no expectation follows is a candidate still, in
 *   `incomplete.json`: a reviewer adds its expectation (pnpm eval:review) or rejects it.
 * - A thumbs-up is no regression to guard: counted, not a candidate. A question or query the dataset
 *   already has (same grading form) is dropped; so is a second one of the same question in the
 *   feedback, whose id is noted on the first.
 *
 * Every candidate is a draft (`status: "draft"`) and keeps its record's id (`provenance.feedbackId`).
 */
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type { AnswerCase, RetrievalCase } from "../../../helpers/dataset.js";
import { DRAFT, type DraftFields } from "../../../helpers/datasets/drafts.js";
import { normalizeForMatch } from "../../../helpers/fixture-files.js";
import { checkExpectation, type Expectation, type TurnCase } from "../../../scorers/agent/index.js";
import { likeliestLanguage } from "../../../scorers/text/language.js";
import { gradingForm } from "../../../scorers/text/normalize.js";
import type { Scrubber } from "./scrub.js";

export interface SearchFeedback {
  id: string;
  kind: "search";
  query: string;
  language?: string;
  at?: string;
  documents: Array<{ docId: string; opened?: boolean; grade?: number }>;
}

export interface Correction {
  facts?: string[];
  docs?: string[];
  refusal?: boolean;
}

interface RatedFeedback {
  id: string;
  question: string;
  language?: string;
  at?: string;
  rating: "up" | "down";
  comment?: string;
  correction?: Correction;
}

export interface AnswerFeedback extends RatedFeedback {
  kind: "answer";
  response: {
    answer: string;
    citations: Array<{ ref: number; docId: string }>;
    refused: boolean;
    sources: Array<{ docId: string }>;
    error?: string;
  };
}

export interface TurnFeedback extends RatedFeedback {
  kind: "turn";
  surface?: string;
  turn: TurnResponse;
}

export type FeedbackRecord = SearchFeedback | AnswerFeedback | TurnFeedback;

/** A turn case as turn-cases.json stores it (its surface's tools are the file's), with its draft fields. */
export type TurnCandidate = Omit<TurnCase, "tools"> & DraftFields;

/** A rated-down answer or turn no expectation follows from: a reviewer adds one, or rejects it. */
export interface IncompleteCandidate extends DraftFields {
  id: string;
  kind: "answer" | "turn";
  question: string;
  language?: string;
  /** A turn's surface and its tools. */
  surface?: string;
  tools?: string[];
  note: string;
}

/** What the candidates are checked against: the dataset's documents and the cases it already has. */
export interface HarvestContext {
  corpusIds: ReadonlySet<string>;
  /** A document's text (title and body), for checking that a corrected fact is in it. */
  text(docId: string): string;
  questions: readonly string[];
  queries: readonly string[];
  /** The turn cases already there (fixtures/turn-cases.json on the demo corpus), and their surfaces. */
  turnCases: ReadonlyArray<{ id: string; question: string }>;
  surfaces: Readonly<Record<string, readonly string[]>>;
  /** Ids in use. */
  ids: ReadonlySet<string>;
  date: string;
}

export interface Harvest {
  retrievalCases: RetrievalCase[];
  answerCases: AnswerCase[];
  turnCases: TurnCandidate[];
  /** The surfaces the turn candidates run on (known ones, and any the feedback brought). */
  surfaces: Record<string, string[]>;
  incomplete: IncompleteCandidate[];
  report: {
    records: Record<FeedbackRecord["kind"], number>;
    ratedUp: number;
    /** Candidates whose question or query the dataset already has. */
    inDataset: number;
    /** Records asking what an earlier record of the feedback asked (merged into its candidate). */
    merged: number;
    /** Judged or cited documents the dataset does not hold. */
    unknownDocuments: number;
    /** Corrected facts found in no document. */
    factsNotFound: number;
    /** Searches that judged no document of the dataset. */
    unjudged: number;
  };
}

const LANGUAGES = ["en", "de", "fr", "it"];
const TURN_LANGUAGES = new Set(LANGUAGES);
// Where-questions in the fixtures' languages: asking where something is written, not what it says.
const WHERE =
  /^\s*(?:where\b|in which (?:article|document|page)|which (?:article|page|document)|wo\b|in welche[mr]? (?:artikel|dokument|seite)|welche[rs]? (?:artikel|seite|dokument)|où\b|dans quel(?:le)? (?:article|document|page)|quel(?:le)? (?:article|page|document)|dove\b|in quale (?:articolo|documento|pagina)|quale (?:articolo|pagina|documento))/i;

export function isWhereQuestion(question: string): boolean {
  return WHERE.test(question);
}

function languageOf(text: string, given: string | undefined): string | undefined {
  if (given) return given.toLowerCase();
  const words = gradingForm(text, { diacritics: false }).match(/[\p{L}']+/gu) ?? [];
  const hits = LANGUAGES.map((l) => likeliestLanguage(words, [l, ...LANGUAGES.filter((x) => x !== l)]));
  // likeliestLanguage gives its first candidate on a tie: a language is known only when every ordering agrees.
  return hits.every((h) => h === hits[0]) ? hits[0] : undefined;
}

/** The candidates of `records` (module comment). */
export function harvest(records: readonly FeedbackRecord[], context: HarvestContext, scrubber: Scrubber): Harvest {
  const out: Harvest = {
    retrievalCases: [],
    answerCases: [],
    turnCases: [],
    surfaces: Object.fromEntries(Object.entries(context.surfaces).map(([k, v]) => [k, [...v]])),
    incomplete: [],
    report: {
      records: { search: 0, answer: 0, turn: 0 },
      ratedUp: 0,
      inDataset: 0,
      merged: 0,
      unknownDocuments: 0,
      factsNotFound: 0,
      unjudged: 0,
    },
  };
  const r = out.report;
  const known = (doc: string): boolean => {
    if (context.corpusIds.has(doc)) return true;
    r.unknownDocuments++;
    return false;
  };
  const ids = new Set(context.ids);
  const counters = new Map<string, number>();
  const nextId = (prefix: string): string => {
    let id: string;
    do {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      id = `${prefix}${String(n).padStart(3, "0")}`;
    } while (ids.has(id));
    ids.add(id);
    return id;
  };
  // Turn case ids follow the file's own pattern (t-NNN) after the highest in use.
  const turnNumbers = context.turnCases.map((c) => Number(/^t-(\d+)$/.exec(c.id)?.[1] ?? 0));
  counters.set("t-", Math.max(0, ...turnNumbers));
  const existing = new Set(
    [...context.questions, ...context.queries, ...context.turnCases.map((c) => c.question)].map((q) => gradingForm(q)),
  );
  /** The candidate already drafted from this question in the feedback, by grading form. */
  const seen = new Map<string, { note?: string; judgments?: Record<string, number>; feedbackIds: string[] }>();
  const provenance = (kind: string, id: string) => ({ method: `feedback/${kind}`, feedbackId: id, drafted: context.date });

  for (const record of records) {
    r.records[record.kind]++;
    if (record.kind !== "search" && record.rating === "up") {
      r.ratedUp++;
      continue;
    }
    const asked = scrubber.scrub(record.kind === "search" ? record.query : record.question);
    const form = gradingForm(asked);
    if (existing.has(form)) {
      r.inDataset++;
      continue;
    }
    const earlier = seen.get(`${record.kind}|${form}`);
    if (earlier) {
      r.merged++;
      earlier.feedbackIds.push(record.id);
      if (record.kind === "search" && earlier.judgments)
        for (const [doc, grade] of Object.entries(judgmentsOf(record, known)))
          earlier.judgments[doc] = Math.max(earlier.judgments[doc] ?? 0, grade);
      continue;
    }
    const language = languageOf(asked, record.language);

    if (record.kind === "search") {
      const judgments = judgmentsOf(record, known);
      if (Object.keys(judgments).length === 0) {
        r.unjudged++;
        continue;
      }
      const c: RetrievalCase = {
        id: nextId("harvest-q-"),
        query: asked,
        ...(language ? { language } : {}),
        category: "search-feedback",
        judgments,
        status: DRAFT,
        provenance: provenance("search", record.id),
      };
      out.retrievalCases.push(c);
      const entry = { judgments: c.judgments, feedbackIds: [record.id] };
      seen.set(`search|${form}`, entry);
      continue;
    }

    const correction = record.correction ?? {};
    const docs = (correction.docs ?? []).filter(known);
    const facts = (correction.facts ?? [])
      .map((f) => scrubber.scrub(f))
      .filter((fact) => {
        const where = docs.length > 0 ? docs : [...context.corpusIds];
        const found = where.some((doc) => normalizeForMatch(context.text(doc)).includes(normalizeForMatch(fact)));
        if (!found) r.factsNotFound++;
        return found;
      });
    const refusal = correction.refusal === true;
    const comment = record.comment?.trim()
      ? ` The person wrote: "${scrubber.scrub(record.comment.trim()).replace(/\s+/g, " ").slice(0, 300)}".`
      : "";
    const at = record.at ? ` on ${record.at.slice(0, 10)}` : "";

    if (record.kind === "answer") {
      const faults = answerFaults(record.response);
      const note =
        `Rated down in production${at} (feedback ${record.id}).${faults.length > 0 ? ` ${faults.join("; ")}.` : ""}${comment}`.slice(
          0,
          1000,
        );
      const expectations: Partial<AnswerCase> = refusal
        ? { expectedRefusal: true }
        : { ...(facts.length > 0 ? { expectedSubstrings: facts } : {}), ...(docs.length > 0 ? { mustCite: docs } : {}) };
      if (Object.keys(expectations).length === 0) {
        out.incomplete.push({
          id: nextId("harvest-a-"),
          kind: "answer",
          question: asked,
          ...(language ? { language } : {}),
          status: DRAFT,
          provenance: provenance("answer", record.id),
          note,
        });
      } else {
        out.answerCases.push({
          id: nextId("harvest-a-"),
          question: asked,
          ...(language ? { language } : {}),
          category: refusal ? "off-corpus" : "answer-feedback",
          ...expectations,
          note,
          status: DRAFT,
          provenance: provenance("answer", record.id),
        });
      }
      seen.set(`answer|${form}`, { feedbackIds: [record.id] });
      continue;
    }

    // A turn: the expectations its trace suggests, checked by the agent graders.
    const turn = record.turn;
    const tools = [
      ...new Set(
        turn.tools ??
          (record.surface ? context.surfaces[record.surface] : undefined) ??
          turn.steps.flatMap((s) => s.toolCalls.map((c) => c.name)),
      ),
    ];
    const expect: Expectation[] = [];
    const found: string[] = [];
    const unsurfaced = checkExpectation(turn, { kind: "cites-only-surfaced" });
    if (!unsurfaced.pass) {
      expect.push({ kind: "cites-only-surfaced" });
      found.push(unsurfaced.fact);
    }
    const where = isWhereQuestion(asked);
    if (where && tools.includes("catalog")) {
      const catalog = checkExpectation(turn, { kind: "calls-tool", tool: "catalog" });
      if (!catalog.pass) {
        expect.push({ kind: "calls-tool", tool: "catalog" });
        found.push(`a where-question that ${catalog.fact}`);
      }
    }
    if (refusal) expect.push({ kind: "outcome", is: "refused" });
    else {
      for (const fact of facts) if (fact.length <= 200) expect.push({ kind: "answer-includes", text: fact });
      for (const doc of docs) if (/^[a-z]{2}(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+\.md$/.test(doc)) expect.push({ kind: "cites", doc });
    }
    if (turn.outcome === "error") found.push(`the turn failed: ${scrubber.scrub(turn.error ?? "no error named")}`);
    const surface =
      record.surface ??
      Object.entries(out.surfaces).find(([, t]) => sameSet(t, tools))?.[0] ??
      (tools.length > 0 ? newSurface(out.surfaces, tools) : undefined);
    const guards =
      `A turn rated down in production${at} (feedback ${record.id})${found.length > 0 ? `: ${found.join("; ")}` : ""}.${comment}`.slice(
        0,
        500,
      );
    const turnLanguage = language && TURN_LANGUAGES.has(language) ? language : undefined;
    if (expect.length === 0 || surface === undefined || turnLanguage === undefined) {
      out.incomplete.push({
        // A turn case's own id (t-NNN), so that it keeps it once a reviewer completes it.
        id: nextId("t-"),
        kind: "turn",
        question: asked,
        ...(language ? { language } : {}),
        ...(surface ? { surface, tools } : {}),
        status: DRAFT,
        provenance: provenance("turn", record.id),
        note: `${guards}${turnLanguage === undefined ? " Its language is not one a turn case takes (en, de, fr, it)." : ""}${surface === undefined ? " The trace names no tools, so its surface is unknown." : ""}`.slice(
          0,
          1000,
        ),
      });
    } else {
      if (!out.surfaces[surface]) out.surfaces[surface] = tools;
      out.turnCases.push({
        id: nextId("t-"),
        question: asked,
        language: turnLanguage as TurnCase["language"],
        category: refusal ? "off-corpus" : where ? "where" : "answer",
        surface,
        guards,
        expect,
        status: DRAFT,
        provenance: provenance("turn", record.id),
      });
    }
    seen.set(`turn|${form}`, { feedbackIds: [record.id] });
  }
  // A question asked again in the feedback: its later records' ids on the first's note.
  for (const c of [...out.retrievalCases, ...out.answerCases]) {
    const key = "query" in c ? `search|${gradingForm(c.query)}` : `answer|${gradingForm(c.question)}`;
    const more = seen.get(key)?.feedbackIds.slice(1) ?? [];
    if (more.length > 0) c.note = `${c.note ? `${c.note} ` : ""}Also asked in feedback ${more.join(", ")}.`.slice(0, 1000);
  }
  return out;
}

function judgmentsOf(record: SearchFeedback, known: (doc: string) => boolean): Record<string, number> {
  const judgments: Record<string, number> = {};
  for (const d of record.documents) {
    const grade = d.grade ?? (d.opened ? 1 : undefined);
    if (grade === undefined || !known(d.docId)) continue;
    judgments[d.docId] = Math.max(judgments[d.docId] ?? 0, grade);
  }
  return judgments;
}

/** What a rated-down answer did that a reviewer should know of. */
function answerFaults(response: AnswerFeedback["response"]): string[] {
  const faults: string[] = [];
  const sources = new Set(response.sources.map((s) => s.docId));
  const unsurfaced = [...new Set(response.citations.map((c) => c.docId).filter((d) => !sources.has(d)))];
  if (unsurfaced.length > 0) faults.push(`The answer cited ${unsurfaced.join(", ")}, which none of its sources held (unsurfaced)`);
  if (response.refused) faults.push("The answer was a refusal");
  if (response.error) faults.push("The answer failed with an error");
  return faults;
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

function newSurface(surfaces: Record<string, string[]>, tools: string[]): string {
  let name = "harvested";
  for (let n = 2; surfaces[name] && !sameSet(surfaces[name]!, tools); n++) name = `harvested-${n}`;
  surfaces[name] = tools;
  return name;
}
