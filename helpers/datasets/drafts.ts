/**
 * Drafted cases: what `pnpm eval:draft` and `pnpm eval:harvest` write and `pnpm eval:review` settles
 * (docs/evals.md, "Growing the golden set"). A case with `status: "draft"` has not been reviewed by
 * a person: a run measures it, and reports it apart, but it never gates the run, never enters a
 * floor or a recorded case, and never takes part in a mean over all cases (the tier order, the
 * preset order, the language matrix). The gate tells drafts by the same field on the case it is
 * given (@hybrid-search/eval-gate/drafts), so every eval keeps them apart without knowing of them.
 *
 * Every drafted case says where it came from (`provenance`), and a reviewed one who reviewed it
 * and when (`reviewed`); review removes `status` and keeps both.
 */

/** The value of `status` that marks a case nobody has reviewed yet. */
export const DRAFT = "draft" as const;

/** Where a drafted case came from. */
export interface Provenance {
  /**
   * How it was drafted: `structure/<rule>` by the offline drafter (rule: definition, number, date,
   * identifier, step, heading, keywords, off-corpus), `model/<provider>/<model id>` by a model,
   * `feedback/<kind>` by eval:harvest (kind: search, answer, turn).
   */
  method: string;
  /** The document the case was drawn from (absent: a question the corpus does not answer, or feedback). */
  docId?: string;
  /** The passage of that document the expectations were taken from, verbatim. */
  quote?: string;
  /** Further documents a multi-document case was drawn from, each with its passage. */
  also?: Array<{ docId: string; quote: string }>;
  /** eval:harvest: the id of the feedback record the case came from. */
  feedbackId?: string;
  /** When it was drafted: YYYY-MM-DD. */
  drafted: string;
}

/** Who reviewed a case, and when (YYYY-MM-DD); `edited` when the reviewer changed its expectation. */
export interface Reviewed {
  by: string;
  date: string;
  edited?: boolean;
}

/** The fields a case of a grown golden set may carry beside its own (every format's case, every file of the fixture format). */
export interface DraftFields {
  /** `draft` until a person has reviewed the case; absent once reviewed (or for a case written by hand). */
  status?: typeof DRAFT;
  provenance?: Provenance;
  reviewed?: Reviewed;
}

/** Whether a case is a draft: nobody has reviewed it yet. */
export function isDraft(record: { status?: unknown }): boolean {
  return record.status === DRAFT;
}

/** The cases that are not drafts: what a mean over all cases of an eval takes. */
export function reviewedOnly<T extends { status?: unknown }>(cases: readonly T[]): T[] {
  return cases.filter((c) => !isDraft(c));
}

/**
 * Why an eval over all cases at once (a mean, a matrix) cannot run: every case it would take is a
 * draft (`what`: the cases, e.g. "judged query"); null when some case is reviewed or there is none.
 */
export function allDraftsReason(cases: ReadonlyArray<{ status?: unknown }>, what: string, dataset: string): string | null {
  if (cases.length === 0 || cases.some((c) => !isDraft(c))) return null;
  return `every ${what} of dataset ${dataset} is a draft (status "draft"): a mean over all of them is taken over reviewed cases only; pnpm eval:review reviews them`;
}

/** Today's date as provenance and review record it: YYYY-MM-DD (UTC). */
export function isoDate(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
