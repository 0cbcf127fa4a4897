/**
 * Trace entries shaped for Evalite's trace view, which picks a renderer from the value's shape
 * (read in evalite 1.0.0-beta.16's UI bundle):
 *
 * - a string is rendered as Markdown (so a Markdown table shows as a table);
 * - an object with exactly ONE string anywhere inside shows only that string and its path, and
 *   silently drops every other field (a stage input `{ stage, judged, k }` showed only `stage`);
 * - a flat object of at most 8 primitive fields shows as a one-row table; an array of at most 10
 *   flat objects as a table; anything else as a collapsible JSON tree.
 *
 * So: an input is a flat record led by `stage` (a one-row table, the stage in its first column;
 * nested values written inline), with every field as text when only one would be a string; an
 * output is a Markdown table (ranked lists, lists of records) or a short Markdown page. Every
 * number is rounded for display. The engine's trace itself is unchanged (the scorers read it).
 */
import type { TraceStage } from "@hybrid-search/engine";
import { markdownTable, roundForDisplay } from "../scorers/markdown-table.js";
import type { RelevantDocPath } from "../scorers/stage-loss.js";

type Primitive = string | number | boolean | null;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isPrimitive = (v: unknown): v is Primitive => v === null || ["string", "number", "boolean"].includes(typeof v);

/** How deep a value is written inline; deeper levels show as `…` (a tool's output may nest thousands deep). */
const INLINE_DEPTH = 8;

/** A value written on one line: `title 3 · body 1`, `a; b`, numbers rounded; nested deeper than INLINE_DEPTH, `…`. */
export function inline(value: unknown, depth = 0): Primitive {
  if (typeof value === "number") return roundForDisplay(value);
  if (isPrimitive(value)) return value;
  if (depth >= INLINE_DEPTH) return "…";
  if (Array.isArray(value)) return value.map((v) => String(inline(v, depth + 1))).join("; ");
  if (isRecord(value))
    return Object.entries(value)
      .map(([k, v]) => `${k} ${inline(v, depth + 1)}`)
      .join(" · ");
  return String(value);
}

/** A stage input as a flat record, `stage` first; all text when only one field would be a string. */
export function inputView(stage: string, input: Record<string, unknown>, note?: string): Record<string, Primitive> {
  const flat: Record<string, Primitive> = { stage };
  for (const [k, v] of Object.entries(input)) flat[k] = inline(v);
  if (note) flat.note = note;
  const strings = Object.values(flat).filter((v) => typeof v === "string").length;
  if (strings > 1) return flat;
  return Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, String(v)]));
}

const isRankedItem = (v: unknown): v is { docId: string; rank: number; score: number } =>
  isRecord(v) && typeof v.docId === "string" && typeof v.rank === "number";

/**
 * A list of records as a table: one line per record, the union of their fields as columns (none
 * dropped), ranked lists led by rank and document, nested values written inline.
 */
function recordTable(items: ReadonlyArray<Record<string, unknown>>): string {
  const keys = [...new Set(items.flatMap((i) => Object.keys(i)))];
  const lead = items.every(isRankedItem) ? ["rank", "docId"] : [];
  const columns = [...lead, ...keys.filter((k) => !lead.includes(k))];
  // A passage id repeats its document's path: `en/a.md#3` shows as `#3` beside `en/a.md`.
  const cell = (i: Record<string, unknown>, k: string) =>
    k === "passageId" && typeof i.passageId === "string" && i.passageId.startsWith(`${i.docId}#`)
      ? i.passageId.slice(String(i.docId).length)
      : inline(i[k]);
  return markdownTable(
    columns.map((k) => ({ docId: "document", passageId: "passage" })[k] ?? k),
    items.map((i) => columns.map((k) => (k in i ? cell(i, k) : null))),
  );
}

/** A stage output: ranked lists and lists of records as tables, an object as a short Markdown page. */
export function outputView(output: unknown): unknown {
  if (typeof output === "number") return roundForDisplay(output);
  if (isPrimitive(output)) return output;
  if (Array.isArray(output)) {
    if (output.length === 0) return "(empty)";
    if (output.every(isRecord)) return recordTable(output);
    return output.map((v) => `- ${inline(v)}`).join("\n");
  }
  if (isRecord(output)) {
    const parts = Object.entries(output).map(([k, v]) => {
      if (Array.isArray(v) && v.length > 0 && v.every(isRecord)) return `**${k}**\n\n${outputView(v)}`;
      if (Array.isArray(v) && v.length > 0) return `**${k}**\n\n${v.map((x) => `- ${inline(x)}`).join("\n")}`;
      return `**${k}**: ${Array.isArray(v) ? "(none)" : inline(v)}`;
    });
    return parts.join("\n\n");
  }
  return String(output);
}

/** One engine stage as Evalite shows it. */
export function stageView(stage: TraceStage): { input: Record<string, Primitive>; output: unknown } {
  return { input: inputView(stage.stage, stage.input, stage.note), output: outputView(stage.output) };
}

/**
 * The "relevant documents" entry: one line per document with its grade, its rank at each stage
 * (— when absent), its final rank, and where and why it was lost.
 */
export function relevantDocumentsTable(paths: readonly RelevantDocPath[]): string {
  if (paths.length === 0) return "(no relevant documents)";
  const lists = [...new Set(paths.flatMap((p) => Object.keys(p.ranks)))];
  return markdownTable(
    ["document", "grade", ...lists, "final", "lost at"],
    paths.map((p) => [
      p.docId,
      p.grade,
      ...lists.map((l) => p.ranks[l] ?? null),
      p.final,
      p.lostAt === null ? "found" : `${p.lostAt}: ${p.why}`,
    ]),
  );
}
