/**
 * A dataset's documents, read by the data layer itself — never through the engine it measures — as
 * the target contract's `Document` (`@hybrid-search/target-contract/types`): what `PUT /documents`
 * seeds a target with, what the lint checks facts against, and where a document's language comes
 * from for the cross-language evals.
 *
 * - **A folder of files** (the fixture format's `corpus/`, a bundle): every `.md`, `.markdown`,
 *   `.mdx`, `.txt` and `.text` file below it, by name order; hidden entries and `node_modules` are
 *   left out, a symbolic link is followed only to a file inside the folder. A document's id is its
 *   path below the folder (forward slashes). A Markdown file may open with YAML front matter
 *   (`---` … `---`): `title`, `lang`/`language`, `validFrom`, `validUntil`, `supersedes` (keys of
 *   any case; others ignored). Its title is the front matter's, else its first heading, else the
 *   file's name; its language the front matter's, else a folder of its path named by a language
 *   tag (`en/`, `de/`, `zh-hans/`: the first from the top), else not declared.
 * - **A JSONL corpus** (BEIR's `corpus.jsonl`): one record a line, `{"_id" | "id", "text",
 *   "title"?, "language" | "lang"?, "validFrom"?, "validUntil"?, "supersedes"?}`; other fields
 *   (BEIR's `metadata`) are not read.
 *
 * A language the dataset does not declare is left undeclared in the documents (a seeded target
 * tells it itself) and, where the suite groups documents by language (`documentLanguages`), told
 * by an independent language identifier (language.ts), never by the engine's guess.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { Document, DocumentIds } from "@hybrid-search/target-contract/types";
import { isMap, isNode, isScalar, parseDocument as parseYaml } from "yaml";
import { displayPath } from "../fixture-files/paths.js";
import { type CorpusSource, DatasetError } from "./model.js";
import { decodeText, textProblem } from "../input-files/text.js";

const TEXT_FILE = /\.(md|markdown|mdx|txt|text)$/i;

/**
 * The largest document the suite takes (16 MiB of UTF-8): a document is indexed, chunked, seeded and
 * language-identified whole, and one of 50 MB cost half a minute of every run in every format. A
 * larger one is split into several documents (a chapter, a section each).
 */
export const MAX_DOCUMENT_BYTES = 16 * 2 ** 20;

/** Why a document of `bytes` bytes is refused (one line), or null when it is within the limit. */
export function documentSizeProblem(bytes: number): string | null {
  if (bytes <= MAX_DOCUMENT_BYTES) return null;
  return `[too-large] the document is ${(bytes / 2 ** 20).toFixed(1)} MiB; a document is at most ${MAX_DOCUMENT_BYTES / 2 ** 20} MiB of text (split it into several documents)`;
}

/** Refuses, naming `where`, a document of data whose text is over the limit. */
export function checkDocumentSize(where: string, text: string): void {
  // Characters first: a text of fewer UTF-16 units than a quarter of the limit cannot be over it.
  if (text.length * 3 <= MAX_DOCUMENT_BYTES) return;
  const problem = documentSizeProblem(Buffer.byteLength(text, "utf8"));
  if (problem) throw new DatasetError(`${where}: ${problem}`);
}
const MARKDOWN_FILE = /\.(md|markdown|mdx)$/i;
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;

/** A problem with a document file or record: one line naming it (exit 2). */
function problem(where: string, what: string): never {
  throw new DatasetError(`${where}: ${what}`);
}

