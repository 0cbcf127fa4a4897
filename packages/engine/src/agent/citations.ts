/**
 * An agent's citations: the answer cites a document with a marker after the claim,
 * `[doc: en/billing/refunds.md]`, or quotes its words, `[doc: en/billing/refunds.md | "within 14 days"]`.
 * Each citation is **surfaced** when a tool's output in the turn returned that document — an
 * object in the output whose `docId` is the cited id (a search result, a read document, a catalog
 * entry) — and, with a quote, when the quoted words occur in a text of that same object (compared
 * in NFKC, lower case, with Markdown emphasis and runs of white space folded). `match` names the
 * first such call. A citation nothing surfaced is **recalled**: the model wrote an id it never saw
 * in this turn.
 */
import type { TurnCitation, TurnStep } from "../types.js";

/** `[doc: <id>]` or `[doc: <id> | "<quoted words>"]`. */
const MARKER = /\[doc:\s*([^\]|"]+?)\s*(?:\|\s*"([^"\]]*)"\s*)?\]/g;

/** The marker that cites `docId` (quoting `quote` when given). */
export function docMarker(docId: string, quote?: string): string {
  return quote === undefined ? `[doc: ${docId}]` : `[doc: ${docId} | "${quote.replace(/"/g, "'")}"]`;
}

/** The citations an answer makes, in order of first appearance; a repeated (id, quote) counts once. */
export function citedDocuments(answer: string): Array<{ docId: string; quote?: string }> {
  const seen = new Set<string>();
  const cited: Array<{ docId: string; quote?: string }> = [];
  for (const m of answer.matchAll(MARKER)) {
    const docId = m[1]!.trim();
    const quote = m[2]?.trim();
    const key = `${docId}\u0000${quote ?? ""}`;
    if (docId === "" || seen.has(key)) continue;
    seen.add(key);
    cited.push(quote ? { docId, quote } : { docId });
  }
  return cited;
}

/** How quoted words and a tool's text are compared. */
export function quoteForm(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[*_`]/g, "").replace(/\s+/g, " ").trim();
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every string inside a value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isRecord(value)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Whether `output` holds an object for `docId` (whose texts hold `quote`, when given). */
export function surfaces(output: unknown, docId: string, quote?: string): boolean {
  if (Array.isArray(output)) return output.some((v) => surfaces(v, docId, quote));
  if (!isRecord(output)) return false;
  if (output.docId === docId) {
    if (quote === undefined) return true;
    const wanted = quoteForm(quote);
    if (wanted !== "" && strings(output).some((s) => quoteForm(s).includes(wanted))) return true;
  }
  return Object.values(output).some((v) => surfaces(v, docId, quote));
}

/** The answer's citations, each matched to the first call whose output surfaced it. */
export function matchCitations(answer: string, steps: readonly TurnStep[]): TurnCitation[] {
  return citedDocuments(answer).map(({ docId, quote }) => {
    for (const step of steps) {
      for (const [i, call] of step.toolCalls.entries()) {
        if (call.status === "done" && surfaces(call.output, docId, quote))
          return { docId, ...(quote ? { quote } : {}), surfaced: true, match: { step: step.index, call: i + 1 } };
      }
    }
    return { docId, ...(quote ? { quote } : {}), surfaced: false };
  });
}
