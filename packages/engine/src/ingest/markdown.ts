/**
 * Reads a Markdown or plain-text document: optional YAML front matter (`title`, `lang`/`language`,
 * and the validity fields `validFrom`, `validUntil`, `supersedes`: ingest/validity.ts), the title (front matter, else the first heading, else the file name) and the body to chunk.
 *
 * Front matter is a Markdown file's first lines from a `---` line to the next `---` or `...` line,
 * parsed as YAML 1.2 by the `yaml` package: quoted strings, lists and multi-line scalars work; keys
 * are matched case-insensitively; other keys are ignored. Front matter that is not closed, is not
 * valid YAML, is not a mapping, or gives `title`/`lang` a list or mapping is an input error
 * (`MALFORMED_FRONT_MATTER`, one line naming the file) — the document is not indexed with a guess;
 * so is a validity field that is not a date or an id (`INVALID_VALIDITY`, naming file, line and field).
 */
import { isMap, isNode, isScalar, LineCounter, parseDocument as parseYaml } from "yaml";
import { EngineError } from "../errors.js";
import { languageTagProblem } from "./input-rules.js";
import { readValidity, VALIDITY_FIELDS, type DeclaredValidity, type RawField, type ValidityField } from "./validity.js";

export interface ParsedDocument {
  title: string;
  /** From front matter, if it names one. */
  language?: string;
  /** `validFrom`, `validUntil`, `supersedes` from front matter, checked (ingest/validity.ts). */
  validity?: DeclaredValidity;
  body: string;
  markdown: boolean;
}

const FRONT_MATTER_OPEN = "---\n";
const FRONT_MATTER_CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/**
 * Title, language and body of the document at `relPath`; `shownPath` names the file in errors.
 * Throws EngineError `MALFORMED_FRONT_MATTER` for broken front matter.
 */
export function parseDocument(relPath: string, raw: string, shownPath = relPath): ParsedDocument {
  const markdown = /\.(md|markdown|mdx)$/i.test(relPath);
  let body = raw.replace(/\r\n?/g, "\n");
  let meta = new Map<string, { value: unknown; line: number }>();
  if (markdown && body.startsWith(FRONT_MATTER_OPEN)) {
    const rest = body.slice(FRONT_MATTER_OPEN.length);
    // The closing line may be the very first line after `---` (empty front matter).
    const close = FRONT_MATTER_CLOSE.exec(rest);
    if (!close) {
      throw frontMatterError(shownPath, 1, "front matter opened by --- is never closed (expected a line --- or ... after it)");
    }
    // Without its last line break, an error at the end of the YAML is placed on its last line.
    meta = frontMatter(rest.slice(0, close.index).replace(/\n$/, ""), shownPath);
    const end = close.index + close[0].length;
    body = rest.slice(rest[end] === "\n" ? end + 1 : end);
  }
  const field = (key: string): string | undefined => frontMatterText(meta, key, shownPath);
  const title = field("title") || (markdown ? firstHeading(body) : undefined) || fileTitle(relPath);
  const languageKey = field("lang") ? "lang" : "language";
  const written = field(languageKey);
  const languageProblem = written ? languageTagProblem(written) : null;
  if (languageProblem !== null)
    throw frontMatterError(shownPath, meta.get(languageKey)!.line, `front matter "${languageKey}": ${languageProblem}`);
  const language = written?.toLowerCase();
  const validity = validityFields(meta, relPath, shownPath);
  return { title, ...(language ? { language } : {}), ...(validity ? { validity } : {}), body, markdown };
}

/** The front matter's fields by lower-cased key, each with the file line of its key (line 1 is the opening `---`). */
function frontMatter(yaml: string, shownPath: string): Map<string, { value: unknown; line: number }> {
  const lineCounter = new LineCounter();
  const fileLine = (offset: number): number => lineCounter.linePos(offset).line + 1;
  const doc = parseYaml(yaml, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error) throw frontMatterError(shownPath, fileLine(error.pos[0]), `front matter is not valid YAML: ${error.message.split("\n")[0]}`);
  const fields = new Map<string, { value: unknown; line: number }>();
  if (doc.contents === null) return fields;
  if (!isMap(doc.contents)) throw frontMatterError(shownPath, 2, "front matter must be a mapping of keys to values (key: value)");
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || typeof pair.key.value !== "string") continue;
    const value: unknown = isNode(pair.value) ? pair.value.toJS(doc) : pair.value;
    fields.set(pair.key.value.toLowerCase(), { value, line: fileLine(pair.key.range?.[0] ?? 0) });
  }
  return fields;
}

/** A front-matter field as text: strings, numbers and booleans as written; absent or null as undefined. */
function frontMatterText(meta: Map<string, { value: unknown; line: number }>, key: string, shownPath: string): string | undefined {
  const field = meta.get(key);
  if (field === undefined || field.value === null || field.value === undefined) return undefined;
  const { value, line } = field;
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw frontMatterError(shownPath, line, `front matter "${key}" must be text, got ${Array.isArray(value) ? "a list" : "a mapping"}`);
}

/** The validity fields of the front matter (keys case-insensitive), read and checked. */
function validityFields(
  meta: Map<string, { value: unknown; line: number }>,
  docId: string,
  shownPath: string,
): DeclaredValidity | undefined {
  const fields: Partial<Record<ValidityField, RawField>> = {};
  for (const name of VALIDITY_FIELDS) {
    const field = meta.get(name.toLowerCase());
    if (field !== undefined) fields[name] = { value: field.value, at: `${shownPath}:${field.line}` };
  }
  return readValidity(docId, fields, shownPath);
}

function frontMatterError(shownPath: string, line: number, problem: string): EngineError {
  return new EngineError("MALFORMED_FRONT_MATTER", `${shownPath}:${line}: ${problem}`);
}

function firstHeading(body: string): string | undefined {
  let inFence = false;
  for (const line of body.split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) continue;
    const h = HEADING.exec(line);
    if (h && h[2]!.trim() !== "") return stripInline(h[2]!);
  }
  return undefined;
}

function fileTitle(relPath: string): string {
  const base = relPath.split("/").pop() ?? relPath;
  return base.replace(/\.[^.]+$/, "");
}

/** Removes the most common inline Markdown so titles and headings read as text. */
export function stripInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/`([^`]*)`/g, "$1")
    .trim();
}

export { HEADING, FENCE };
