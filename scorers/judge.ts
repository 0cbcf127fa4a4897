/**
 * The RAG triad — context relevance, faithfulness, answer relevance — for one answer
 * (`AskResult`) to a fixture case (`AskCase`). Each metric is judged by a language model when one
 * is configured (`{ judge: LanguageModelV3 }`, ready to call: this file never reads keys or the
 * environment) and by a keyless lexical heuristic otherwise. Every score's metadata says which:
 * `method: "llm-judge"` or `method: "heuristic"`.
 *
 * Definitions (score in [0, 1]):
 *
 * | metric            | llm-judge                                                                  | heuristic (token overlap)                                                      |
 * | ----------------- | -------------------------------------------------------------------------- | ------------------------------------------------------------------------------ |
 * | context relevance | mean over sources of the judge's 0–3 rating ÷ 3                            | mean over sources of the share of the question's content terms in the source   |
 * | faithfulness      | claims the judge finds supported by the sources ÷ claims it lists          | claims supported ÷ claims (below)                                              |
 * | answer relevance  | the judge's 0–3 rating of how directly the answer addresses the question ÷ 3 | share of the question's content terms in the answer; a refusal scores 0      |
 *
 * Heuristic terms are the engine's analyzer's (`termOverlap` in answer.ts: stemmed, diacritics
 * folded, compounds, CJK bigrams, stop words dropped), unweighted. A **claim** is a sentence of
 * the answer (split at `.`, `!`, `?` and their CJK forms followed by space, and at line breaks;
 * list markers and emphasis removed) with its citation markers taken out; a marker standing after
 * the full stop belongs to the sentence before it. A claim is **supported** when at least
 * `SUPPORT_SHARE` (60 %) of its content terms occur in its evidence and every number in it does
 * (a number the sources do not state is the hallucination that matters most). Its evidence is the
 * sources it cites when it cites at least one existing source, else all sources. Lexical, so it
 * cannot see a translation or a paraphrase with other words as support: heuristic and judge
 * scores are not comparable, which is why the method is on every score and the run states its mode.
 *
 * Policies:
 * - **Applies to** cases that expect an answer (`expectedRefusal` not true). For a case that
 *   should be refused the triad measures nothing useful (low context relevance is then correct),
 *   so the scorers throw `NotApplicableError` (answer.ts), like every grader: filter with
 *   `triadCases(cases)` here. No made-up number enters Evalite's mean.
 * - **Failed answer** (`result.error`): score 0, `status: "failed"`, no judge call.
 * - **No claims** (a refusal, or an answer without a content word; or a judge that lists none):
 *   faithfulness 1 with `vacuous: true` — it asserts nothing the sources could contradict. That a
 *   refusal was wrong is scored by the refusal grader and by answer relevance (0).
 * - **No sources**: context relevance 0 with `sources: 0` (nothing was retrieved), no judge call.
 * - **The judge**: `generateObject` with the metric's JSON Schema (`jsonSchema`, validated again
 *   with AJV plus the checks a schema cannot express: every source rated exactly once, cited refs
 *   exist), temperature 0, the question, the numbered sources and the answer in the prompt, source
 *   and answer text marked as data, not instructions. The SDK's own retries are off
 *   (`maxRetries: 0`); a call that throws, times out (`timeoutMs` per attempt) or returns output
 *   that does not parse or validate is retried once, with an `x-judge-attempt: 2` header so that
 *   Evalite's cache (keyed on every call option) cannot serve the first reply again. When the
 *   retry fails too, the metric falls back to the heuristic, labeled `method: "heuristic",
 *   fallbackFrom: "llm-judge", judgeError` (with both attempts' errors) — never a 0, 1 or NaN
 *   standing in for a failed judgment. The judge's reasoning, its per-source ratings or claims,
 *   its model id and the attempt count are kept in metadata. `headers` (per call) reach
 *   `generateObject`, so an eval can make Evalite's cache keys of trials distinct.
 * - **Run mode** (heuristic, llm-judge or mixed) is the gate's to state: it reads every score's
 *   `method` back from the run (packages/eval-gate/src/report.ts).
 */
