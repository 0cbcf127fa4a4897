/**
 * Tables and numbers for people: a GitHub-flavoured Markdown table that Evalite's UI renders as a
 * table (it renders string values as Markdown) and that reads as an aligned table in a terminal,
 * and the rounding every displayed number goes through (0.30000000000000004 shows as 0.3).
 */

export type Cell = string | number | boolean | null | undefined;

/** A number as shown: integers as they are, others to 4 significant digits (whole above 1000). */
export function roundForDisplay(x: number): number {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  return Math.abs(x) >= 1000 ? Math.round(x) : Number(x.toPrecision(4));
}

function cellText(c: Cell): string {
  if (c === null || c === undefined) return "—";
  const text = typeof c === "number" ? String(roundForDisplay(c)) : String(c);
  // A pipe would end the cell and a newline the row.
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/** `| a | b |` rows with a `| --- |` separator, each column padded to its widest cell. */
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>): string {
  const text = [headers.map(cellText), ...rows.map((r) => headers.map((_, i) => cellText(r[i])))];
  const widths = headers.map((_, i) => Math.max(3, ...text.map((r) => [...r[i]!].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c + " ".repeat(widths[i]! - [...c].length)).join(" | ")} |`;
  return [line(text[0]!), line(widths.map((w) => "-".repeat(w))), ...text.slice(1).map(line)].join("\n");
}
