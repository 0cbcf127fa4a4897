/**
 * Citation markers in answer text (`[2]`, `[1, 3]`): which sources an answer cites, and the text
 * without them, so that a marker is never read as a fact (`[10]` does not state "10").
 */

const CITATION_MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** The [n] references of a text, in order of first appearance. */
export function citationRefs(text: string): number[] {
  const refs: number[] = [];
  for (const m of text.matchAll(CITATION_MARKER)) {
    for (const n of m[1]!.split(",")) {
      const ref = Number(n.trim());
      if (!refs.includes(ref)) refs.push(ref);
    }
  }
  return refs;
}

/** The text without its citation markers, each replaced by a space. */
export function stripCitationMarkers(text: string): string {
  return text.replace(CITATION_MARKER, " ");
}
