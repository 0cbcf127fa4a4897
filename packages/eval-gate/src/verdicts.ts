/**
 * What the gate gives one verdict to: a **verdict unit**. Every case of a suite is one — except
 * the measurements of a question judged elsewhere. A suite whose cases carry a verdict score (the
 * answer eval's "Answers: questions [<preset>]") judges its questions; the other suites of the same
 * eval file and variant measure single expectations of the same questions ("Answers: facts
 * [<preset>]" measures Answer includes), so their cases with the same id are folded into that
 * question's unit: they feed means and floors, but give no verdict of their own. Without this a
 * question would pass in one suite and fail in another, and the reports would disagree.
 *
 * A unit's key is `<suite>|<id>`: what the case ratchet (case-ratchet.ts) records, JUnit names
 * and `--accept-failure` matches. Pure.
 */
import type { CaseOutcome, Outcome } from "./aggregate.js";
import type { SuiteRecord, Variant } from "./evalite-output.js";

export interface VerdictUnit {
  key: string;
  suite: string;
  eval: string;
  /** The eval file, as Evalite reports it. */
  file: string;
  id: string;
  label: string;
  language?: string;
  category?: string;
  variant: Variant | null;
  /** `question`: judged by a verdict score; `case`: by the pass marks of its metrics. */
  kind: "question" | "case";
  outcome: Outcome;
  reasons: string[];
  diagnosis?: { verdict: string; reasons: string[] };
  warnings?: string[];
  /** Other suites whose case of the same question is folded into this unit. */
  covers: string[];
  latencyMs: number | null;
}

export const unitKey = (suite: string, id: string): string => `${suite}|${id}`;

/**
 * The units of a run, in case order; sets each case's `verdict` to its unit's key, and gives a
 * folded case its question's outcome and reasons, so every case record agrees with its verdict.
 */
export function verdictUnits(cases: CaseOutcome[], suites: readonly SuiteRecord[]): VerdictUnit[] {
  const fileOf = new Map(suites.map((s) => [s.name, s.file]));
  const questionSuites = new Set(cases.filter((c) => c.judgedBy === "verdict").map((c) => c.suite));
  // Questions by file, variant and id: where the other suites' cases of the same question fold in.
  const questions = new Map<string, CaseOutcome>();
  const questionKey = (c: CaseOutcome): string => `${fileOf.get(c.suite)}\u0000${c.variant?.value ?? ""}\u0000${c.id}`;
  for (const c of cases) if (questionSuites.has(c.suite)) questions.set(questionKey(c), c);

  const units = new Map<string, VerdictUnit>();
  for (const c of cases) {
    const question = questionSuites.has(c.suite) ? undefined : questions.get(questionKey(c));
    if (question) continue;
    const key = unitKey(c.suite, c.id);
    units.set(key, {
      key,
      suite: c.suite,
      eval: c.eval,
      file: fileOf.get(c.suite) ?? "",
      id: c.id,
      label: c.label,
      ...(c.language ? { language: c.language } : {}),
      ...(c.category ? { category: c.category } : {}),
      variant: c.variant,
      kind: c.judgedBy === "verdict" ? "question" : "case",
      outcome: c.outcome,
      reasons: c.reasons,
      ...(c.diagnosis ? { diagnosis: c.diagnosis } : {}),
      ...(c.warnings ? { warnings: c.warnings } : {}),
      covers: [],
      latencyMs: c.latencyMs,
    });
    c.verdict = key;
  }
  for (const c of cases) {
    if (c.verdict !== undefined) continue;
    const question = questions.get(questionKey(c))!;
    const unit = units.get(question.verdict!)!;
    if (!unit.covers.includes(c.suite)) unit.covers.push(c.suite);
    // A measurement whose own task threw is an error of the question as well.
    if (c.outcome === "error" && unit.outcome !== "error") {
      unit.outcome = "error";
      unit.reasons = [...unit.reasons, ...c.reasons.filter((r) => r.includes("the task threw")).map((r) => `${c.suite}: ${r}`)];
    }
    c.verdict = unit.key;
  }
  for (const c of cases) {
    const unit = units.get(c.verdict!)!;
    c.outcome = unit.outcome;
    c.reasons = unit.reasons;
  }
  return [...units.values()];
}
