/**
 * Faithfulness: the share of the answer's statements the sources support, the generation leg of
 * the RAG triad.
 *
 * - llm-judge, by claims, in two calls: the judge first splits the answer into atomic statements
 *   (from the question and the answer alone), then verifies each against the numbered sources —
 *   `supported` (a source states or directly implies it), `contradicted` (a source states
 *   otherwise) or `not-found` — with the refs it relied on and why. Score = supported ÷ statements;
 *   every statement and its verdict is in the score's metadata (`perClaim`), and both calls in the
 *   case's trace.
 * - heuristic, graded: a **claim** is a sentence of the answer (split at `.`, `!`, `?` and their
 *   CJK forms followed by space, and at line breaks; list markers and emphasis removed; not at an
 *   abbreviation) with its citation markers taken out; a marker standing after the full stop
 *   belongs to the sentence before it. A claim's **support** is the weighted share of its content
 *   terms found in its evidence (scorers/text/overlap.ts, `weightedOverlap`, in the answer's
 *   language): numbers and names weigh 3, other words 1, so a changed figure or entity costs what
 *   three words do. Its evidence is the sources it cites when it cites at least one existing
 *   source, else all sources. Score = the mean support of the claims. A leading yes or no is not a
 *   term; a bare yes or no (text/yes-no.ts) states the question's content, which is then the claim.
 *   Lexical: it sees which words, numbers and names the sources hold, not what they say about them
 *   — a negation, a swapped relation between words the sources hold, or a paraphrase with other
 *   words all escape it; a "no" is judged like a "yes".
 * - No claims (a refusal, an answer without a content word, a judge that lists no statement): 1
 *   with `vacuous: true` — it asserts nothing the sources could contradict. That a refusal was
 *   wrong is scored by the refusal grader and by answer relevance (0).
 *
 * **When to use:** to catch answers that say more than the sources (hallucination).
 * **When NOT to use:** as correctness: a faithful answer can miss the point (see answer relevance).
 */
import type { ObservedAnswer } from "../observed.js";
import { round } from "../answer/grade.js";
import { DATA_RULE, escapeData } from "../judge-call.js";
import { isRefused } from "../refusal-check.js";
import { citationRefs, stripCitationMarkers } from "../text/citations.js";
import { answerLanguage, KEY_WEIGHT, sourceText, weightedOverlap } from "../text/overlap.js";
import { yesNoAnswer } from "../text/yes-no.js";
import { type JudgeStep, judgeSources, type TriadMetric, triadGrade } from "./metric.js";

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

interface StatementsJudgment {
  statements: string[];
}

type Verdict = "supported" | "contradicted" | "not-found";

interface VerdictsJudgment {
  verdicts: Array<{ statement: number; reason: string; verdict: Verdict; refs: number[] }>;
}

/** The heuristic's claims of an answer: its sentences, a leading yes or no taken out; a bare yes or no stands for the question. */
function heuristicClaims(result: ObservedAnswer): Array<Claim & { fromQuestion?: true }> {
  const yesNo = yesNoAnswer(result.answer);
  if (yesNo !== null && yesNo.rest === "") return [{ text: result.question, refs: citationRefs(result.answer), fromQuestion: true }];
  const claims = answerClaims(result.answer);
  if (yesNo !== null && claims.length > 0) {
    const first = yesNoAnswer(claims[0]!.text);
    if (first !== null) claims[0] = { ...claims[0]!, text: first.rest };
  }
  return claims.filter((c) => /[\p{L}\p{N}]/u.test(c.text));
}

const FORMULA = `mean over claims of the weighted share of their content terms in their cited sources (all sources when a claim cites none); numbers and names weigh ${KEY_WEIGHT}, words 1`;

/** The two calls of the judge (module comment). */
const SPLIT: JudgeStep<StatementsJudgment> = {
  name: "faithfulness_statements",
  description: "The answer's atomic statements",
  schema: {
    type: "object",
    properties: {
      statements: {
        type: "array",
        description: "The answer's atomic statements, in its order; empty when it states nothing.",
        items: { type: "string", minLength: 1 },
      },
    },
    required: ["statements"],
    additionalProperties: false,
  },
  system: [
    "You split an answer into atomic statements, so that each can be checked on its own.",
    "Each statement states one fact and stands alone: replace pronouns by what they refer to, and keep every number, name, condition and negation exactly as the answer gives it.",
    "Cover everything the answer asserts and add nothing. A bare yes or no asserts what the question asks, or its negation: write that out as the statement.",
    "Leave out citation markers like [2], and sentences that only say the documents do not contain an answer. An answer that asserts nothing gives an empty list.",
    DATA_RULE,
  ].join("\n"),
  prompt: (_c, result) => `<question>\n${escapeData(result.question)}\n</question>\n\n<answer>\n${escapeData(result.answer)}\n</answer>`,
};

