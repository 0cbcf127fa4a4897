/**
 * Which of many facts occur in any of many texts, in one pass over the texts: the Aho–Corasick
 * automaton over the facts (a trie with failure links), so the lint's "this expected fact is in some
 * document" check costs the corpus's length plus the facts' once, however many facts and documents
 * there are — not one scan of the corpus per fact. A fact matches as a substring of one text (never
 * across two); facts and texts are compared as given (the caller normalizes both alike).
 *
 * The trie is kept in typed arrays (first child, next sibling, the code unit, failure link, the fact
 * ending there), about 20 bytes a node, so the facts of 100,000 questions fit in a few megabytes.
 */

/** The facts of `facts` that occur in some text `texts` yields. */
export function factsFound(facts: readonly string[], texts: Iterable<string>): Set<string> {
  const patterns = [...new Set(facts.filter((f) => f !== ""))];
  const found = new Set<string>();
  if (patterns.length === 0) return found;
  const capacity = patterns.reduce((n, p) => n + p.length, 1);
  const firstChild = new Int32Array(capacity).fill(-1);
  const nextSibling = new Int32Array(capacity).fill(-1);
  const unit = new Uint16Array(capacity);
  const fail = new Int32Array(capacity);
  const ends = new Int32Array(capacity).fill(-1);
  /** The nearest node on the failure chain where a fact ends (-1: none). */
  const output = new Int32Array(capacity).fill(-1);
  const reported = new Uint8Array(capacity);
  const rootChildren = new Map<number, number>();
  let nodes = 1;

  const child = (node: number, code: number): number => {
    if (node === 0) return rootChildren.get(code) ?? -1;
    for (let c = firstChild[node]!; c >= 0; c = nextSibling[c]!) if (unit[c] === code) return c;
    return -1;
  };
  patterns.forEach((pattern, index) => {
    let node = 0;
    for (let i = 0; i < pattern.length; i++) {
      const code = pattern.charCodeAt(i);
      let next = child(node, code);
      if (next < 0) {
        next = nodes++;
        unit[next] = code;
        if (node === 0) rootChildren.set(code, next);
        else {
          nextSibling[next] = firstChild[node]!;
          firstChild[node] = next;
        }
      }
      node = next;
    }
    ends[node] = index;
  });

  // Failure links, breadth first: a node's is the longest proper suffix of its path that is in the trie.
  const queue = new Int32Array(nodes);
  let head = 0;
  let tail = 0;
  for (const c of rootChildren.values()) {
    fail[c] = 0;
    queue[tail++] = c;
  }
  const step = (from: number, code: number): number => {
    let node = from;
    for (;;) {
      const next = child(node, code);
      if (next >= 0) return next;
      if (node === 0) return 0;
      node = fail[node]!;
    }
  };
  while (head < tail) {
    const node = queue[head++]!;
    const f = fail[node]!;
    output[node] = ends[f]! >= 0 ? f : output[f]!;
    for (let c = firstChild[node]!; c >= 0; c = nextSibling[c]!) {
      fail[c] = step(f, unit[c]!);
      queue[tail++] = c;
    }
  }

  for (const text of texts) {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      node = step(node, text.charCodeAt(i));
      // Every fact ending here: this node's, then its failure chain's; a node reported once has had its chain reported too.
      for (let n = ends[node]! >= 0 ? node : output[node]!; n > 0 && reported[n] === 0; n = output[n]!) {
        reported[n] = 1;
        found.add(patterns[ends[n]!]!);
      }
    }
    if (found.size === patterns.length) break;
  }
  return found;
}
