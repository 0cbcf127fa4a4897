/**
 * Faithfulness: the share of the answer's claims the sources support, the generation leg of the
 * RAG triad.
 *
 * - llm-judge: the judge lists every factual claim of the answer, whether the sources support it
 *   and which; supported ÷ listed. Its refs must exist.
 * - heuristic: a **claim** is a sentence of the answer (split at `.`, `!`, `?` and their CJK forms
 *   followed by space, and at line breaks; list markers and emphasis removed; not at an
 *   abbreviation) with its citation markers taken out; a marker standing after the full stop
 *   belongs to the sentence before it. A claim is **supported** when at least `SUPPORT_SHARE`
 *   (60 %) of its content terms occur in its evidence and every number in it does (a number the
 *   sources do not state is the hallucination that matters most), by the token overlap of
 *   scorers/text/overlap.ts in the answer's language. Its evidence is the sources it cites when it
 *   cites at least one existing source, else all sources. Lexical, so it cannot see a translation
 *   or a paraphrase with other words as support.
 * - No claims (a refusal, an answer without a content word, a judge that lists none): 1 with
 *   `vacuous: true` — it asserts nothing the sources could contradict. That a refusal was wrong is
 *   scored by the refusal grader and by answer relevance (0).
 *
 * **When to use:** to catch answers that say more than the sources (hallucination).
 * **When NOT to use:** as correctness: a faithful answer can miss the point (see answer relevance).
 */
import { round } from "../answer/grade.js";
import { DATA_RULE } from "../judge-call.js";
import { isRefused } from "../refusal-check.js";
import { citationRefs, stripCitationMarkers } from "../text/citations.js";
import { answerLanguage, sourceText, termOverlap } from "../text/overlap.js";
import { type TriadMetric, triadGrade } from "./metric.js";

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

interface FaithfulnessJudgment {
  reasoning: string;
  claims: Array<{ claim: string; supported: boolean; refs: number[] }>;
}

export const faithfulnessMetric: TriadMetric<FaithfulnessJudgment> = {
  id: "faithfulness",
  name: "Faithfulness",
  definition: "share of the answer's claims supported by the sources",
  readsSources: true,
  heuristic: (c, result) => {
    const claims = isRefused(result) ? [] : answerClaims(result.answer);
    const formula = `supported claims / claims; supported: ≥ ${SUPPORT_SHARE * 100} % of its content terms and every number in its cited sources (all sources when it cites none)`;
    if (claims.length === 0) {
      return triadGrade(faithfulnessMetric, c, "heuristic", 1, {
        claims: 0,
        vacuous: true,
        refused: isRefused(result),
        formula,
        note: "no claims: nothing the sources could contradict",
      });
    }
    const sources = new Map((result.sources ?? []).map((s) => [s.ref, sourceText(s)]));
    const language = answerLanguage(result, c.language);
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
    return triadGrade(faithfulnessMetric, c, "heuristic", supported / checked.length, {
      claims: checked.length,
      supported,
      unsupported: checked.filter((x) => !x.supported).map((x) => x.claim),
      perClaim: checked,
      formula,
    });
  },
  judge: {
    schema: {
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
    system: [
      "You grade the faithfulness of an answer: whether what it states is supported by the numbered sources.",
      "List every factual claim the answer makes, one statement each (citation markers like [2] are not claims; a sentence saying that the documents do not contain an answer is not a claim).",
      "A claim is supported when the sources state it or directly imply it. General knowledge, plausibility and the answer's own citation markers do not count as support.",
      "For each claim give the refs of the sources that support it (empty when unsupported).",
      DATA_RULE,
    ].join("\n"),
    check: ({ claims }, result) => {
      const refs = new Set((result.sources ?? []).map((s) => s.ref));
      const unknown = claims.flatMap((x) => x.refs.filter((r) => !refs.has(r)));
      return unknown.length > 0 ? `claims cite sources that do not exist: ${[...new Set(unknown)].join(", ")}` : null;
    },
    grade: ({ claims, reasoning }, c) => {
      const formula = "claims the judge finds supported / claims it lists";
      if (claims.length === 0)
        return triadGrade(faithfulnessMetric, c, "llm-judge", 1, {
          reasoning,
          claims: 0,
          vacuous: true,
          formula,
          note: "the judge found no claims: nothing the sources could contradict",
        });
      const supported = claims.filter((x) => x.supported).length;
      return triadGrade(faithfulnessMetric, c, "llm-judge", supported / claims.length, {
        reasoning,
        claims: claims.length,
        supported,
        unsupported: claims.filter((x) => !x.supported).map((x) => x.claim),
        perClaim: claims,
        formula,
      });
    },
  },
};
