/**
 * Per-question diagnosis — where did a failed answer go wrong? — and the golden-set sanity check.
 * Both are pure functions of a fixture case (`AskCase`) and the engine's `ObservedAnswer`, for columns,
 * reports and the gate; they are not scores.
 *
 * Diagnosis, from the deterministic graders of answer/ that apply to the case (answer-includes,
 * answer-excludes, cites, cites-only-surfaced, no-citations, refusal; topic coverage is a rubric
 * share, not a pass/fail check, and does not count):
 *
 * - `error`: the answerer failed (`result.error`); nothing about quality can be said.
 * - `pass`: every applicable grader scored 1.
 * - `retrieval`: a grader failed, and a `mustCite` document is not among the retrieved sources
 *   (neither it nor a translation of it, under the same translation policy as the cites grader),
 *   or — for a case without `mustCite` that expects an answer — nothing relevant was retrieved:
 *   no source holds `NOTHING_RELEVANT_SHARE` (50 %) of the question's content terms. Each missing
 *   document is named with the stage that lost it, from the answer's retrieval trace
 *   (`unsurfaced: de/kuendigung.md (lost at rerank; bm25 #3, vector —, fusion #12, rerank #9)`).
 *   The trace lists are as deep as `ask()` traces them (20), so "not retrieved" means not in the
 *   top 20 of any first-stage list.
 * - `generation`: a grader failed although the right sources were retrieved (or the case expects a
 *   refusal, which retrieval cannot supply). A refusal by the evidence gate counts here too, with
 *   its coverage and threshold named: the gate is part of answering.
 *
 * Golden-set sanity: the expected answer (`expectedSubstrings` and `expectedTopics`) should share
 * vocabulary with the context retrieved for it. When fewer than `GOLDEN_MIN_SHARE` (20 %) of its
 * content terms occur in any retrieved source, a warning says so: either retrieval missed, or the
 * golden answer is wrong, in another language than the sources, or worded unlike them. Cases
 * without an expected answer (off-corpus) get no warning.
 */
import type { ObservedAnswer } from "./observed.js";
import type { AskCase } from "./ask-case.js";
import { type CitesOptions, GRADERS, type Grade, type GraderId, round, translationsUnder } from "./answer/index.js";
import { sourceText, termOverlap } from "./text/overlap.js";
import { relevantDocPaths, type RelevantDocPath } from "./stage-loss.js";

export type Verdict = "pass" | "retrieval" | "generation" | "error";

export interface FailedCheck {
  grader: GraderId;
  score: number;
  /** What failed, in words. */
  detail: string;
}

export interface Diagnosis {
  caseId: string;
  verdict: Verdict;
  /** Why, one fact a line. */
  reasons: string[];
  /** The pass/fail graders that scored below 1. */
  failed: FailedCheck[];
  /** mustCite documents of which neither the doc nor a translation was retrieved. */
  unsurfaced: string[];
  /** Each mustCite document (and its translations) through the retrieval stages. */
  paths: RelevantDocPath[];
}

/** A source holding less than this share of the question's terms is not relevant (cases without mustCite). */
export const NOTHING_RELEVANT_SHARE = 0.5;

/** The pass/fail graders, in the order their failures are listed. */
const PASS_FAIL: readonly GraderId[] = ["refusal", "answer-includes", "answer-excludes", "cites", "cites-only-surfaced", "no-citations"];

function detailOf(g: Grade): string {
  const m = g.metadata;
  switch (m.grader) {
    case "refusal":
      return m.expected === "answer"
        ? `refused (${String(m.refusal)}) but the case expects an answer`
        : "answered but the case expects a refusal";
    case "answer-includes":
      return `missing ${(m.missing as string[]).map((s) => JSON.stringify(s)).join(", ")}`;
    case "answer-excludes":
      return `contains forbidden ${(m.found as string[]).map((s) => JSON.stringify(s)).join(", ")}`;
    case "cites":
      return `does not cite ${(m.missing as string[]).join(", ")}`;
    case "cites-only-surfaced":
      return `cites what was not retrieved: ${(m.unsurfaced as string[]).join("; ")}`;
    default:
      return String(m.rule);
  }
}

