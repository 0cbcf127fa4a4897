/**
 * Validity (retrieval/validity.ts): which documents are stale at the call's instant — `asOf`, or
 * now — and why. They are hidden from every list unless `includeSuperseded` keeps them (marked on
 * the hits). Runs, and appears in the trace, only when the index has documents that declare
 * validity or the call asks about it (`validityApplies`).
 */
import { describeStale, type StaleReason, ValidityGraph } from "../../retrieval/validity.js";
import type { QueryContext } from "../context.js";
import { stage } from "../trace.js";

export function validityApplies(ctx: QueryContext): boolean {
  return ctx.state.catalog.declaringValidity.length > 0 || ctx.options.asOf !== undefined || ctx.options.includeSuperseded;
}

/** The documents stale at the call's instant, each with its reason. */
export const validity = stage("validity", (ctx: QueryContext) => {
  const { state, options } = ctx;
  state.validity ??= new ValidityGraph(state.catalog);
  const asOf = options.asOf ?? Date.now();
  const stale: Map<number, StaleReason> = state.validity.staleAt(asOf);
  const scope = state.catalog.filter(options);
  const listed = [...stale].filter(([d]) => scope === undefined || scope(d));
  const kinds = new Map<string, number>();
  for (const [, reason] of listed) kinds.set(reason.kind, (kinds.get(reason.kind) ?? 0) + 1);
  const counted = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ");
  const note =
    state.validity.temporal.length === 0
      ? "no document declares validity"
      : listed.length === 0
        ? "no document is stale at this instant"
        : options.includeSuperseded
          ? `includeSuperseded: ${listed.length} stale document(s) kept and marked (${counted})`
          : `${listed.length} stale document(s) hidden (${counted})`;
  return {
    value: stale,
    input: {
      asOf: new Date(asOf).toISOString(),
      instant: options.asOf === undefined ? "now" : "asOf",
      includeSuperseded: options.includeSuperseded,
      rule: "stale = outside [validFrom, validUntil) or superseded, directly or through a chain, by a document in force",
      documents: state.validity.temporal.length,
    },
    output: {
      [options.includeSuperseded ? "marked" : "hidden"]: listed
        .slice(0, options.traceDepth)
        .map(([d, reason]) => ({ docId: state.catalog.documents[d]!.docId, kind: reason.kind, reason: describeStale(reason) })),
      count: listed.length,
    },
    note,
  };
});