/** A file's text, UTF-8 checked; `shown` names it in errors. */
export function readTextFile(file: string, shown: string = displayPath(file)): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return problem(shown, `cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const bad = textProblem(bytes);
  if (bad !== null) problem(shown, bad);
  return decodeText(bytes);
}

const displayNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/**
 * A folder's name as a language tag (`en`, `zh-hans`, `pt-br`), or undefined: a tag of a primary
 * language (two letters) that the Unicode CLDR knows, with an optional script or region.
 */
export function languageOfFolder(folder: string): string | undefined {
  const m = /^([a-z]{2})(?:[-_]([a-z]{2}|[a-z]{4}))?$/i.exec(folder);
  if (!m) return undefined;
  try {
    if (displayNames.of(m[1]!.toLowerCase()) === undefined) return undefined;
  } catch {
    return undefined;
  }
  return folder.toLowerCase().replace("_", "-");
}

/** The first folder of `id`'s path named by a language tag, from the top. */
export function languageOfPath(id: string): string | undefined {
  for (const folder of id.split("/").slice(0, -1)) {
    const language = languageOfFolder(folder);
    if (language) return language;
  }
  return undefined;
}

/** A front matter's text value: strings, numbers and booleans as written; absent, null or empty as undefined. */
function metaText(meta: Map<string, unknown>, key: string, where: string): string | undefined {
  const value = meta.get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return problem(where, `front matter "${key}" must be text, got ${Array.isArray(value) ? "a list" : "a mapping"}`);
}

/** One file's document: front matter, title, language, body; `id` is its path below the folder. */
export function parseDocumentFile(id: string, raw: string, where: string): Document {
  const markdown = MARKDOWN_FILE.test(id);
  let body = raw.replace(/\r\n?/g, "\n");
  const meta = new Map<string, unknown>();
  if (markdown && body.startsWith("---\n")) {
    const rest = body.slice(4);
    const close = CLOSE.exec(rest);
    if (!close) problem(where, "front matter opened by --- is never closed (expected a line --- or ... after it)");
    const yaml = parseYaml(rest.slice(0, close.index), { prettyErrors: false });
    if (yaml.errors[0]) problem(where, `front matter is not valid YAML: ${yaml.errors[0].message.split("\n")[0]}`);
    if (yaml.contents !== null) {
      if (!isMap(yaml.contents)) problem(where, "front matter must be a mapping of keys to values (key: value)");
      for (const pair of yaml.contents.items)
        if (isScalar(pair.key) && typeof pair.key.value === "string")
          meta.set(pair.key.value.toLowerCase(), isNode(pair.value) ? pair.value.toJS(yaml) : pair.value);
    }
    const end = close.index + close[0].length;
    body = rest.slice(rest[end] === "\n" ? end + 1 : end);
  }
  const title = metaText(meta, "title", where) ?? (markdown ? firstHeading(body) : undefined) ?? fileStem(id);
  const language = (metaText(meta, "lang", where) ?? metaText(meta, "language", where))?.toLowerCase() ?? languageOfPath(id);
  const validFrom = metaText(meta, "validfrom", where);
  const validUntil = metaText(meta, "validuntil", where);
  const supersedes = idList(meta.get("supersedes"), where, 'front matter "supersedes"');
  return {
    id,
    title,
    text: body,
    ...(language ? { language } : {}),
    format: markdown ? "markdown" : "text",
    ...(validFrom ? { validFrom } : {}),
    ...(validUntil ? { validUntil } : {}),
    ...(supersedes.length > 0 ? { supersedes } : {}),
  };
}

/** A `supersedes` value: a document id, or a list of them (absent: none). */
function idList(value: unknown, where: string, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string" && value.trim() !== "") return [value.trim()];
  if (Array.isArray(value) && value.every((id) => typeof id === "string" && id.trim() !== "")) return value.map((id: string) => id.trim());
  return problem(where, `${field} must be a document id or a list of them`);
}

function firstHeading(body: string): string | undefined {
  let inFence = false;
  for (const line of body.split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = HEADING.exec(line)?.[1]?.trim();
    if (heading) return stripInline(heading);
  }
  return undefined;
}

/** The most common inline Markdown removed, so a title reads as text. */
function stripInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/`([^`]*)`/g, "$1")
    .trim();
}

const fileStem = (id: string): string => (id.split("/").pop() ?? id).replace(/\.[^.]+$/, "");

/** The text files below `folder`, by path (`exclude`: ids to leave out, such as a bundle's own `eval/`). */
export function readFolderDocuments(folder: string, exclude: (id: string) => boolean = () => false): Document[] {
  const root = resolve(folder);
  let real: string;
  try {
    real = realpathSync(root);
    if (!statSync(real).isDirectory()) problem(displayPath(folder), "not a folder");
  } catch (error) {
    if (error instanceof DatasetError) throw error;
    return problem(displayPath(folder), "no such folder");
  }
  const documents: Document[] = [];
  const walk = (dir: string, prefix: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(dir, entry.name);
      const id = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(full, `${id}/`);
      else if ((entry.isFile() || (entry.isSymbolicLink() && linksToFileInside(full, real))) && TEXT_FILE.test(id) && !exclude(id)) {
        const shown = displayPath(join(folder, id));
        const tooLarge = documentSizeProblem(statSync(full).size);
        if (tooLarge) problem(shown, tooLarge);
        documents.push(parseDocumentFile(id, readTextFile(full, shown), shown));
      }
    }
  };
  walk(root, "");
  return documents;
}