/** `lost at rerank (rerank moved it 3 → 9); bm25 #3, vector —, fusion #3, rerank #9` */
function describePath(p: RelevantDocPath): string {
  const ranks = Object.entries(p.ranks)
    .filter(([list]) => list !== "evidence")
    .map(([list, rank]) => `${list} ${rank === null ? "—" : `#${rank}`}`)
    .join(", ");
  return `${p.lostAt === null ? "retrieved" : `lost at ${p.lostAt} (${p.why})`}${ranks ? `; ${ranks}` : ""}`;
}

export function diagnose(c: AskCase, result: ObservedAnswer, options: CitesOptions = {}): Diagnosis {
  const base = { caseId: c.id, failed: [] as FailedCheck[], unsurfaced: [] as string[], paths: [] as RelevantDocPath[] };
  if (result.error !== undefined) return { ...base, verdict: "error", reasons: [`the answerer failed: ${result.error}`] };

  // Where each mustCite doc (and its translations) went in retrieval.
  const translations = translationsUnder(options);
  const retrieved = [...new Set(result.sources.map((s) => s.docId))];
  const required = c.mustCite ?? [];
  const judgments = Object.fromEntries(required.flatMap((doc) => [doc, ...(translations.get(doc) ?? [])]).map((doc) => [doc, 1]));
  const paths = relevantDocPaths(
    result.trace ?? [],
    retrieved.map((docId) => ({ docId })),
    judgments,
    retrieved.length,
  );
  const unsurfaced = required.filter((doc) => ![doc, ...(translations.get(doc) ?? [])].some((d) => retrieved.includes(d)));

  const failed = PASS_FAIL.filter((id) => GRADERS[id].appliesTo(c))
    .map((id) => [id, GRADERS[id].score(c, result, options)] as const)
    .filter(([, g]) => g.score < 1)
    .map(([grader, g]) => ({ grader, score: round(g.score), detail: detailOf(g) }));
  const diagnosis = { ...base, failed, unsurfaced, paths };
  // A pass cites every mustCite doc (or a translation), and only retrieved sources can be cited.
  if (failed.length === 0) return { ...diagnosis, verdict: "pass", reasons: [] };
  const failures = failed.map((f) => `${f.grader} ${f.score}: ${f.detail}`);
  if (unsurfaced.length > 0) {
    const lost = unsurfaced.map((doc) => `unsurfaced: ${doc} (${describePath(paths.find((p) => p.docId === doc)!)})`);
    return { ...diagnosis, verdict: "retrieval", reasons: [...lost, ...failures] };
  }

  if (required.length === 0 && c.expectedRefusal !== true) {
    const best = Math.max(0, ...result.sources.map((s) => termOverlap(result.question, c.language, [sourceText(s)]).share));
    if (best < NOTHING_RELEVANT_SHARE) {
      return {
        ...diagnosis,
        verdict: "retrieval",
        reasons: [
          `nothing relevant retrieved: the best of ${result.sources.length} sources holds ${round(best)} of the question's terms (< ${NOTHING_RELEVANT_SHARE})`,
          ...failures,
        ],
      };
    }
  }
  const gate = result.refusal === "insufficient-evidence" ? [`refused by the evidence gate: ${evidenceLine(result)}`] : [];
  const found = required.length > 0 ? [`every mustCite document was retrieved (or a translation): ${required.join(", ")}`] : [];
  return { ...diagnosis, verdict: "generation", reasons: [...found, ...gate, ...failures] };
}

/** What the evidence gate measured, when the target says: `coverage 0.12 < threshold 0.4`. */
export function evidenceLine(result: Pick<ObservedAnswer, "evidence">): string {
  const e = result.evidence;
  return e ? `coverage ${round(e.coverage)} < threshold ${e.threshold}` : "the target did not report its coverage";
}

/** One line for a column: `generation: answer-includes 0.5: missing "180"`. */
export function formatDiagnosis(d: Diagnosis): string {
  if (d.reasons.length === 0) return d.verdict;
  return `${d.verdict}: ${d.reasons.join("; ")}`;
}

// ---------------------------------------------------------------------------------------------
// Golden-set sanity
// ---------------------------------------------------------------------------------------------

/** Below this share of its terms in the retrieved context, an expected answer gets a warning. */
export const GOLDEN_MIN_SHARE = 0.2;

export interface GoldenWarning {
  caseId: string;
  /** Share of the expected answer's content terms found in any retrieved source. */
  share: number;
  shared: string[];
  missing: string[];
  message: string;
}

/** A warning when the case's expected answer shares almost no vocabulary with the retrieved context; null otherwise. */
export function goldenSetWarning(c: AskCase, result: ObservedAnswer, minShare = GOLDEN_MIN_SHARE): GoldenWarning | null {
  const expected = [...(c.expectedSubstrings ?? []), ...(c.expectedTopics ?? []), ...(c.referenceAnswer ? [c.referenceAnswer] : [])];
  if (expected.length === 0) return null;
  const o = termOverlap(expected.join("\n"), c.language, result.sources.map(sourceText));
  if (o.terms.length > 0 && o.share >= minShare) return null;
  const languages = [...new Set(result.sources.map((s) => s.language ?? "unknown"))].join("/") || "none";
  const message =
    result.sources.length === 0
      ? `${c.id}: nothing was retrieved, so the expected answer cannot be checked against any context`
      : `${c.id}: the expected answer shares ${o.found.length}/${o.terms.length} content terms with the ${result.sources.length} retrieved sources (${round(o.share)} < ${minShare}; expected in ${c.language ?? "an unstated language"}, sources in ${languages}); check the golden answer and the retrieval`;
  return { caseId: c.id, share: round(o.share), shared: o.found, missing: o.missing, message };
}

/** The warnings over a run's (case, result) pairs. */
export function goldenSetWarnings(
  pairs: Iterable<{ case: AskCase; result: ObservedAnswer }>,
  minShare = GOLDEN_MIN_SHARE,
): GoldenWarning[] {
  const warnings: GoldenWarning[] = [];
  for (const { case: c, result } of pairs) {
    const w = goldenSetWarning(c, result, minShare);
    if (w) warnings.push(w);
  }
  return warnings;
}
