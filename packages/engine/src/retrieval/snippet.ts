/**
 * Snippets: the window of a passage (about `width` characters) that holds the most distinct query
 * terms, cut at word boundaries, with "…" where text was cut.
 */
import { analyzeDocumentText } from "../text/analyze.js";
import type { AnalyzerConfig } from "../text/analyze.js";

export function makeSnippet(
  text: string,
  queryTokens: ReadonlySet<string>,
  language: string | undefined,
  analyzer: AnalyzerConfig,
  width = 240,
): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= width) return flat;
  const hits = analyzeDocumentText(flat, language, analyzer).tokens.filter((t) => queryTokens.has(t.term));
  let bestStart = 0;
  let bestCount = 0;
  for (let i = 0; i < hits.length; i++) {
    const distinct = new Set<string>();
    for (let j = i; j < hits.length && hits[j]!.end - hits[i]!.start <= width; j++) distinct.add(hits[j]!.term);
    if (distinct.size > bestCount) {
      bestCount = distinct.size;
      bestStart = hits[i]!.start;
    }
  }
  // Lead in a little before the first hit, at a word boundary.
  let start = Math.max(0, bestStart - 40);
  if (start > 0) {
    const space = flat.indexOf(" ", start);
    start = space >= 0 && space < bestStart ? space + 1 : start;
  }
  let end = Math.min(flat.length, start + width);
  if (end < flat.length) {
    const space = flat.lastIndexOf(" ", end);
    if (space > start + width / 2) end = space;
  }
  return `${start > 0 ? "…" : ""}${flat.slice(start, end).trim()}${end < flat.length ? "…" : ""}`;
}