import { compileValidator } from "@hybrid-search/eval-gate/standalone-validators";
import type { ValidateFunction } from "ajv";
import type { JSONSchema7, LanguageModelV3 } from "@ai-sdk/provider";
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import type { AskResult } from "@hybrid-search/engine";
import type { AskCase } from "./ask-case.js";
import {
  analyzedText,
  answerLanguage,
  citationRefs,
  failedGrade,
  NotApplicableError,
  round,
  sourceText,
  stripCitationMarkers,
  termOverlap,
  type Grade,
  type Method,
} from "./answer.js";
import { isRefused } from "./refusal-check.js";
import { askJudge, DATA_RULE, escapeData, JUDGE_ATTEMPTS, judgeId } from "./judge-call.js";

export type { Method } from "./answer.js";
export { JUDGE_ATTEMPTS } from "./judge-call.js";

export type TriadMetric = "context-relevance" | "faithfulness" | "answer-relevance";

export const TRIAD: Readonly<Record<TriadMetric, { name: string; definition: string }>> = {
  "context-relevance": {
    name: "Context relevance",
    definition: "how relevant the retrieved sources are to the question (mean over sources)",
  },
  faithfulness: { name: "Faithfulness", definition: "share of the answer's claims supported by the sources" },
  "answer-relevance": { name: "Answer relevance", definition: "how directly the answer addresses the question" },
};

/** Whether the triad applies: the case expects an answer. */
export function triadAppliesTo(c: AskCase): boolean {
  return c.expectedRefusal !== true;
}

/** The cases the triad applies to: give the triad's eval only these. */
export function triadCases<T extends AskCase>(cases: readonly T[]): T[] {
  return cases.filter(triadAppliesTo);
}

function requireTriad(metric: TriadMetric, c: AskCase): void {
  if (!triadAppliesTo(c)) throw new NotApplicableError(metric, c.id, "the case expects a refusal, and the RAG triad measures answers");
}

function triadGrade(metric: TriadMetric, c: AskCase, method: Method, score: number, details: Record<string, unknown>): Grade {
  return { score, metadata: { grader: metric, method, status: "scored", caseId: c.id, definition: TRIAD[metric].definition, ...details } };
}

// ---------------------------------------------------------------------------------------------
// Heuristics
// ---------------------------------------------------------------------------------------------

/** Share of a claim's content terms that must occur in its evidence (and every number must). */
export const SUPPORT_SHARE = 0.6;

export interface Claim {
  /** The sentence without citation markers. */
  text: string;
  /** The refs it cites, in order. */
  refs: number[];
}

const SENTENCE_END = /(?<=[.!?。！？])\s+/u;
const LEADING_MARKERS = /^(?:\s*\[\d+(?:\s*,\s*\d+)*\])+/;
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|z\.\s?B|bzw|ca|vs|Nr|p\.\s?ex|ecc|ad es)\.$/i;

