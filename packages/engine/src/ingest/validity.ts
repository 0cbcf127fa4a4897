/**
 * A document's validity, as its source declares it: `validFrom`, `validUntil` (instants, UTC) and
 * `supersedes` (ids of documents of the same collection it replaces). Read from Markdown front
 * matter and from JSONL records; every problem is an input error (`INVALID_VALIDITY`, one line
 * naming the document and the field), found before anything is written.
 *
 * Dates are UTC: `2024-09-01` is 2024-09-01T00:00:00Z; a date-time without an offset is UTC too
 * (`2024-09-01T08:30`); one with `Z` or `±hh:mm` is that instant. The window is half-open:
 * a document is valid from `validFrom` (inclusive) until `validUntil` (exclusive), so at the
 * instant of a change exactly one of the two documents is valid.
 */
import { EngineError } from "../errors.js";

/** What the index stores per document. Instants are normalized ISO strings (`toISOString()`). */
export interface DocumentValidity {
  validFrom?: string;
  validUntil?: string;
  /** Document ids (same collection) this one replaces; may be empty. */
  supersedes: string[];
}

/** A source document's validity with where it was declared, for relation errors (`file:line`). */
export interface DeclaredValidity extends DocumentValidity {
  at: string;
}

/** The field names, as documented; front matter keys match them case-insensitively. */
export const VALIDITY_FIELDS = ["validFrom", "validUntil", "supersedes"] as const;
export type ValidityField = (typeof VALIDITY_FIELDS)[number];

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * Milliseconds since the epoch of a date or date-time (UTC unless it names an offset), or
 * undefined when the text is not one or names a day that does not exist (`2024-02-30`).
 */
export function parseInstant(text: string): number | undefined {
  const m = INSTANT.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((v) => (v === undefined ? undefined : Number(v)));
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month! < 1 || month! > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const utc = Date.UTC(year!, month! - 1, day!, hour, minute, second, millis);
  // Date.UTC rolls 2024-02-30 over to March: a day that does not exist comes back changed.
  if (new Date(utc).getUTCDate() !== day) return undefined;
  const zone = m[8];
  if (zone === undefined || zone === "Z") return utc;
  const [zh, zm] = zone.slice(1).split(":").map(Number);
  if (zh! > 23 || zm! > 59) return undefined;
  return utc - (zone.startsWith("-") ? -1 : 1) * (zh! * 60 + zm!) * 60_000;
}

const DATE_FORMS = "write YYYY-MM-DD or an ISO 8601 date-time such as 2024-09-01T08:30:00Z (UTC unless it names an offset)";

function invalid(where: string, message: string): EngineError {
  return new EngineError("INVALID_VALIDITY", `${where}: ${message}`);
}

/** A raw field value (YAML or JSON) with where it was written (`file:line`). */
export interface RawField {
  value: unknown;
  at: string;
}

/**
 * The validity a document declares, checked on its own (dates, their order, the shape of
 * `supersedes`, self-supersession); undefined when it declares none of the fields. `at` names the
 * document in messages about relations between documents.
 */
export function readValidity(docId: string, fields: Partial<Record<ValidityField, RawField>>, at: string): DeclaredValidity | undefined {
  if (VALIDITY_FIELDS.every((f) => fields[f] === undefined || fields[f]!.value === null)) return undefined;
  const instant = (field: "validFrom" | "validUntil"): { iso: string; ms: number } | undefined => {
    const raw = fields[field];
    if (raw === undefined || raw.value === null) return undefined;
    const ms = typeof raw.value === "string" ? parseInstant(raw.value) : undefined;
    if (ms === undefined) {
      const shown = typeof raw.value === "string" ? JSON.stringify(raw.value) : `a ${Array.isArray(raw.value) ? "list" : typeof raw.value}`;
      throw invalid(raw.at, `${field} ${shown} is not a date: ${DATE_FORMS}`);
    }
    return { iso: new Date(ms).toISOString(), ms };
  };
  const from = instant("validFrom");
  const until = instant("validUntil");
  if (from && until && until.ms <= from.ms) {
    throw invalid(
      fields.validUntil!.at,
      `validUntil ${until.iso} is not after validFrom ${from.iso}; a document must be valid for some time`,
    );
  }
  const supersedes = supersededIds(docId, fields.supersedes);
  return {
    ...(from ? { validFrom: from.iso } : {}),
    ...(until ? { validUntil: until.iso } : {}),
    supersedes,
    at: fields.supersedes?.at ?? at,
  };
}

function supersededIds(docId: string, raw: RawField | undefined): string[] {
  if (raw === undefined || raw.value === null) return [];
  const list = Array.isArray(raw.value) ? raw.value : [raw.value];
  const ids: string[] = [];
  for (const item of list) {
    const id = typeof item === "number" && Number.isFinite(item) ? String(item) : item;
    if (typeof id !== "string" || id.trim() === "") {
      throw invalid(raw.at, `supersedes must be a document id or a list of them, got ${JSON.stringify(item) ?? String(item)}`);
    }
    if (id.trim() === docId) throw invalid(raw.at, `supersedes names the document itself (${JSON.stringify(docId)})`);
    if (!ids.includes(id.trim())) ids.push(id.trim());
  }
  return ids;
}

/**
 * Checks the relations between a collection's documents: every id in `supersedes` names a
 * document of the collection, and no chain of supersessions comes back to where it started.
 * Throws `INVALID_VALIDITY` naming the document, the field and the other document(s).
 */
export function checkSupersessions(documents: ReadonlyArray<{ path: string; validity?: DeclaredValidity | undefined }>): void {
  const byId = new Map(documents.map((d) => [d.path, d]));
  for (const doc of documents) {
    for (const id of doc.validity?.supersedes ?? []) {
      if (!byId.has(id)) {
        throw invalid(
          doc.validity!.at,
          `supersedes ${JSON.stringify(id)}, which is not a document of this collection (ids are paths like en/decisions/dec-0047.md)`,
        );
      }
    }
  }
  // Depth-first search for a cycle: 1 = on the current path, 2 = finished.
  const state = new Map<string, 1 | 2>();
  const path: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 1);
    path.push(id);
    for (const next of byId.get(id)?.validity?.supersedes ?? []) {
      if (state.get(next) === 1) {
        const cycle = [...path.slice(path.indexOf(next)), next];
        throw invalid(
          byId.get(id)!.validity!.at,
          `supersedes forms a cycle: ${cycle.join(" → ")} (a document cannot replace one that replaces it)`,
        );
      }
      if (state.get(next) === undefined) visit(next);
    }
    path.pop();
    state.set(id, 2);
  };
  for (const doc of documents) if (state.get(doc.path) === undefined) visit(doc.path);
}
