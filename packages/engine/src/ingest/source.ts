/**
 * Reads a source — a folder of Markdown/text files, or a BEIR-style JSONL corpus — into
 * documents ready for chunking. Nothing here touches the index, so any failure (missing folder,
 * binary file, invalid UTF-8, malformed JSONL) happens before a single row is written.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { EngineError } from "../errors.js";
import { readCorpusJsonl } from "../formats/jsonl.js";
import { decodeUtf8File } from "../formats/text-file.js";
import { detectLanguage } from "../text/language.js";
import { parseDocument } from "./markdown.js";
import { languageFromPath } from "./language-path.js";

export type LanguageSource = "front-matter" | "folder" | "record" | "detected" | "unknown";

export interface SourceDocument {
  /** Document id: path relative to the folder (forward slashes), or the JSONL record id. */
  path: string;
  title: string;
  language: string | null;
  languageSource: LanguageSource;
  body: string;
  markdown: boolean;
  /** sha256 of the source bytes (files) or of the record's fields (JSONL). */
  contentHash: string;
}

export interface Source {
  kind: "folder" | "jsonl";
  /** The path as given. */
  location: string;
  defaultCollection: string;
  documents: SourceDocument[];
  skippedFiles: string[];
}

const TEXT_FILE = /\.(md|markdown|mdx|txt|text)$/i;

export function readSource(location: string): Source {
  const abs = resolve(location);
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(abs);
  } catch {
    throw new EngineError("INPUT_NOT_FOUND", `${location}: no such folder or file`);
  }
  if (stat.isDirectory()) return readFolder(location, abs);
  if (/\.jsonl$/i.test(abs)) return readJsonl(location, abs);
  throw new EngineError("BAD_ARGUMENT", `${location}: expected a folder of Markdown/text files or a .jsonl corpus`);
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function readFolder(location: string, abs: string): Source {
  const documents: SourceDocument[] = [];
  const skippedFiles: string[] = [];
  for (const file of walk(abs)) {
    const rel = relative(abs, file).split(sep).join("/");
    if (!TEXT_FILE.test(rel)) {
      skippedFiles.push(rel);
      continue;
    }
    const shown = join(location, rel);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      throw new EngineError("UNREADABLE", `${shown}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    const raw = decodeUtf8File(shown, bytes);
    const parsed = parseDocument(rel, raw, shown);
    const fromFolder = languageFromPath(rel);
    const detected = parsed.language || fromFolder ? undefined : detectLanguage(parsed.body);
    const language = parsed.language ?? fromFolder ?? detected ?? null;
    const languageSource: LanguageSource = parsed.language ? "front-matter" : fromFolder ? "folder" : detected ? "detected" : "unknown";
    documents.push({
      path: rel,
      title: parsed.title,
      language,
      languageSource,
      body: parsed.body,
      markdown: parsed.markdown,
      contentHash: sha256(bytes),
    });
  }
  return { kind: "folder", location, defaultCollection: basename(abs), documents, skippedFiles };
}

/** Files under `root`, sorted, skipping hidden entries and node_modules; symlinked folders are not followed. */
function* walk(root: string): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (error) {
    throw new EngineError(
      "UNREADABLE",
      `${root}: cannot list folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const full = join(root, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
    else if (entry.isSymbolicLink()) {
      try {
        if (statSync(full).isFile()) yield full;
      } catch {
        // A dangling link is not a document.
      }
    }
  }
}

function readJsonl(location: string, abs: string): Source {
  const documents = readCorpusJsonl(location).map((record): SourceDocument => {
    const detected = record.language ? undefined : detectLanguage(`${record.title}\n${record.text}`);
    const language = record.language?.toLowerCase() ?? detected ?? null;
    return {
      path: record.id,
      // An id is a key, not text: an empty title stays empty, so `1400` never finds document 1400.
      title: record.title,
      language,
      languageSource: record.language ? "record" : detected ? "detected" : "unknown",
      body: record.text,
      markdown: false,
      contentHash: sha256(JSON.stringify([record.title, record.text, record.language ?? null])),
    };
  });
  return { kind: "jsonl", location, defaultCollection: basename(abs).replace(/\.jsonl$/i, ""), documents, skippedFiles: [] };
}