const VERIFY: JudgeStep<VerdictsJudgment> = {
  name: "faithfulness_verdicts",
  description: "A verdict per statement",
  schema: {
    type: "object",
    properties: {
      verdicts: {
        type: "array",
        description: "Exactly one verdict per statement, by its number.",
        items: {
          type: "object",
          properties: {
            statement: { type: "integer", minimum: 1 },
            reason: { type: "string", description: "What the sources say about it, in one sentence." },
            verdict: { type: "string", enum: ["supported", "contradicted", "not-found"] },
            refs: {
              type: "array",
              items: { type: "integer", minimum: 1 },
              description: "The sources that support or contradict it; empty for not-found.",
            },
          },
          required: ["statement", "reason", "verdict", "refs"],
          additionalProperties: false,
        },
      },
    },
    required: ["verdicts"],
    additionalProperties: false,
  },
  system: [
    "You verify statements against numbered sources. For each numbered statement, decide from the sources alone:",
    "supported = a source states it or directly implies it;",
    "contradicted = a source states something incompatible with it;",
    "not-found = the sources neither state nor contradict it.",
    "General knowledge, plausibility and the answer's own citation markers are not support. Give the refs of the sources you relied on (none for not-found), and one verdict per statement.",
    DATA_RULE,
  ].join("\n"),
  prompt: (_c, result, earlier) => {
    const { statements } = earlier[0] as StatementsJudgment;
    return [
      judgeSources(result),
      `Statements (${statements.length}):\n${statements.map((t, i) => `<statement n="${i + 1}">${escapeData(t)}</statement>`).join("\n")}`,
    ].join("\n\n");
  },
  check: ({ verdicts }, result, earlier) => {
    const n = (earlier[0] as StatementsJudgment).statements.length;
    const refs = new Set((result.sources ?? []).map((s) => s.ref));
    const given = verdicts.map((v) => v.statement);
    const unknown = given.filter((g) => g > n);
    const twice = given.filter((g, i) => given.indexOf(g) !== i);
    const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !given.includes(k));
    if (unknown.length + twice.length + missing.length > 0)
      return `verdicts must judge each of statements 1–${n} once (unknown: ${unknown.join(", ") || "none"}; twice: ${twice.join(", ") || "none"}; missing: ${missing.join(", ") || "none"})`;
    const badRefs = [...new Set(verdicts.flatMap((v) => v.refs.filter((r) => !refs.has(r))))];
    if (badRefs.length > 0) return `verdicts cite sources that do not exist: ${badRefs.join(", ")}`;
    const unreferenced = verdicts.filter((v) => v.verdict !== "not-found" && v.refs.length === 0).map((v) => v.statement);
    if (unreferenced.length > 0)
      return `a supported or contradicted statement names the source it relied on (none for statements ${unreferenced.join(", ")})`;
    return null;
  },
};

export const faithfulnessMetric: TriadMetric = {
  id: "faithfulness",
  name: "Faithfulness",
  definition: "share of the answer's statements supported by the sources",
  readsSources: true,
  heuristic: (c, result) => {
    const claims = isRefused(result) ? [] : heuristicClaims(result);
    if (claims.length === 0) {
      return triadGrade(faithfulnessMetric, c, "heuristic", 1, {
        claims: 0,
        vacuous: true,
        refused: isRefused(result),
        formula: FORMULA,
        note: "no claims: nothing the sources could contradict",
      });
    }
    const sources = new Map((result.sources ?? []).map((s) => [s.ref, sourceText(s)]));
    const language = answerLanguage(result, c.language);
    const checked = claims.map((claim) => {
      const cited = claim.refs.flatMap((r) => (sources.has(r) ? [sources.get(r)!] : []));
      const o = weightedOverlap(claim.text, language, cited.length > 0 ? cited : [...sources.values()]);
      return {
        claim: claim.text,
        ...(claim.fromQuestion ? { fromQuestion: true, rule: "a bare yes or no: its content is the question's" } : {}),
        refs: claim.refs,
        against: cited.length > 0 ? "cited sources" : "all sources",
        support: round(o.support),
        missing: o.missing,
        missingKeys: o.missingKeys,
      };
    });
    const score = checked.reduce((sum, x) => sum + x.support, 0) / checked.length;
    return triadGrade(faithfulnessMetric, c, "heuristic", score, {
      claims: checked.length,
      weak: checked.filter((x) => x.support < 0.5).map((x) => x.claim),
      perClaim: checked,
      formula: FORMULA,
    });
  },
  judge: {
    version: 2,
    steps: [SPLIT as JudgeStep, VERIFY as JudgeStep],
    done: (earlier) => (earlier[0] as StatementsJudgment).statements.length === 0,
    grade: (judgments, c) => {
      const { statements } = judgments[0] as StatementsJudgment;
      const formula = "statements the judge finds supported by the sources / statements it split the answer into";
      if (statements.length === 0)
        return triadGrade(faithfulnessMetric, c, "llm-judge", 1, {
          claims: 0,
          vacuous: true,
          formula,
          note: "the judge found no statement: nothing the sources could contradict",
        });
      const { verdicts } = judgments[1] as VerdictsJudgment;
      const perClaim = [...verdicts]
        .sort((a, b) => a.statement - b.statement)
        .map((v) => ({ statement: statements[v.statement - 1]!, verdict: v.verdict, refs: v.refs, reason: v.reason }));
      const count = (verdict: Verdict) => perClaim.filter((x) => x.verdict === verdict).length;
      return triadGrade(faithfulnessMetric, c, "llm-judge", count("supported") / statements.length, {
        claims: statements.length,
        supported: count("supported"),
        contradicted: count("contradicted"),
        notFound: count("not-found"),
        unsupported: perClaim.filter((x) => x.verdict !== "supported").map((x) => x.statement),
        perClaim,
        formula,
      });
    },
  },
};
