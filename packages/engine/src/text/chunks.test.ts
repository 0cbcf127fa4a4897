import { describe, expect, it } from "vitest";
import { CHUNK_RE, joinTerms } from "./analyze.js";
import { ChunkMemo, ChunkScanner } from "./chunks.js";

/** Every chunk the scanner yields, as [start, text]. */
function scanned(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const scanner = new ChunkScanner(text);
  while (scanner.next()) out.push([scanner.start, text.slice(scanner.start, scanner.end)]);
  return out;
}

const matched = (text: string): Array<[number, string]> => [...text.matchAll(CHUNK_RE)].map((m) => [m.index, m[0]]);

/** A small seeded generator (LCG): the same strings on every run. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

// Letters, digits and marks of several scripts and planes, every connector, runs of connectors
// around the 3-connector limit, surrogate pairs (letters and not), lone surrogates, spaces.
const PIECES = [
  "a",
  "Z",
  "é",
  "ß",
  "0",
  "7",
  "Ⅻ",
  "²",
  "ǅ",
  "ﬁ",
  "Σ",
  " ",
  "\n",
  ":",
  "'",
  "😀",
  "𝐀",
  "𠀀",
  "\ud800",
  "\udc00",
  "\u0301",
  "東",
  "カ",
  "ﾀ",
  "ﾞ",
  "한",
  "ー",
  "-",
  "--",
  "---",
  "----",
  "‐",
  "‑",
  "_",
  ".",
  "/",
  "\\",
  "@",
  "+",
  "－",
  "＿",
  "．",
  "／",
  "＠",
];

describe("ChunkScanner finds exactly the chunks of CHUNK_RE", () => {
  it.each([
    [
      "real-time sync",
      [
        [0, "real-time"],
        [10, "sync"],
      ],
    ],
    [
      "a---b a----b",
      [
        [0, "a---b"],
        [6, "a"],
        [11, "b"],
      ],
    ],
    [
      "end-. next",
      [
        [0, "end"],
        [6, "next"],
      ],
    ],
    [
      "𝐀𝐁-x 😀y",
      [
        [0, "𝐀𝐁-x"],
        [9, "y"],
      ],
    ],
  ])("%j", (text, expected) => {
    expect(scanned(text)).toEqual(expected);
    expect(matched(text)).toEqual(expected);
  });

  it("on 20,000 random strings of letters, marks, connectors and surrogates", () => {
    const random = lcg(42);
    const differing: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      let text = "";
      const length = 1 + Math.floor(random() * 24);
      for (let j = 0; j < length; j++) text += PIECES[Math.floor(random() * PIECES.length)];
      if (JSON.stringify(scanned(text)) !== JSON.stringify(matched(text))) differing.push(JSON.stringify(text));
    }
    expect(differing.slice(0, 5)).toEqual([]);
  });
});

describe("ChunkMemo", () => {
  const chunkAt = (text: string, start: number): { start: number; end: number; hash: number } => {
    const scanner = new ChunkScanner(text);
    while (scanner.next()) if (scanner.start === start) return { start: scanner.start, end: scanner.end, hash: scanner.hash };
    throw new Error(`no chunk at ${start}`);
  };

  it("finds a chunk by its place in another text, and tells equal hashes apart by the text", () => {
    const memo = new ChunkMemo<number>(10);
    const a = chunkAt("kalbe", 0);
    memo.set("kalbe", a.hash, 1);
    const b = chunkAt("the kalbe", 4);
    expect(b.hash).toBe(a.hash);
    expect(memo.get("the kalbe", b.start, b.end, b.hash)).toBe(1);
    // Same hash, other text (a forced collision): not found, then stored apart.
    expect(memo.get("the kalbs", 4, 9, a.hash)).toBeUndefined();
    memo.set("kalbs", a.hash, 2);
    expect(memo.get("kalbs", 0, 5, a.hash)).toBe(2);
    expect(memo.get("kalbe", 0, 5, a.hash)).toBe(1);
    // Same hash and prefix, other length.
    expect(memo.get("kalbex", 0, 6, a.hash)).toBeUndefined();
  });

  it("keeps every entry while it grows, and starts over empty when full", () => {
    const memo = new ChunkMemo<number>(5_000);
    const words = Array.from({ length: 5_000 }, (_, i) => `w${i}`);
    for (const [i, w] of words.entries()) memo.set(w, chunkAt(w, 0).hash, i);
    expect(memo.size).toBe(5_000);
    expect(words.every((w, i) => memo.get(w, 0, w.length, chunkAt(w, 0).hash) === i)).toBe(true);
    memo.set("one-more", chunkAt("one-more", 0).hash, -1);
    expect(memo.size).toBe(1);
    expect(memo.get("w1", 0, 2, chunkAt("w1", 0).hash)).toBeUndefined();
    expect(memo.get("one-more", 0, 8, chunkAt("one-more", 0).hash)).toBe(-1);
  });
});

describe("joinTerms writes terms as the FTS5 rows always had them", () => {
  it.each([
    [["a", "b"], "a b"],
    [["", "", "a", "b"], "a b"],
    [["a", "", "b"], "a  b"],
    [["a", ""], "a "],
    [["", ""], ""],
    [[], ""],
  ])("%j → %j", (terms, expected) => {
    expect(joinTerms(terms)).toBe(expected);
  });
});
