/**
 * What an index run computes per passage before it writes: the FTS5 columns' terms (title, body,
 * path) and the offline embedder's vectors. Pure functions of their input (the analysis memo and
 * the stemmer cache only remember results), so a run computes them on its own thread or on a
 * worker thread (store/prepare-thread.ts) and writes the same index either way.
 *
 * Nothing here may import SQLite or a model provider: the worker thread loads this module.
 */
import { HashedNgramEmbedder } from "../embed/hashed-ngram.js";
import { baseLanguage } from "../ingest/language-path.js";
import { type AnalyzerConfig, indexTerms } from "../text/analyze.js";
import type { EmbeddingModel } from "../types.js";

/** The text a passage is embedded and matched as: its heading trail, then its text. */
export function passageBody(heading: string, text: string): string {
  return heading === "" ? text : `${heading}\n${text}`;
}

/**
 * Terms for the `path` column: a folder document's path without its extension (so `md` does not
 * match everything); nothing for a JSONL record, whose id is a key, not text (`p 05` matched every
 * `*-p05` id, `1400` document 1400).
 */
export function pathTerms(path: string, language: string | null, analyzer: AnalyzerConfig, searchable = true): string {
  if (!searchable) return "";
  return indexTerms(path.replace(/\.(md|markdown|mdx|txt|text)$/i, ""), language ? baseLanguage(language) : undefined, analyzer);
}

/** One document's text to analyze: its title, path and the body of each passage to write. */
export interface TermsJob {
  title: string;
  path: string;
  /** The document's language tag (`de`, `zh-hant`), or null. */
  language: string | null;
  /** Whether the path is searchable (a folder document's), else its column is empty. */
  searchablePath: boolean;
  /** `passageBody` of each passage, in order. */
  bodies: string[];
}

/** The FTS5 columns of a document's passages: `title` and `path` are shared by all of them. */
export interface DocumentTerms {
  title: string;
  path: string;
  bodies: string[];
}

export function documentTerms(job: TermsJob, analyzer: AnalyzerConfig): DocumentTerms {
  const language = job.language ? baseLanguage(job.language) : undefined;
  return {
    title: indexTerms(job.title, language, analyzer),
    path: pathTerms(job.path, job.language, analyzer, job.searchablePath),
    bodies: job.bodies.map((body) => indexTerms(body, language, analyzer)),
  };
}

/**
 * The dimensions of `model` when it is the offline embedder itself (not a subclass or a wrapper,
 * which may compute other vectors): then a worker thread can build the same embedder and compute
 * the same vectors. Undefined for any other model.
 */
export function offlineEmbedderDimensions(model: EmbeddingModel): number | undefined {
  return Object.getPrototypeOf(model) === HashedNgramEmbedder.prototype ? (model as HashedNgramEmbedder).dimensions : undefined;
}

/** The vectors of `texts` one after another in one array (`texts.length × dimensions` floats). */
export function embedPacked(embedder: HashedNgramEmbedder, texts: readonly string[]): Float32Array {
  const dims = embedder.dimensions;
  const out = new Float32Array(texts.length * dims);
  for (let i = 0; i < texts.length; i++) out.set(embedder.embedOne(texts[i]!), i * dims);
  return out;
}
