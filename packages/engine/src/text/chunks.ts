/**
 * Finding the chunks of document text and looking up their memoized analysis without a regex
 * match, a substring or a string hash per chunk: an index run meets every chunk of every passage
 * (about 95 per passage on the bench corpus), almost all of them already analyzed.
 *
 * `ChunkScanner` yields exactly the matches of the analyzer's chunk pattern (`CHUNK_RE` in
 * analyze.ts, built from the same two character classes): runs of letters, digits and marks, joined
 * by runs of one to three connectors, over code points (a surrogate pair is one character). With
 * each chunk it gives an FNV-1a hash of its UTF-16 code units, which `ChunkMemo` uses to find the
 * chunk's entry by comparing it in place in the text.
 */
import { CONNECTORS } from "./script.js";

/** The characters a chunk is made of, as a regex class body: letters, digits, marks. */
export const CHUNK_CHAR_CLASS = "\\p{L}\\p{N}\\p{M}";

const CHUNK_CHAR = new RegExp(`^[${CHUNK_CHAR_CLASS}]$`, "u");
const OTHER = 1;
const WORD = 2;
const CONNECTOR = 3;
/**
 * Class of each UTF-16 code unit, filled on first sight (0: not yet known). A surrogate on its own
 * is OTHER; a chunk character outside the BMP is tested as a pair (`chunkCharWidth`).
 */
const classes = new Uint8Array(0x10000);

function classOfUnit(unit: number): number {
  let kind = classes[unit]!;
  if (kind === 0) {
    const ch = String.fromCharCode(unit);
    kind = CHUNK_CHAR.test(ch) ? WORD : CONNECTORS.includes(ch) ? CONNECTOR : OTHER;
    classes[unit] = kind;
  }
  return kind;
}

for (let unit = 0; unit < 0x80; unit++) classOfUnit(unit);

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;

/** Iterates over the chunks of `text`: `next()` until it returns false. */
export class ChunkScanner {
  private pos = 0;
  /** UTF-16 offsets of the current chunk. */
  start = 0;
  end = 0;
  /** FNV-1a over the current chunk's code units. */
  hash = 0;

  constructor(private readonly text: string) {}

  next(): boolean {
    const text = this.text;
    const length = text.length;
    let i = this.pos;
    // The first chunk character at or after i.
    for (;;) {
      if (i >= length) {
        this.pos = i;
        return false;
      }
      const unit = text.charCodeAt(i);
      if (unit < 0x80) {
        if (classes[unit] === WORD) break;
        i++;
        continue;
      }
      if (this.chunkCharWidth(i) > 0) break;
      i += this.unitWidth(i);
    }
    this.start = i;
    let hash = FNV_OFFSET;
    for (;;) {
      // A run of chunk characters (ASCII inline: most text is).
      for (;;) {
        const unit = text.charCodeAt(i); // NaN past the end
        if (unit < 0x80) {
          if (classes[unit] !== WORD) break;
          hash = Math.imul(hash ^ unit, FNV_PRIME);
          i++;
          continue;
        }
        const width = this.chunkCharWidth(i);
        if (width === 0) break;
        hash = Math.imul(hash ^ unit, FNV_PRIME);
        if (width === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), FNV_PRIME);
        i += width;
      }
      // One to three connectors followed by a chunk character continue the chunk; more do not.
      let j = i;
      while (j < length && j - i < 4 && classOfUnit(text.charCodeAt(j)) === CONNECTOR) j++;
      if (j === i || j - i > 3 || this.chunkCharWidth(j) === 0) break;
      for (let k = i; k < j; k++) hash = Math.imul(hash ^ text.charCodeAt(k), FNV_PRIME);
      i = j;
    }
    this.end = i;
    this.hash = hash;
    this.pos = i;
    return true;
  }

  /** UTF-16 length of the character at `i` if it is a chunk character, else 0. */
  private chunkCharWidth(i: number): number {
    const text = this.text;
    if (i >= text.length) return 0;
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) return classOfUnit(unit) === WORD ? 1 : 0;
    if (unit > 0xdbff || i + 1 >= text.length) return 0; // a lone surrogate is no letter
    const low = text.charCodeAt(i + 1);
    if (low < 0xdc00 || low > 0xdfff) return 0;
    return CHUNK_CHAR.test(text.slice(i, i + 2)) ? 2 : 0;
  }

  /** UTF-16 length of the character at `i` (2 for a surrogate pair). */
  private unitWidth(i: number): number {
    const unit = this.text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff || i + 1 >= this.text.length) return 1;
    const low = this.text.charCodeAt(i + 1);
    return low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
}

/**
 * A memo from chunk to value, looked up by the chunk's place in a text and its hash
 * (open addressing, linear probing). Holds at most `capacity` entries: when full, it starts over
 * empty, as a repeating corpus refills its frequent chunks at once.
 */
export class ChunkMemo<V> {
  private slots = new Int32Array(1024);
  private keys: string[] = [];
  private hashes: number[] = [];
  private values: V[] = [];

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.keys.length;
  }

  /** The value of the chunk `text.slice(start, end)` with `hash` (from `ChunkScanner`), if present. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) return undefined;
      if (this.hashes[entry] !== hash) continue;
      const key = this.keys[entry]!;
      if (key.length !== length) continue;
      let k = 0;
      while (k < length && key.charCodeAt(k) === text.charCodeAt(start + k)) k++;
      if (k === length) return this.values[entry];
    }
  }

  /** Adds `key` (not present) with its `hash`. */
  set(key: string, hash: number, value: V): void {
    if (this.keys.length >= this.capacity) this.clear();
    if (2 * (this.keys.length + 1) > this.slots.length) this.grow();
    this.keys.push(key);
    this.hashes.push(hash);
    this.values.push(value);
    this.place(hash, this.keys.length);
  }

  clear(): void {
    this.slots = new Int32Array(1024);
    this.keys = [];
    this.hashes = [];
    this.values = [];
  }

  private place(hash: number, entryPlusOne: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entryPlusOne;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let entry = 0; entry < this.hashes.length; entry++) this.place(this.hashes[entry]!, entry + 1);
  }
}
