/** Citations written as [n], [n, m] or [n][m] in an answer, in order of first appearance. */
export function citedRefs(answer: string): number[] {
  const refs: number[] = [];
  for (const m of answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of m[1]!.split(",")) {
      const ref = Number(n.trim());
      if (!refs.includes(ref)) refs.push(ref);
    }
  }
  return refs;
}

/** The exact sentence an answer uses to refuse (the prompt asks for it verbatim). */
export const REFUSAL = "The documents do not contain an answer to this question.";

export function isRefusal(answer: string): boolean {
  return answer.trim().toLowerCase().replace(/\s+/g, " ").startsWith("the documents do not contain");
}