/** Whether a symbolic link resolves to a regular file inside `root`. */
function linksToFileInside(link: string, root: string): boolean {
  try {
    const target = realpathSync(link);
    return target.startsWith(`${root}${sep}`) && statSync(target).isFile();
  } catch {
    return false;
  }
}

/** A JSONL corpus's documents (BEIR's corpus.jsonl): one record a line, ids unique. */
export function readCorpusJsonl(file: string): Document[] {
  const shown = displayPath(file);
  const text = readTextFile(file, shown);
  const documents: Document[] = [];
  const seen = new Map<string, number>();
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const where = `${shown}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problem(where, "not a JSON record");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) problem(where, "expected a JSON object");
    const record = value as Record<string, unknown>;
    const rawId = record._id ?? record.id;
    const id = typeof rawId === "number" && Number.isFinite(rawId) ? String(rawId) : rawId;
    if (typeof id !== "string" || id.trim() === "") problem(where, 'missing "_id" or "id" (a non-empty string or number)');
    const first = seen.get(id);
    if (first !== undefined) problem(where, `id ${JSON.stringify(id)} repeats the record on line ${first}`);
    seen.set(id, i + 1);
    const field = (name: string): string | undefined => {
      const v = record[name];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== "string") problem(where, `"${name}" must be a string`);
      return v;
    };
    const body = field("text");
    if (body === undefined) problem(where, 'missing "text"');
    checkDocumentSize(where, body);
    const language = (field("language") ?? field("lang"))?.toLowerCase();
    const validFrom = field("validFrom");
    const validUntil = field("validUntil");
    const supersedes = idList(record.supersedes, where, '"supersedes"');
    documents.push({
      id,
      title: field("title") ?? "",
      text: body,
      ...(language ? { language } : {}),
      format: "text",
      ...(validFrom ? { validFrom } : {}),
      ...(validUntil ? { validUntil } : {}),
      ...(supersedes.length > 0 ? { supersedes } : {}),
    });
  });
  if (documents.length === 0) problem(shown, "the file holds no records");
  return documents;
}

/** The fields of a JSONL corpus record this reader maps (others are not read). */
export const CORPUS_RECORD_FIELDS: ReadonlySet<string> = new Set([
  "_id",
  "id",
  "title",
  "text",
  "language",
  "lang",
  "validFrom",
  "validUntil",
  "supersedes",
]);

/** The documents of a corpus, whatever its source: a folder's files, a JSONL corpus's records, documents given as data. */
export function corpusDocuments(source: CorpusSource): { ids: DocumentIds; documents: Document[] } {
  if (source.kind === "documents") return { ids: source.ids, documents: [...source.documents] };
  if (source.kind === "folder") return { ids: "paths", documents: readFolderDocuments(source.path) };
  return { ids: "keys", documents: readCorpusJsonl(source.path) };
}
