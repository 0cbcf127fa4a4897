/**
 * Pins what the engine finds on the benchmark corpus, so speed work can prove it changed nothing:
 * the first 200 benchmark queries (seed 42) against the first documents of the benchmark corpus
 * (≥ 10,000 passages of the same generator, so a prefix of the 100,000-passage one), in four
 * modes — `search`, `vsearch`, `query` balanced and thorough — each result list hashed with its
 * order, document and passage ids, exact scores and snippets. Two index-wide hashes pin what was
 * written: every FTS5 vocabulary row (term, passages, occurrences) and every stored vector's bytes.
 *
 *   pnpm tsx packages/engine/bench/search-pin.ts   rewrites packages/engine/test/fixtures/search-pin.json
 *
 * Regenerate only when a change is MEANT to change results, and say so in the commit;
 * packages/engine/test/search-pin.test.ts compares the current engine against the file.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { Engine } from "../src/index.js";
import type { RankedHit } from "../src/types.js";
import { buildVocabulary, generateQueries, seededRandom, writeCorpus } from "./corpus.js";

export const PIN = { seed: 42, passages: 10_000, queries: 200, limit: 10 } as const;
export const PIN_FILE = resolve(import.meta.dirname, "../test/fixtures/search-pin.json");

export const PINNED_MODES = ["search", "vsearch", "balanced", "thorough"] as const;
export type PinnedMode = (typeof PINNED_MODES)[number];

export interface SearchPin {
  config: typeof PIN;
  index: { documents: number; passages: number; vocabularySha256: string; vectorsSha256: string };
  /** Per query, in order: its text and one 16-hex-digit hash per mode. */
  queries: Array<{ text: string } & Record<PinnedMode, string>>;
}

const sha16 = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** Everything a caller sees of a ranked list, in order; scores as JSON writes them (shortest exact form). */
function hitsHash(hits: readonly RankedHit[]): string {
  return sha16(JSON.stringify(hits.map((h) => [h.docId, h.passageId, h.score, h.heading, h.snippet])));
}

/** Hashes of the index's FTS5 vocabulary and stored vectors (in passage order). */
function indexHashes(file: string): Pick<SearchPin["index"], "vocabularySha256" | "vectorsSha256"> {
  const db = new Database(file, { readonly: true });
  try {
    const vocabulary = createHash("sha256");
    for (const [term, doc, cnt] of db
      .prepare("SELECT term, doc, cnt FROM passages_vocab ORDER BY term")
      .raw()
      .iterate() as IterableIterator<[string, number, number]>) {
      vocabulary.update(`${term}\t${doc}\t${cnt}\n`);
    }
    const vectors = createHash("sha256");
    for (const blob of db
      .prepare("SELECT e.vector FROM passages p JOIN embeddings e ON e.content_hash = p.content_hash ORDER BY p.id")
      .pluck()
      .iterate() as IterableIterator<Buffer>) {
      vectors.update(blob);
    }
    return { vocabularySha256: vocabulary.digest("hex").slice(0, 16), vectorsSha256: vectors.digest("hex").slice(0, 16) };
  } finally {
    db.close();
  }
}

/** Builds the pinned corpus and index in `dir` and computes the pin. */
export async function computeSearchPin(dir: string): Promise<SearchPin> {
  const corpus = await writeCorpus(join(dir, "corpus"), PIN.seed, PIN.passages);
  const file = join(dir, "index.db");
  const engine = Engine.open(file, { create: true });
  try {
    const report = await engine.index(corpus.folder, { collection: "bench" });
    // The same query stream as the bench (engine-bench.ts), so these are its first queries.
    const texts = generateQueries(buildVocabulary(PIN.seed), PIN.queries, seededRandom(PIN.seed ^ 0x51ed270b)).map((q) => q.text);
    const queries: SearchPin["queries"] = [];
    for (const text of texts) {
      const limit = PIN.limit;
      queries.push({
        text,
        search: hitsHash(engine.search(text, { limit }).results),
        vsearch: hitsHash((await engine.vsearch(text, { limit })).results),
        balanced: hitsHash((await engine.query(text, { tier: "balanced", limit })).results),
        thorough: hitsHash((await engine.query(text, { tier: "thorough", limit })).results),
      });
    }
    return {
      config: PIN,
      index: { documents: report.documents.total, passages: report.passages.total, ...indexHashes(file) },
      queries,
    };
  } finally {
    engine.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), "search-pin-"));
  try {
    const pin = await computeSearchPin(dir);
    writeFileSync(PIN_FILE, `${JSON.stringify(pin, null, 2)}\n`);
    process.stderr.write(`search-pin: wrote ${PIN_FILE} (${pin.index.passages} passages, ${pin.queries.length} queries)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    process.stderr.write(`search-pin: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
}
