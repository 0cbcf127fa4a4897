/**
 * Which documents are stale at an instant, and why. The same rule holds in every mode and tier and
 * in `ask()`, because it is applied to the documents before any list is ranked:
 *
 * - a document is **in its window** at t when `validFrom ≤ t < validUntil` (a missing bound is open);
 * - a document is **superseded** at t when a document that supersedes it — directly, or through a
 *   chain (A superseded by B superseded by C) — is **in force** at t: in its window and not itself
 *   superseded. A successor that has not started yet, or whose window has ended, supersedes nothing
 *   (a temporary replacement gives the old document back when it ends);
 * - a document is **stale** at t when it is outside its window or superseded.
 *
 * By default stale documents are hidden; `includeSuperseded` keeps them, marked. Instants are
 * milliseconds since the epoch (UTC).
 */
import type { Catalog } from "../store/catalog.js";

export type StaleReason =
  | { kind: "superseded"; by: string[] }
  | { kind: "not-yet-valid"; validFrom: string }
  | { kind: "expired"; validUntil: string };

/** The supersession graph of an index's documents, built once per catalog. */
export class ValidityGraph {
  /** Documents that declare validity or are superseded: the only ones that can be stale. */
  readonly temporal: number[];
  /** docIndex → indexes of the documents that directly supersede it. */
  private readonly successors = new Map<number, number[]>();

  constructor(private readonly catalog: Catalog) {
    const byId = new Map<string, number>();
    for (const i of catalog.declaringValidity) {
      const doc = catalog.documents[i]!;
      for (const id of doc.validity!.supersedes) {
        if (byId.size === 0) for (const [j, d] of catalog.documents.entries()) byId.set(`${d.collection}\u0000${d.docId}`, j);
        // Indexing checked every id; an index edited by hand may not hold one, which then supersedes nothing.
        const target = byId.get(`${doc.collection}\u0000${id}`);
        if (target !== undefined) this.successors.set(target, [...(this.successors.get(target) ?? []), i]);
      }
    }
    this.temporal = [...new Set([...catalog.declaringValidity, ...this.successors.keys()])].sort((a, b) => a - b);
  }

  /** Every stale document at `asOf` (ms), with its reason; empty when no document declares validity. */
  staleAt(asOf: number): Map<number, StaleReason> {
    const stale = new Map<number, StaleReason>();
    const inForceSuccessors = new Map<number, number[]>();
    // The documents in force that (transitively) supersede `d`; the graph is acyclic (checked at indexing).
    const supersededBy = (d: number): number[] => {
      const known = inForceSuccessors.get(d);
      if (known) return known;
      const found = new Set<number>();
      for (const s of this.successors.get(d) ?? []) {
        const above = supersededBy(s);
        if (above.length > 0) for (const a of above) found.add(a);
        else if (!this.outsideWindow(s, asOf)) found.add(s);
      }
      const list = [...found].sort((a, b) => a - b);
      inForceSuccessors.set(d, list);
      return list;
    };
    for (const d of this.temporal) {
      const outside = this.outsideWindow(d, asOf);
      if (outside) stale.set(d, outside);
      else {
        const by = supersededBy(d);
        if (by.length > 0) stale.set(d, { kind: "superseded", by: by.map((i) => this.catalog.documents[i]!.docId) });
      }
    }
    return stale;
  }

  /** Ids of the documents that directly supersede `docIndex` (whether or not they are in force). */
  supersededBy(docIndex: number): string[] {
    return (this.successors.get(docIndex) ?? []).map((i) => this.catalog.documents[i]!.docId);
  }

  /** Why `d` is outside its own window at `asOf` (the window is [validFrom, validUntil)), or undefined. */
  private outsideWindow(d: number, asOf: number): StaleReason | undefined {
    const v = this.catalog.documents[d]!.validity;
    if (v?.validFrom !== undefined && asOf < Date.parse(v.validFrom)) return { kind: "not-yet-valid", validFrom: v.validFrom };
    if (v?.validUntil !== undefined && asOf >= Date.parse(v.validUntil)) return { kind: "expired", validUntil: v.validUntil };
    return undefined;
  }
}

/** A stale reason in words, for traces and hits. */
export function describeStale(reason: StaleReason): string {
  switch (reason.kind) {
    case "superseded":
      return `superseded by ${reason.by.join(", ")}`;
    case "not-yet-valid":
      return `not valid yet (validFrom ${reason.validFrom})`;
    case "expired":
      return `no longer valid (validUntil ${reason.validUntil})`;
  }
}