/** The answer's claims: its sentences with their citations (see the header for the rule). */
export function answerClaims(answer: string): Claim[] {
  const pieces: string[] = [];
  for (const line of answer.split(/\n+/)) {
    const clean = line.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s+/, "").replace(/(\*\*|__|\*|_|`)(.+?)\1/g, "$2");
    let pending = "";
    for (const piece of clean.split(SENTENCE_END)) {
      pending = pending ? `${pending} ${piece}` : piece;
      if (!ABBREVIATION.test(pending.trim())) {
        pieces.push(pending);
        pending = "";
      }
    }
    if (pending) pieces.push(pending);
  }
  const claims: Claim[] = [];
  for (let piece of pieces) {
    const leading = piece.match(LEADING_MARKERS)?.[0];
    if (leading !== undefined && claims.length > 0) {
      const previous = claims[claims.length - 1]!;
      for (const ref of citationRefs(leading)) if (!previous.refs.includes(ref)) previous.refs.push(ref);
      piece = piece.slice(leading.length);
    }
    const text = stripCitationMarkers(piece)
      .replace(/\s+/g, " ")
      .replace(/\s+([.,;:!?])/g, "$1")
      .trim();
    if (/[\p{L}\p{N}]/u.test(text)) claims.push({ text, refs: citationRefs(piece) });
  }
  return claims;
}

export function contextRelevanceHeuristic(c: AskCase, result: AskResult): Grade {
  if (result.sources.length === 0)
    return triadGrade("context-relevance", c, "heuristic", 0, { sources: 0, rule: "nothing was retrieved: 0" });
  const perSource = result.sources.map((s) => {
    const o = termOverlap(result.question, c.language, [sourceText(s)]);
    return { ref: s.ref, docId: s.docId, share: round(o.share), found: o.found };
  });
  const score = perSource.reduce((sum, s) => sum + s.share, 0) / perSource.length;
  return triadGrade("context-relevance", c, "heuristic", clamp01(score), {
    sources: perSource.length,
    perSource,
    formula: "mean over sources of (question content terms found in the source / question content terms)",
  });
}

export function faithfulnessHeuristic(c: AskCase, result: AskResult): Grade {
  const claims = isRefused(result) ? [] : answerClaims(result.answer);
  const formula = `supported claims / claims; supported: ≥ ${SUPPORT_SHARE * 100} % of its content terms and every number in its cited sources (all sources when it cites none)`;
  if (claims.length === 0) {
    return triadGrade("faithfulness", c, "heuristic", 1, {
      claims: 0,
      vacuous: true,
      refused: isRefused(result),
      formula,
      note: "no claims: nothing the sources could contradict",
    });
  }
  const sources = new Map(result.sources.map((s) => [s.ref, sourceText(s)]));
  const language = answerLanguage(result, c);
  const checked = claims.map((claim) => {
    const cited = claim.refs.flatMap((r) => (sources.has(r) ? [sources.get(r)!] : []));
    const o = termOverlap(claim.text, language, cited.length > 0 ? cited : [...sources.values()]);
    const supported = o.terms.length > 0 && o.share >= SUPPORT_SHARE && o.missingNumbers.length === 0;
    return {
      claim: claim.text,
      refs: claim.refs,
      against: cited.length > 0 ? "cited sources" : "all sources",
      share: round(o.share),
      supported,
      missing: o.missing,
    };
  });
  const supported = checked.filter((x) => x.supported).length;
  return triadGrade("faithfulness", c, "heuristic", supported / checked.length, {
    claims: checked.length,
    supported,
    unsupported: checked.filter((x) => !x.supported).map((x) => x.claim),
    perClaim: checked,
    formula,
  });
}

export function answerRelevanceHeuristic(c: AskCase, result: AskResult): Grade {
  const formula = "question content terms found in the answer / question content terms";
  if (isRefused(result))
    return triadGrade("answer-relevance", c, "heuristic", 0, {
      refused: true,
      formula,
      rule: "a refusal does not address the question: 0",
    });
  const o = termOverlap(result.question, c.language, [analyzedText(stripCitationMarkers(result.answer), answerLanguage(result, c))]);
  return triadGrade("answer-relevance", c, "heuristic", o.share, { found: o.found, missing: o.missing, formula });
}

const HEURISTICS: Readonly<Record<TriadMetric, (c: AskCase, result: AskResult) => Grade>> = {
  "context-relevance": contextRelevanceHeuristic,
  faithfulness: faithfulnessHeuristic,
  "answer-relevance": answerRelevanceHeuristic,
};

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

// ---------------------------------------------------------------------------------------------
// The judge: prompts, schemas, validation
// ---------------------------------------------------------------------------------------------

const RATING: JSONSchema7 = { type: "integer", minimum: 0, maximum: 3 };

/** The JSON Schema of each metric's judge output. Reasoning comes first so it precedes the verdict. */
export const JUDGE_SCHEMAS: Readonly<Record<TriadMetric, JSONSchema7>> = {
  "context-relevance": {
    type: "object",
    properties: {
      reasoning: { type: "string", description: "One or two sentences per source: what it says that bears on the question." },
      ratings: {
        type: "array",
        description: "Exactly one rating per source.",
        items: {
          type: "object",
          properties: { ref: { type: "integer", minimum: 1 }, score: RATING },
          required: ["ref", "score"],
          additionalProperties: false,
        },
      },
    },
    required: ["reasoning", "ratings"],
    additionalProperties: false,
  },
  faithfulness: {
    type: "object",
    properties: {
      reasoning: { type: "string", description: "How the claims were checked against the sources." },
      claims: {
        type: "array",
        description: "Every factual claim of the answer.",
        items: {
          type: "object",
          properties: {
            claim: { type: "string" },
            supported: { type: "boolean" },
            refs: {
              type: "array",
              items: { type: "integer", minimum: 1 },
              description: "The sources that support it (empty when unsupported).",
            },
          },
          required: ["claim", "supported", "refs"],
          additionalProperties: false,
        },
      },
    },
    required: ["reasoning", "claims"],
    additionalProperties: false,
  },
  "answer-relevance": {
    type: "object",
    properties: {
      reasoning: { type: "string", description: "What the question asks and how much of it the answer addresses." },
      score: RATING,
    },
    required: ["reasoning", "score"],
    additionalProperties: false,
  },
};

interface ContextJudgment {
  reasoning: string;
  ratings: Array<{ ref: number; score: number }>;
}
interface FaithfulnessJudgment {
  reasoning: string;
  claims: Array<{ claim: string; supported: boolean; refs: number[] }>;
}
interface RelevanceJudgment {
  reasoning: string;
  score: number;
}
type Judgment = ContextJudgment | FaithfulnessJudgment | RelevanceJudgment;

/** The system prompt of each metric's judge. */
export const JUDGE_SYSTEM: Readonly<Record<TriadMetric, string>> = {
  "context-relevance": [
    "You grade the retrieval step of a question-answering system: how relevant each retrieved source is to the question.",
    "Rate every source on its own, by its text only, on this scale:",
    "0 = unrelated, or shares words with the question without bearing on it;",
    "1 = on a related topic, but does not help answer the question;",
    "2 = answers part of the question;",
    "3 = contains what is needed to answer the question fully.",
    "Do not consider the answer: it is shown only for completeness. Give exactly one rating per source, using its ref number.",
    DATA_RULE,
  ].join("\n"),
  faithfulness: [
    "You grade the faithfulness of an answer: whether what it states is supported by the numbered sources.",
    "List every factual claim the answer makes, one statement each (citation markers like [2] are not claims; a sentence saying that the documents do not contain an answer is not a claim).",
    "A claim is supported when the sources state it or directly imply it. General knowledge, plausibility and the answer's own citation markers do not count as support.",
    "For each claim give the refs of the sources that support it (empty when unsupported).",
    DATA_RULE,
  ].join("\n"),
  "answer-relevance": [
    "You grade how directly an answer addresses the question, whether or not it is correct (correctness is graded elsewhere).",
    "0 = does not address the question (off-topic, or a refusal to answer);",
    "1 = touches the topic but does not answer what was asked;",
    "2 = answers part of the question, or buries the answer in unrelated content;",
    "3 = directly and completely addresses the question.",
    "Pointing out and correcting a false premise of the question counts as addressing it.",
    DATA_RULE,
  ].join("\n"),
};

/** The user message of a judge call: the question, the numbered sources and the answer. */
export function judgePrompt(result: AskResult): string {
  const sources = result.sources.map(
    (s) =>
      `<source ref="${s.ref}" doc="${escapeData(s.docId).replace(/"/g, "'")}" title="${escapeData(s.title).replace(/"/g, "'")}">\n${escapeData([s.heading, s.text].filter(Boolean).join("\n"))}\n</source>`,
  );
  return [
    `<question>\n${escapeData(result.question)}\n</question>`,
    `Sources (${result.sources.length}):\n${sources.join("\n") || "(none)"}`,
    `<answer>\n${escapeData(result.answer)}\n</answer>`,
  ].join("\n\n");
}

// Compiled on first use: an offline run, which judges heuristically, never loads Ajv.
const validators = new Map<TriadMetric, ValidateFunction>();

function validatorOf(metric: TriadMetric): ValidateFunction {
  let validate = validators.get(metric);
  if (!validate) {
    validate = compileValidator({ options: { allErrors: true }, schema: JUDGE_SCHEMAS[metric] });
    validators.set(metric, validate);
  }
  return validate;
}

/**
 * Checks a judge's output: the metric's JSON Schema, then what a schema cannot say (each source
 * rated once, refs that exist). Returns the problem in words, or null when valid.
 */
export function judgmentProblem(metric: TriadMetric, value: unknown, result: AskResult): string | null {
  const validate = validatorOf(metric);
  if (!validate(value))
    return `does not match the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim()).join("; ")}`;
  const refs = new Set(result.sources.map((s) => s.ref));
  if (metric === "context-relevance") {
    const rated = (value as ContextJudgment).ratings.map((r) => r.ref);
    const unknown = rated.filter((r) => !refs.has(r));
    const twice = rated.filter((r, i) => rated.indexOf(r) !== i);
    const unrated = [...refs].filter((r) => !rated.includes(r));
    if (unknown.length || twice.length || unrated.length) {
      return `ratings must rate each of sources ${[...refs].join(", ")} once (unknown: ${unknown.join(", ") || "none"}; twice: ${twice.join(", ") || "none"}; unrated: ${unrated.join(", ") || "none"})`;
    }
  }
  if (metric === "faithfulness") {
    const unknown = (value as FaithfulnessJudgment).claims.flatMap((c) => c.refs.filter((r) => !refs.has(r)));
    if (unknown.length) return `claims cite sources that do not exist: ${[...new Set(unknown)].join(", ")}`;
  }
  return null;
}

/** The score a valid judgment gives, with what the judge said. */
function judgedGrade(metric: TriadMetric, c: AskCase, judgment: Judgment): Grade {
  if (metric === "context-relevance") {
    const { ratings, reasoning } = judgment as ContextJudgment;
    const score = ratings.reduce((sum, r) => sum + r.score, 0) / (3 * ratings.length);
    return triadGrade(metric, c, "llm-judge", score, {
      reasoning,
      ratings,
      sources: ratings.length,
      formula: "mean over sources of rating (0–3) / 3",
    });
  }
  if (metric === "faithfulness") {
    const { claims, reasoning } = judgment as FaithfulnessJudgment;
    const supported = claims.filter((x) => x.supported).length;
    const formula = "claims the judge finds supported / claims it lists";
    if (claims.length === 0)
      return triadGrade(metric, c, "llm-judge", 1, {
        reasoning,
        claims: 0,
        vacuous: true,
        formula,
        note: "the judge found no claims: nothing the sources could contradict",
      });
    return triadGrade(metric, c, "llm-judge", supported / claims.length, {
      reasoning,
      claims: claims.length,
      supported,
      unsupported: claims.filter((x) => !x.supported).map((x) => x.claim),
      perClaim: claims,
      formula,
    });
  }
  const { score, reasoning } = judgment as RelevanceJudgment;
  return triadGrade(metric, c, "llm-judge", score / 3, { reasoning, rating: score, formula: "rating (0–3) / 3" });
}

// ---------------------------------------------------------------------------------------------
// Scoring one case
// ---------------------------------------------------------------------------------------------

export interface TriadOptions {
  /** The judge model, ready to call; undefined scores with the heuristic. */
  judge?: LanguageModelV3;
  /** Extra HTTP headers per judge call (an eval makes trials distinct in Evalite's cache with one). */
  headers?: Record<string, string> | ((c: AskCase, result: AskResult) => Record<string, string> | undefined);
  /** Time allowed per judge attempt. @default 45000 */
  timeoutMs?: number;
}

/**
 * One triad metric for one case: the judge when configured (one retry, then the heuristic,
 * labeled), else the heuristic. Never throws for a judge failure; throws NotApplicableError for
 * a case that expects a refusal.
 */
export async function triadScore(metric: TriadMetric, c: AskCase, result: AskResult, options: TriadOptions = {}): Promise<Grade> {
  requireTriad(metric, c);
  if (result.error !== undefined) return failedGrade(metric, c, result, TRIAD[metric].definition);
  const heuristic = HEURISTICS[metric];
  const { judge } = options;
  if (!judge) return heuristic(c, result);
  if (metric === "context-relevance" && result.sources.length === 0) return heuristic(c, result);

  const outcome = await askJudge<Judgment>({
    judge,
    schema: JUDGE_SCHEMAS[metric],
    name: metric.replace("-", "_"),
    description: `${TRIAD[metric].name} judgment`,
    system: JUDGE_SYSTEM[metric],
    prompt: judgePrompt(result),
    problem: (value) => judgmentProblem(metric, value, result),
    headers: typeof options.headers === "function" ? options.headers(c, result) : options.headers,
    timeoutMs: options.timeoutMs ?? 45_000,
  });
  if (outcome.ok) {
    const g = judgedGrade(metric, c, outcome.value);
    g.metadata.judgeModel = judgeId(judge);
    g.metadata.attempts = outcome.attempts;
    if (outcome.retriedAfter !== undefined) g.metadata.retriedAfter = outcome.retriedAfter;
    return g;
  }
  return withJudgeFallback(heuristic(c, result), judge, outcome.errors);
}

/** A heuristic grade standing in for a judge that failed twice, labeled so (`fallbackFrom`, both errors). */
export function withJudgeFallback(fallback: Grade, judge: LanguageModelV3, errors: readonly string[]): Grade {
  Object.assign(fallback.metadata, {
    fallbackFrom: "llm-judge",
    judgeModel: judgeId(judge),
    judgeError: errors[errors.length - 1],
    judgeErrors: errors,
    attempts: JUDGE_ATTEMPTS,
  });
  return fallback;
}

// ---------------------------------------------------------------------------------------------
// Evalite scorers
// ---------------------------------------------------------------------------------------------

function triadScorer(metric: TriadMetric, options: TriadOptions): Evalite.Scorer<AskCase, AskResult, unknown> {
  return createScorer<AskCase, AskResult, unknown>({
    name: TRIAD[metric].name,
    description: `${TRIAD[metric].definition} (${options.judge ? `llm-judge ${judgeId(options.judge)}, heuristic fallback` : "heuristic: token overlap"})`,
    scorer: ({ input, output }) => triadScore(metric, input, output, options),
  });
}

/**
 * How relevant the retrieved sources are to the question.
 *
 * **When to use:** to tell retrieval noise from answer problems, next to the ranking evals.
 * **When NOT to use:** on cases that expect a refusal (it throws), or heuristically on
 * cross-language retrieval (token overlap cannot see a translation).
 */
export const contextRelevance = (options: TriadOptions = {}) => triadScorer("context-relevance", options);

/**
 * Share of the answer's claims the sources support.
 *
 * **When to use:** to catch answers that say more than the sources (hallucination).
 * **When NOT to use:** as correctness: a faithful answer can miss the point (see answer relevance).
 */
export const faithfulness = (options: TriadOptions = {}) => triadScorer("faithfulness", options);

/**
 * How directly the answer addresses the question (a refusal: 0).
 *
 * **When to use:** to catch evasive or off-topic answers.
 * **When NOT to use:** as correctness or faithfulness; it does not look at the sources' support.
 */
export const answerRelevance = (options: TriadOptions = {}) => triadScorer("answer-relevance", options);
