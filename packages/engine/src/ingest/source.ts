/**
 * Reads a source — a folder of Markdown/text files, or a BEIR-style JSONL corpus — into
 * documents ready for chunking. Nothing here touches the index, so any failure (missing folder,
 * binary file, invalid UTF-8, malformed JSONL) happens before a single row is written.
 */
import { createHash } from "node:crypto";
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { basename, join, resolve, sep } from "node:path";
import { EngineError } from "../errors.js";
import type { SkippedFile, SkipReason } from "../types.js";
import { readCorpusJsonl } from "../formats/jsonl.js";
import { decodeUtf8File, firstInvalidUtf8Offset, readTextFileBytes } from "../formats/text-file.js";
import { detectLanguage } from "../text/language.js";
import { languageTagProblem, shownValue } from "./input-rules.js";
import { parseDocument } from "./markdown.js";
import { languageFromPath } from "./language-path.js";
import { checkSupersessions, type DeclaredValidity } from "./validity.js";

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
  /** `validFrom`, `validUntil`, `supersedes`, when the document declares any (ingest/validity.ts). */
  validity?: DeclaredValidity;
}

/** Each reason a folder entry is skipped, in words (the CLI prints them). */
export const SKIP_REASONS: Record<SkipReason, string> = {
  "not-text": "not Markdown or text",
  "name-not-utf8": "name is not valid UTF-8",
  "link-outside": "symbolic link to outside the folder (not followed)",
  "link-to-folder": "symbolic link to a folder (not followed)",
  "link-dangling": "dangling symbolic link",
  "link-loop": "symbolic link loop",
  "not-a-file": "not a regular file (a FIFO, socket or device)",
};

export interface Source {
  kind: "folder" | "jsonl";
  /** The path as given. */
  location: string;
  defaultCollection: string;
  documents: SourceDocument[];
  skippedFiles: SkippedFile[];
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
  const source = stat.isDirectory() ? readFolder(location, abs) : /\.jsonl$/i.test(abs) ? readJsonl(location, abs) : undefined;
  if (source === undefined) {
    throw new EngineError("BAD_ARGUMENT", `${location}: expected a folder of Markdown/text files or a .jsonl corpus`);
  }
  // Relations between documents (unknown ids, cycles) are input errors too: nothing is written.
  checkSupersessions(source.documents);
  return source;
}

function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

function readFolder(location: string, abs: string): Source {
  const documents: SourceDocument[] = [];
  const skippedFiles: SkippedFile[] = [];
  for (const entry of walk(abs, realpathSync(abs), "")) {
    if ("reason" in entry) {
      skippedFiles.push(entry);
      continue;
    }
    const { rel, file } = entry;
    if (!TEXT_FILE.test(rel)) {
      skippedFiles.push({ path: rel, reason: "not-text" });
      continue;
    }
    const shown = join(location, rel);
    let bytes: Buffer;
    try {
      bytes = readTextFileBytes(file, shown);
    } catch (error) {
      if (error instanceof EngineError) throw error;
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
      ...(parsed.validity ? { validity: parsed.validity } : {}),
    });
  }
  return { kind: "folder", location, defaultCollection: basename(abs), documents, skippedFiles };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The entries under `dir` (`rel` below the folder), sorted by name: files to read, and what is
 * skipped with the reason. Hidden entries and node_modules are left out silently. Only regular
 * files are read: a symbolic link is followed only to a file inside the folder (`root`, resolved),
 * never to a folder; a FIFO would block the read. A name that is not UTF-8 cannot become a
 * document id (and node's UTF-8 names would point at a file that does not exist), so it is listed.
 */
function* walk(dir: string, root: string, rel: string): Generator<{ rel: string; file: string } | SkippedFile> {
  let entries: Dirent<Buffer>[];
  try {
    entries = readdirSync(dir, { withFileTypes: true, encoding: "buffer" });
  } catch (error) {
    throw new EngineError(
      "UNREADABLE",
      `${dir}: cannot list folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (const entry of entries) {
    let name: string;
    try {
      name = utf8.decode(entry.name);
    } catch {
      yield { path: `${rel}${escapeInvalidUtf8(entry.name)}`, reason: "name-not-utf8" };
      continue;
    }
    if (name.startsWith(".") || name === "node_modules") continue;
    const full = join(dir, name);
    const path = `${rel}${name}`;
    if (entry.isDirectory()) yield* walk(full, root, `${path}/`);
    else if (entry.isFile()) yield { rel: path, file: full };
    else if (entry.isSymbolicLink()) yield linkEntry(full, path, root);
    else yield { path, reason: "not-a-file" };
  }
}

/** A symbolic link: a file to read when it resolves to a regular file inside `root`, else why not. */
function linkEntry(full: string, path: string, root: string): { rel: string; file: string } | SkippedFile {
  let target: string;
  try {
    target = realpathSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { path, reason: "link-dangling" };
    if (code === "ELOOP") return { path, reason: "link-loop" };
    throw new EngineError("UNREADABLE", `${full}: cannot follow the symbolic link (${code ?? (error as Error).message})`);
  }
  if (!target.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return { path, reason: "link-outside" };
  const stat = statSync(target);
  if (stat.isDirectory()) return { path, reason: "link-to-folder" };
  return stat.isFile() ? { rel: path, file: full } : { path, reason: "not-a-file" };
}

/** A file name's bytes as text: valid UTF-8 as is, every other byte as `\xNN`. */
export function escapeInvalidUtf8(bytes: Uint8Array): string {
  let out = "";
  let at = 0;
  while (at < bytes.length) {
    const bad = at + firstInvalidUtf8Offset(bytes.subarray(at));
    out += utf8.decode(bytes.subarray(at, bad));
    if (bad < bytes.length) out += `\\x${bytes[bad]!.toString(16).toUpperCase().padStart(2, "0")}`;
    at = bad + 1;
  }
  return out;
}

function readJsonl(location: string, abs: string): Source {
  const documents = readCorpusJsonl(location).map((record): SourceDocument => {
    const languageProblem = record.language ? languageTagProblem(record.language) : null;
    if (languageProblem !== null)
      throw new EngineError("MALFORMED_RECORD", `${location}: record ${shownValue(record.id)}: "language" ${languageProblem}`);
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
      // Validity joins the hash only when declared: records without it keep the hash they had.
      contentHash: sha256(
        JSON.stringify([record.title, record.text, record.language ?? null, ...(record.validity ? [record.validity] : [])]),
      ),
      ...(record.validity ? { validity: record.validity } : {}),
    };
  });
  return { kind: "jsonl", location, defaultCollection: basename(abs).replace(/\.jsonl$/i, ""), documents, skippedFiles: [] };
}
