/**
 * The one loader and validator for fixture files: golden queries, answer cases, translation
 * groups, and the query-expansion schema. Every load parses the JSON, validates it against its
 * JSON Schema (draft-07, compiled once per schema file) and runs the fixture's lint. Any problem
 * becomes a `FixtureError` whose message is a single line naming the file, the record and the
 * problem in plain words, e.g.
 *
 *   fixtures/queries.json: query q-012 (/queries/11/category): must be one of keyword, ... (got "kw")
 *
 * Paths are configurable (`dir`, `corpusDir`, `schemaDir`), so tests can load broken copies from
 * a temp folder and a user's own dataset loads the same way against the same schemas.
 */
import { expansionErrors, expansionSchema } from "@hybrid-search/engine/models";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { ASK_CATEGORIES, type AskCase, type AskCategory, type Language, normalizeForMatch } from "../scorers/ask-case.js";

export { ASK_CATEGORIES, type AskCase, type AskCategory, type Language, normalizeForMatch };

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type Grade = 0 | 1 | 2 | 3;
/** Graded relevance by doc id: 3 answers fully, 2 substantially, 1 partially/related, 0 not relevant. */
export type Judgments = Record<string, Grade>;

export const QUERY_CATEGORIES = ["keyword", "paraphrase", "identifier", "cross-language", "multi-document", "no-answer"] as const;
export type QueryCategory = (typeof QUERY_CATEGORIES)[number];

export interface Query {
  id: string;
  query: string;
  language: Language;
  collection?: string;
  category: QueryCategory;
  /** Identifier queries: the identifier exactly as the one relevant doc spells it. */
  identifier?: string;
  /** Exactly the docs judged 1 to 3. */
  relevantDocs: string[];
  judgments: Judgments;
  note: string;
}

export interface TranslationGroup {
  id: string;
  docs: string[];
  note?: string;
}

/** What the query expander returns (fixtures/schemas/expansion.schema.json). */
export interface Expansion {
  lexicalQueries: string[];
  vectorQueries: string[];
  hyde?: string;
  language?: string;
}

// ---------------------------------------------------------------------------------------------
// Locations
// ---------------------------------------------------------------------------------------------

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURES_DIR = join(REPO_ROOT, "fixtures");

/** Where a fixture set lives. Every field defaults to the repo's own fixtures. */
export interface FixtureLocation {
  /** Folder holding the JSON files (queries.json, ask-cases.json, ...). Default: `<repo>/fixtures`. */
  dir?: string;
  /** Folder holding the corpus documents. Default: `<dir>/corpus`. */
  corpusDir?: string;
  /** Folder holding the JSON Schemas. Default: `<repo>/fixtures/schemas`, also for other dirs. */
  schemaDir?: string;
}

interface ResolvedLocation {
  dir: string;
  corpusDir: string;
  schemaDir: string;
}

function resolveLocation(location: FixtureLocation = {}): ResolvedLocation {
  const dir = resolve(location.dir ?? FIXTURES_DIR);
  return {
    dir,
    corpusDir: resolve(location.corpusDir ?? join(dir, "corpus")),
    schemaDir: resolve(location.schemaDir ?? join(FIXTURES_DIR, "schemas")),
  };
}

/** How a path is shown in messages: relative to the repo root when inside it, else absolute. */
export function displayPath(path: string): string {
  const rel = relative(REPO_ROOT, path);
  const shown = rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
  return shown.split(sep).join("/");
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** One problem in a fixture file. `pointer` is a JSON pointer ("" for the whole document). */
export interface FixtureIssue {
  pointer: string;
  problem: string;
  /** How the record is named in messages, e.g. "query q-012"; filled in by the loader. */
  record?: string;
}

const MAX_ISSUES_IN_MESSAGE = 3;

export class FixtureError extends Error {
  override readonly name = "FixtureError";
  /** The file as shown in the message (repo-relative where possible). */
  readonly file: string;
  readonly issues: readonly FixtureIssue[];

  constructor(file: string, issues: readonly FixtureIssue[]) {
    super(formatIssues(file, issues));
    this.file = file;
    this.issues = issues;
  }
}

export function isFixtureError(error: unknown): error is FixtureError {
  return error instanceof FixtureError;
}

function formatIssues(file: string, issues: readonly FixtureIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map(formatIssue);
  const more = issues.length - shown.length;
  if (more > 0) shown.push(`and ${more} more problem${more === 1 ? "" : "s"}`);
  return oneLine(`${file}: ${shown.join("; ")}`);
}

function formatIssue(issue: FixtureIssue): string {
  if (issue.record) return `${issue.record} (${issue.pointer || "/"}): ${issue.problem}`;
  if (issue.pointer) return `${issue.pointer}: ${issue.problem}`;
  return issue.problem;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}

/**
 * What a command-line tool prints for an error: a FixtureError's one-line message without the
 * stack; anything else is unexpected (a bug), so it keeps its stack.
 */
export function formatFixtureError(error: unknown): string {
  if (isFixtureError(error)) return error.message;
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

// ---------------------------------------------------------------------------------------------
// Generic loading: (file, schema, lint)
// ---------------------------------------------------------------------------------------------

/** What the lint of a fixture can use besides the parsed value. */
export interface LintContext {
  corpusDir: string;
  /** Ids of all docs in the corpus (read once per load). */
  corpusDocs(): ReadonlySet<string>;
  /** The text of a corpus doc (cached per load). */
  readDoc(docId: string): string;
}

export interface FixtureSpec<T> {
  /** The data file, relative to the location's `dir`. */
  file: string;
  /** The JSON Schema, relative to the location's `schemaDir`. */
  schema: string;
  /** The top-level array of records, so messages can name a record by its `id`. */
  records?: { key: string; label: string };
  /** Checks beyond the schema; runs on every load, after the schema passed. */
  lint?: (value: T, context: LintContext) => FixtureIssue[];
}

/** Loads, validates and lints one fixture file. Throws FixtureError on any problem. */
export function loadFixture<T>(spec: FixtureSpec<T>, location?: FixtureLocation): T {
  const where = resolveLocation(location);
  const path = resolve(where.dir, spec.file);
  const file = displayPath(path);
  const value = readJson(path);
  const { validate } = compiledSchema(resolve(where.schemaDir, spec.schema));
  const name = (issues: FixtureIssue[]) => issues.map((issue) => nameRecord(issue, value, spec.records));

  if (!validate(value)) {
    throw new FixtureError(file, name(describeAjvErrors(validate.errors ?? [])));
  }
  const issues = spec.lint?.(value as T, lintContext(where.corpusDir)) ?? [];
  if (issues.length > 0) throw new FixtureError(file, name(issues));
  return value as T;
}

function readJson(path: string): unknown {
  const file = displayPath(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "file not found" : code === "EISDIR" ? "is a directory" : `cannot read (${code})`;
    throw new FixtureError(file, [{ pointer: "", problem: why }]);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const fault = findJsonSyntaxError(text) ?? { offset: text.length, problem: "not valid JSON" };
    const { line, column } = lineAndColumn(text, fault.offset);
    throw new FixtureError(file, [{ pointer: "", problem: `invalid JSON at line ${line}, column ${column}: ${fault.problem}` }]);
  }
}

function nameRecord(issue: FixtureIssue, value: unknown, records: FixtureSpec<unknown>["records"]): FixtureIssue {
  if (issue.record || !records) return issue;
  const [key, index] = parsePointer(issue.pointer);
  if (key !== records.key || index === undefined || !/^\d+$/.test(index)) return issue;
  const list = (value as Record<string, unknown> | null)?.[key];
  const record = Array.isArray(list) ? (list[Number(index)] as unknown) : undefined;
  const id = record !== null && typeof record === "object" ? (record as { id?: unknown }).id : undefined;
  return typeof id === "string" && id.trim() !== "" ? { ...issue, record: `${records.label} ${id}` } : issue;
}

// ---------------------------------------------------------------------------------------------
// Schemas: one AJV instance, each schema file compiled once
// ---------------------------------------------------------------------------------------------

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
const compiled = new Map<string, { validate: ValidateFunction; schema: object }>();

function compiledSchema(path: string): { validate: ValidateFunction; schema: object } {
  let entry = compiled.get(path);
  if (!entry) {
    const schema = readJson(path);
    if (schema === null || typeof schema !== "object") {
      throw new FixtureError(displayPath(path), [{ pointer: "", problem: "a JSON Schema must be an object" }]);
    }
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      const problem = `not a usable JSON Schema: ${(error as Error).message}`;
      throw new FixtureError(displayPath(path), [{ pointer: "", problem }]);
    }
    entry = { validate, schema };
    compiled.set(path, entry);
  }
  return entry;
}

/** The query expander's output schema (draft-07), e.g. to hand to a structured-output call. */
/**
 * The expansion schema and its validator are the engine's (`@hybrid-search/engine/models`): the
 * one the engine uses to accept or reject a model's expansion, so the eval scores exactly that check.
 */
export function loadExpansionSchema(): Record<string, unknown> {
  return expansionSchema();
}

export function validateExpansion(value: unknown): ErrorObject[] {
  return expansionErrors(value);
}

export function isExpansion(value: unknown): value is Expansion {
  return validateExpansion(value).length === 0;
}

/** AJV errors in plain words, one string each: `/lexicalQueries/2: must not be blank (got " ")`. */
export function formatValidationErrors(errors: readonly ErrorObject[]): string[] {
  return describeAjvErrors(errors).map(formatIssue);
}

interface Condition {
  /** Schema path of the if/then/else holder plus the branch that failed, e.g. "#/allOf/0/then/". */
  branchPath: string;
  instancePath: string;
  text: string | undefined;
}

function describeAjvErrors(errors: readonly ErrorObject[]): FixtureIssue[] {
  // AJV reports a failed then/else as an extra "if" error next to the inner errors; it tells
  // which condition made the inner rule apply ("when category is ...").
  const conditions: Condition[] = errors
    .filter((error) => error.keyword === "if")
    .map((error) => {
      const branch = String((error.params as { failingKeyword?: unknown }).failingKeyword);
      const holder = error.parentSchema as { if?: unknown } | undefined;
      return {
        branchPath: `${error.schemaPath.replace(/\/if$/, "")}/${branch}/`,
        instancePath: error.instancePath,
        text: describeCondition(holder?.if, branch === "else"),
      };
    });
  const seen = new Set<string>();
  const issues: FixtureIssue[] = [];
  for (const error of errors) {
    const issue = describeAjvError(error);
    if (!issue) continue;
    const condition = conditions.find(
      (c) =>
        error.schemaPath.startsWith(c.branchPath) &&
        (error.instancePath === c.instancePath || error.instancePath.startsWith(`${c.instancePath}/`)),
    );
    if (condition?.text) issue.problem = insertCondition(issue.problem, condition.text);
    const key = `${issue.pointer}\u0000${issue.problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function describeAjvError(error: ErrorObject): FixtureIssue | undefined {
  const params = error.params as Record<string, unknown>;
  const data: unknown = error.data;
  let pointer = error.instancePath;
  let problem: string;
  // Errors about an object key (propertyNames) carry the key; the value shown is the key itself.
  const key = (error as { propertyName?: string }).propertyName;
  const subject = key === undefined ? "" : `key ${show(key)} `;

  switch (error.keyword) {
    case "if":
    case "propertyNames":
      return undefined; // wrappers: the inner errors say what is wrong
    case "required":
      problem = `missing required field ${show(params.missingProperty)}`;
      break;
    case "additionalProperties": {
      const extra = String(params.additionalProperty);
      pointer = `${pointer}/${escapePointer(extra)}`;
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      problem = `unknown field ${show(extra)}${allowed.length > 0 ? ` (allowed: ${allowed.join(", ")})` : ""}`;
      break;
    }
    case "type":
      problem = `must be ${describeTypes(String(params.type))} (got ${typeName(data)})`;
      break;
    case "enum":
      problem = `must be one of ${(params.allowedValues as unknown[]).map(plain).join(", ")} (got ${show(data)})`;
      break;
    case "const":
      problem = `must be ${show(params.allowedValue)} (got ${show(data)})`;
      break;
    case "pattern":
      problem =
        params.pattern === "\\S"
          ? `${subject}must not be blank (got ${show(data)})`
          : `${subject}must match the pattern ${String(params.pattern)} (got ${show(data)})`;
      break;
    case "minLength":
      problem =
        params.limit === 1 ? "must not be empty" : `must be at least ${String(params.limit)} characters long (got ${lengthOf(data)})`;
      break;
    case "maxLength":
      problem = `must be at most ${String(params.limit)} characters long (got ${lengthOf(data)})`;
      break;
    case "minimum":
    case "exclusiveMinimum":
    case "maximum":
    case "exclusiveMaximum": {
      const words = { minimum: "at least", exclusiveMinimum: "more than", maximum: "at most", exclusiveMaximum: "less than" };
      problem = `must be ${words[error.keyword]} ${String(params.limit)} (got ${show(data)})`;
      break;
    }
    case "minItems":
      problem =
        params.limit === 1
          ? "must list at least one item (got none)"
          : `must have at least ${String(params.limit)} items (got ${lengthOf(data)})`;
      break;
    case "maxItems":
      problem =
        params.limit === 0
          ? `must be empty (got ${lengthOf(data)} item${lengthOf(data) === 1 ? "" : "s"})`
          : `must have at most ${String(params.limit)} items (got ${lengthOf(data)})`;
      break;
    case "uniqueItems": {
      const items = Array.isArray(data) ? data : [];
      problem = `must not repeat an item (${show(items[Number(params.j)])} appears twice)`;
      break;
    }
    default:
      problem = `${subject}${error.message ?? `fails "${error.keyword}"`}`;
  }
  // A key that needs escaping (a doc id such as "de/a.md") reads badly inside a pointer: name it
  // in the problem instead, e.g. /queries/1/judgments: value of "de/a.md" must be at most 3.
  const segments = parsePointer(pointer);
  const last = segments.at(-1);
  if (last !== undefined && /[/~]/.test(last) && error.keyword !== "additionalProperties") {
    pointer = segments.length === 1 ? "" : `/${segments.slice(0, -1).map(escapePointer).join("/")}`;
    problem = `value of ${show(last)} ${problem}`;
  }
  return { pointer, problem };
}

/** "must be empty (got 2 items)" + `category is "no-answer"` -> "must be empty when category is ... (got 2 items)". */
function insertCondition(problem: string, condition: string): string {
  const got = problem.lastIndexOf(" (got ");
  return got === -1 ? `${problem} when ${condition}` : `${problem.slice(0, got)} when ${condition}${problem.slice(got)}`;
}

/**
 * An if-schema in words, e.g. `category is "no-answer"`; negated for the else branch. Only simple
 * conditions (properties with const or enum) are spelled out.
 */
function describeCondition(ifSchema: unknown, negate: boolean): string | undefined {
  const properties = (ifSchema as { properties?: Record<string, { const?: unknown; enum?: unknown[] }> } | undefined)?.properties;
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) return undefined;
  const parts = entries.map(([name, cond]) => {
    if ("const" in cond) return `${name} is ${negate ? "not " : ""}${show(cond.const)}`;
    if (Array.isArray(cond.enum)) return `${name} is ${negate ? "not " : ""}one of ${cond.enum.map(plain).join(", ")}`;
    return undefined;
  });
  return parts.some((p) => p === undefined) ? undefined : parts.join(negate ? " or " : " and ");
}

function describeTypes(types: string): string {
  const words: Record<string, string> = {
    string: "a string",
    number: "a number",
    integer: "an integer",
    boolean: "true or false",
    array: "an array",
    object: "an object",
    null: "null",
  };
  return types
    .split(",")
    .map((t) => words[t] ?? t)
    .join(" or ");
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "string") return `the string ${show(value)}`;
  if (typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : typeof value;
}

function lengthOf(value: unknown): number {
  if (typeof value === "string") return [...value].length;
  return Array.isArray(value) ? value.length : 0;
}

/** A value as it appears in a message: JSON, shortened, always on one line. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Enum values are listed bare when they are plain words. */
function plain(value: unknown): string {
  return typeof value === "string" && /^[\w.-]+$/.test(value) ? value : show(value);
}

function parsePointer(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

// ---------------------------------------------------------------------------------------------
// Invalid JSON: find where and why, independent of the JavaScript engine's wording
// ---------------------------------------------------------------------------------------------

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A strict JSON syntax scan that returns the first error's offset and a description. */
export function findJsonSyntaxError(text: string): { offset: number; problem: string } | undefined {
  let i = 0;
  const describe = (at: number) => (at >= text.length ? "the end of the file" : show(text[at]));
  const fail = (problem: string): never => {
    throw { offset: i, problem };
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail("invalid escape sequence in string");
      } else if (c < 0x20) {
        fail(c === 10 ? "unterminated string (line break inside a string)" : "control character inside a string");
      } else i++;
    }
    fail("unterminated string");
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      object();
      return;
    }
    if (c === "[") {
      array();
      return;
    }
    if (c === '"') {
      string();
      return;
    }
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number) return void (i += number[0].length);
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) return void (i += word.length);
    fail(`expected a value but found ${describe(i)}`);
  };
  /** The body of an object or array: elements separated by commas, up to the closing bracket. */
  const sequence = (close: "}" | "]", element: () => void, elementName: string) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      space();
      if (text[i] === close) fail(`trailing comma before '${close}'`);
      element();
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected ',' or '${close}' after ${elementName} but found ${describe(i)}`);
    }
  };
  const member = () => {
    if (text[i] !== '"') fail(`expected a double-quoted property name but found ${describe(i)}`);
    string();
    space();
    if (text[i] !== ":") fail(`expected ':' after property name but found ${describe(i)}`);
    i++;
    value();
  };
  const object = () => sequence("}", member, "property value");
  const array = () => sequence("]", value, "array element");
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
    return undefined;
  } catch (fault) {
    if (fault !== null && typeof fault === "object" && "offset" in fault) return fault as { offset: number; problem: string };
    throw fault;
  }
}

// ---------------------------------------------------------------------------------------------
// Corpus
// ---------------------------------------------------------------------------------------------

/** Ids of all corpus docs (paths below the corpus folder with forward slashes), sorted. */
export function listCorpusDocs(corpusDir: string = join(FIXTURES_DIR, "corpus")): string[] {
  const root = resolve(corpusDir);
  if (!existsSync(root)) return [];
  const ids: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile() && entry.name.endsWith(".md")) ids.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, "");
  return ids.sort();
}

/** The text of one corpus doc. */
export function readCorpusDoc(docId: string, corpusDir: string = join(FIXTURES_DIR, "corpus")): string {
  return readFileSync(join(resolve(corpusDir), ...docId.split("/")), "utf8");
}

/** A doc's language is its top folder: `de/kuendigung.md` -> `de`. */
export function docLanguage(docId: string): string {
  return docId.split("/", 1)[0] ?? "";
}

function lintContext(corpusDir: string): LintContext {
  let docs: Set<string> | undefined;
  const texts = new Map<string, string>();
  return {
    corpusDir,
    corpusDocs: () => (docs ??= new Set(listCorpusDocs(corpusDir))),
    readDoc: (docId) => {
      let text = texts.get(docId);
      if (text === undefined) {
        text = readCorpusDoc(docId, corpusDir);
        texts.set(docId, text);
      }
      return text;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Lint rules shared by the fixture kinds
// ---------------------------------------------------------------------------------------------

interface Identified {
  id: string;
}

function duplicateIds(records: readonly Identified[], key: string): FixtureIssue[] {
  const first = new Map<string, number>();
  const issues: FixtureIssue[] = [];
  records.forEach((record, index) => {
    const earlier = first.get(record.id);
    if (earlier === undefined) first.set(record.id, index);
    else issues.push({ pointer: `/${key}/${index}/id`, problem: `id ${show(record.id)} is already used by /${key}/${earlier}` });
  });
  return issues;
}

function repeatedEntries(list: readonly string[], pointer: string, what: string): FixtureIssue[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const item of list) (seen.has(item) ? repeated : seen).add(item);
  return repeated.size === 0 ? [] : [{ pointer, problem: `${what} lists ${[...repeated].join(", ")} more than once` }];
}

function missingDocs(docIds: readonly string[], pointer: string, context: LintContext, verb: string): FixtureIssue[] {
  const corpus = context.corpusDocs();
  const missing = [...new Set(docIds.filter((id) => !corpus.has(id)))];
  if (missing.length === 0) return [];
  const where = displayPath(context.corpusDir);
  return [{ pointer, problem: `${verb} ${missing.join(", ")}, which ${missing.length === 1 ? "does" : "do"} not exist in ${where}` }];
}

/**
 * What every judged record (a query, a lane case) must satisfy: relevantDocs listed once and
 * exactly the docs judged 1 to 3, every judged doc in the corpus. Returns the issues about missing
 * docs separately, since checks that read a judged doc cannot run without it.
 */
function judgedRecordIssues(
  record: Pick<Query, "relevantDocs" | "judgments">,
  at: string,
  context: LintContext,
): { issues: FixtureIssue[]; missing: FixtureIssue[] } {
  const missing = missingDocs(Object.keys(record.judgments), `${at}/judgments`, context, "judges");
  return {
    issues: [
      ...repeatedEntries(record.relevantDocs, `${at}/relevantDocs`, "relevantDocs"),
      ...relevanceMismatch(record, `${at}/relevantDocs`),
      ...missing,
    ],
    missing,
  };
}

/** A fixture file `{ "version": 1, "<key>": [records] }`, such as queries.json. */
export type RecordsFile<K extends string, T> = { version: 1 } & { [key in K]: T[] };

/** Loads `<name>.json` against `<name>.schema.json` and returns its records. */
function loadRecords<K extends string, T>(
  name: string,
  key: K,
  label: string,
  lint: (file: RecordsFile<K, T>, context: LintContext) => FixtureIssue[],
  location: FixtureLocation | undefined,
): T[] {
  const spec = { file: `${name}.json`, schema: `${name}.schema.json`, records: { key, label }, lint };
  return loadFixture<RecordsFile<K, T>>(spec, location)[key];
}

// ---------------------------------------------------------------------------------------------
// queries.json
// ---------------------------------------------------------------------------------------------

type QueriesFile = RecordsFile<"queries", Query>;

export function lintQueries(file: QueriesFile, context: LintContext): FixtureIssue[] {
  const issues = duplicateIds(file.queries, "queries");
  file.queries.forEach((query, index) => {
    const at = `/queries/${index}`;
    issues.push(...judgedRecordIssues(query, at, context).issues);
    if (query.category === "cross-language" && !query.relevantDocs.some((d) => docLanguage(d) !== query.language)) {
      issues.push({
        pointer: `${at}/relevantDocs`,
        problem: `a cross-language query needs a relevant doc in another language than "${query.language}"`,
      });
    }
  });
  return issues;
}

/** relevantDocs must be exactly the docs judged 1..3. */
function relevanceMismatch(query: Pick<Query, "relevantDocs" | "judgments">, pointer: string): FixtureIssue[] {
  const listed = new Set(query.relevantDocs);
  const positive = Object.entries(query.judgments).filter(([, grade]) => grade >= 1);
  const unlisted = positive.filter(([doc]) => !listed.has(doc)).map(([doc, grade]) => `${doc} (judged ${grade})`);
  const zero = query.relevantDocs.filter((doc) => query.judgments[doc] === 0);
  const unjudged = query.relevantDocs.filter((doc) => !(doc in query.judgments));
  const parts: string[] = [];
  if (unlisted.length > 0) parts.push(`missing ${unlisted.join(", ")}`);
  if (zero.length > 0) parts.push(`lists ${zero.join(", ")} although judged 0`);
  if (unjudged.length > 0) parts.push(`lists ${unjudged.join(", ")} without a judgment`);
  if (parts.length === 0) return [];
  return [{ pointer, problem: `relevantDocs must be exactly the docs judged 1 to 3: ${parts.join("; ")}` }];
}

/** The golden retrieval queries. Throws FixtureError when the file, its schema or its lint fails. */
export function loadQueries(location?: FixtureLocation): Query[] {
  return loadRecords("queries", "queries", "query", lintQueries, location);
}

// ---------------------------------------------------------------------------------------------
// ask-cases.json
// ---------------------------------------------------------------------------------------------

type AskCasesFile = RecordsFile<"cases", AskCase>;

export function lintAskCases(file: AskCasesFile, context: LintContext): FixtureIssue[] {
  const issues = duplicateIds(file.cases, "cases");
  file.cases.forEach((askCase, index) => {
    const at = `/cases/${index}`;
    const cite = askCase.mustCite ?? [];
    issues.push(...repeatedEntries(cite, `${at}/mustCite`, "mustCite"));
    const missing = missingDocs(cite, `${at}/mustCite`, context, "cites");
    issues.push(...missing);
    if (askCase.expectedRefusal === true && cite.length > 0) {
      issues.push({ pointer: `${at}/mustCite`, problem: "a case that expects a refusal cannot require citations" });
    }
    const expected = askCase.expectedSubstrings ?? [];
    if (expected.length > 0 && cite.length === 0) {
      issues.push({ pointer: `${at}/expectedSubstrings`, problem: "expectedSubstrings need mustCite docs that contain them" });
    } else if (expected.length > 0 && missing.length === 0) {
      const texts = cite.map((doc) => normalizeForMatch(context.readDoc(doc)));
      expected.forEach((substring, j) => {
        if (!texts.some((text) => text.includes(normalizeForMatch(substring)))) {
          issues.push({
            pointer: `${at}/expectedSubstrings/${j}`,
            problem: `${show(substring)} does not occur in any mustCite doc (${cite.join(", ")})`,
          });
        }
      });
    }
  });
  return issues;
}

/** The answer-quality cases. Throws FixtureError when the file, its schema or its lint fails. */
export function loadAskCases(location?: FixtureLocation): AskCase[] {
  return loadRecords("ask-cases", "cases", "case", lintAskCases, location);
}

// ---------------------------------------------------------------------------------------------
// translations.json
// ---------------------------------------------------------------------------------------------

type TranslationsFile = RecordsFile<"groups", TranslationGroup>;

export function lintTranslations(file: TranslationsFile, context: LintContext): FixtureIssue[] {
  const issues = duplicateIds(file.groups, "groups");
  const groupOf = new Map<string, string>();
  file.groups.forEach((group, index) => {
    const at = `/groups/${index}/docs`;
    issues.push(...repeatedEntries(group.docs, at, "docs"));
    issues.push(...missingDocs(group.docs, at, context, "lists"));
    const byLanguage = new Map<string, string[]>();
    for (const doc of group.docs) byLanguage.set(docLanguage(doc), [...(byLanguage.get(docLanguage(doc)) ?? []), doc]);
    for (const [language, docs] of byLanguage) {
      if (docs.length > 1 && new Set(docs).size > 1) {
        issues.push({ pointer: at, problem: `has more than one "${language}" doc: ${docs.join(", ")}` });
      }
    }
    for (const doc of new Set(group.docs)) {
      const other = groupOf.get(doc);
      if (other !== undefined && other !== group.id) {
        issues.push({ pointer: at, problem: `${doc} is already in group ${show(other)}` });
      }
      groupOf.set(doc, group.id);
    }
  });
  return issues;
}

/** Groups of docs that are faithful translations of each other. */
export function loadTranslations(location?: FixtureLocation): TranslationGroup[] {
  return loadRecords("translations", "groups", "group", lintTranslations, location);
}

let fixtureTranslations: ReadonlyMap<string, readonly string[]> | undefined;

/** Doc → its translations from fixtures/translations.json, loaded once: what the answer evals pass to the citation graders. */
export function fixtureTranslationMap(): ReadonlyMap<string, readonly string[]> {
  fixtureTranslations ??= translationsByDoc(loadTranslations());
  return fixtureTranslations;
}

/** For each doc that has translations, the other docs of its group. */
export function translationsByDoc(groups: readonly TranslationGroup[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const group of groups) {
    for (const doc of group.docs)
      map.set(
        doc,
        group.docs.filter((other) => other !== doc),
      );
  }
  return map;
}

// ---------------------------------------------------------------------------------------------
// Lanes: fixture sets with their own corpus (fixtures/lexical, fixtures/cjk)
// ---------------------------------------------------------------------------------------------

/**
 * The words of a text as the leak lint compares them: NFKC, lower case; runs of letters and
 * digits split at script changes; a CJK run becomes its character bigrams (a lone character
 * stays itself). Deliberately independent of the engine's analyzer, so an analyzer bug cannot
 * hide a leak.
 */
export function leakTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const run of text
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) {
    for (const piece of run.match(
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+|\p{L}[\p{L}\p{M}]*|\p{N}+/gu,
    ) ?? []) {
      const chars = [...piece];
      if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u.test(chars[0]!)) tokens.add(piece);
      else if (chars.length === 1) tokens.add(piece);
      else for (let i = 0; i + 1 < chars.length; i++) tokens.add(chars[i]! + chars[i + 1]!);
    }
  }
  return tokens;
}

/** The words of a doc id that the engine indexes in its path column: no language folder, no extension. */
function pathWords(docId: string): Set<string> {
  return leakTokens(docId.split("/").slice(1).join("/").replace(/\.md$/, ""));
}

/** Query words that also occur in a doc's path, per doc (empty when nothing leaks). */
export function pathLeaks(query: string, docIds: Iterable<string>): Map<string, string[]> {
  const words = leakTokens(query);
  const leaks = new Map<string, string[]>();
  for (const doc of docIds) {
    const shared = [...pathWords(doc)].filter((w) => words.has(w));
    if (shared.length > 0) leaks.set(doc, shared);
  }
  return leaks;
}

function describeLeaks(leaks: Map<string, string[]>): string {
  const shown = [...leaks].slice(0, 3).map(([doc, words]) => `${doc} (${words.join(", ")})`);
  return leaks.size > 3 ? `${shown.join(", ")} and ${leaks.size - 3} more` : shown.join(", ");
}

/** Letters and digits only, lower case: how an identifier and a query spelling of it are compared. */
function alnum(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** Whether `text` contains `identifier` as a whole token (NFKC, case-insensitive, not inside a longer word). */
export function containsIdentifier(text: string, identifier: string): boolean {
  const haystack = text.normalize("NFKC").toLowerCase();
  const needle = identifier.normalize("NFKC").toLowerCase();
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack.slice(0, at).match(/[\p{L}\p{N}_]$/u);
    const after = haystack.slice(at + needle.length).match(/^[\p{L}\p{N}_]/u);
    if (!before && !after) return true;
  }
  return false;
}

function docsGraded(judgments: Judgments, grade: Grade): string[] {
  return Object.entries(judgments)
    .filter(([, g]) => g === grade)
    .map(([doc]) => doc);
}

// ---- fixtures/lexical: the lexical regression matrix ----------------------------------------

export const LEXICAL_DIR = join(FIXTURES_DIR, "lexical");
/** Each collection of the lexical lane is a folder of fixtures/lexical indexed under that name. */
export const LEXICAL_COLLECTIONS = ["handbook", "archive"] as const;
export type LexicalCollection = (typeof LEXICAL_COLLECTIONS)[number];

/** The matrix cells; every cell has at least one case (the lint checks it). */
export const LEXICAL_CELLS = [
  "hyphen-compound",
  "digit-hyphen-id",
  "snake-case",
  "camel-case",
  "dotted-path",
  "version",
  "email-url",
  "title-over-body",
  "path-over-body",
  "collection-filter",
  "malformed-input",
] as const;
export type LexicalCell = (typeof LEXICAL_CELLS)[number];

export interface LexicalCase {
  id: string;
  query: string;
  cell: LexicalCell;
  collection?: LexicalCollection;
  /** Identifier cells: the identifier exactly as the grade-3 doc spells it. */
  identifier?: string;
  relevantDocs: string[];
  /** Exactly one doc is graded 3: the one the case is about. */
  judgments: Judgments;
  note: string;
}

/** Doc ids of the lexical lane per collection (ids are unique across collections). */
export function lexicalCollectionDocs(dir: string = LEXICAL_DIR): Map<LexicalCollection, string[]> {
  return new Map(LEXICAL_COLLECTIONS.map((c) => [c, listCorpusDocs(join(dir, c))]));
}

function lintLexical(dir: string) {
  return (file: { queries: LexicalCase[] }): FixtureIssue[] => {
    const byCollection = lexicalCollectionDocs(dir);
    const collectionOf = new Map<string, LexicalCollection>();
    const issues: FixtureIssue[] = [];
    for (const [collection, docs] of byCollection) {
      for (const doc of docs) {
        const other = collectionOf.get(doc);
        if (other)
          issues.push({ pointer: "", problem: `${doc} is in both ${other} and ${collection}: doc ids must be unique across collections` });
        collectionOf.set(doc, collection);
      }
    }
    const texts = new Map<string, string>();
    const text = (doc: string): string => {
      let t = texts.get(doc);
      if (t === undefined) texts.set(doc, (t = readCorpusDoc(doc, join(dir, collectionOf.get(doc)!))));
      return t;
    };
    const context: LintContext = { corpusDir: dir, corpusDocs: () => new Set(collectionOf.keys()), readDoc: text };
    issues.push(...duplicateIds(file.queries, "queries"));
    file.queries.forEach((c, index) => {
      const at = `/queries/${index}`;
      const { issues: judged, missing } = judgedRecordIssues(c, at, context);
      issues.push(...judged);
      const best = docsGraded(c.judgments, 3);
      if (best.length !== 1)
        issues.push({
          pointer: `${at}/judgments`,
          problem: `exactly one doc must be graded 3, the one the case is about (got ${best.length})`,
        });
      if (missing.length > 0 || best.length !== 1) return;
      const answer = best[0]!;
      if (c.collection !== undefined) {
        const outside = c.relevantDocs.filter((d) => collectionOf.get(d) !== c.collection);
        if (outside.length > 0)
          issues.push({
            pointer: `${at}/relevantDocs`,
            problem: `${outside.join(", ")} cannot be found within collection "${c.collection}"`,
          });
      }
      if (c.identifier !== undefined) {
        const holders = [...collectionOf.keys()].filter((d) => containsIdentifier(text(d), c.identifier!));
        if (holders.length !== 1 || holders[0] !== answer) {
          issues.push({
            pointer: `${at}/identifier`,
            problem: `${show(c.identifier)} must occur as a whole token in exactly one doc, ${answer} (found in ${holders.join(", ") || "none"})`,
          });
        }
      }
      const leaks = pathLeaks(c.query, collectionOf.keys());
      if (c.cell === "path-over-body") {
        // The point of the cell: the answer's path has the query's words, and no other judged doc's path does.
        if (!leaks.has(answer))
          issues.push({
            pointer: `${at}/query`,
            problem: `a path-over-body case needs the query's words in the answer's path (${answer})`,
          });
        leaks.delete(answer);
      }
      if (leaks.size > 0)
        issues.push({ pointer: `${at}/query`, problem: `the query leaks its answer through document paths: ${describeLeaks(leaks)}` });
    });
    const missingCells = LEXICAL_CELLS.filter((cell) => !file.queries.some((c) => c.cell === cell));
    if (missingCells.length > 0)
      issues.push({
        pointer: "/queries",
        problem: `no case for matrix cell${missingCells.length === 1 ? "" : "s"} ${missingCells.join(", ")}`,
      });
    return issues;
  };
}

/**
 * The lexical regression matrix (fixtures/lexical/queries.json against its collections
 * fixtures/lexical/handbook and fixtures/lexical/archive). `location.dir` moves the whole set.
 */
export function loadLexicalCases(location?: FixtureLocation): LexicalCase[] {
  const dir = resolve(location?.dir ?? LEXICAL_DIR);
  const spec = {
    file: "queries.json",
    schema: "lexical-queries.schema.json",
    records: { key: "queries", label: "case" },
    lint: lintLexical(dir),
  };
  return loadFixture<RecordsFile<"queries", LexicalCase>>(spec, { ...location, dir }).queries;
}

// ---- fixtures/cjk: the CJK lane --------------------------------------------------------------

export const CJK_DIR = join(FIXTURES_DIR, "cjk");
export const CJK_LANGUAGES = ["zh-hans", "zh-hant", "ja", "ko"] as const;
export type CjkLanguage = (typeof CJK_LANGUAGES)[number];
export const CJK_CATEGORIES = [
  "exact-term",
  "question",
  "identifier",
  "mixed-script",
  "token-boundary",
  "punctuation",
  "normalization",
] as const;
export type CjkCategory = (typeof CJK_CATEGORIES)[number];
export const CJK_FORMS = ["nfd", "half-width", "full-width", "compatibility-ideograph"] as const;
export type CjkForm = (typeof CJK_FORMS)[number];

export interface CjkQuery {
  id: string;
  query: string;
  language: CjkLanguage;
  category: CjkCategory;
  /** Normalization queries: how the query is written. */
  form?: CjkForm;
  identifier?: string;
  relevantDocs: string[];
  /** Only docs of the query's own language are judged. */
  judgments: Judgments;
  note: string;
}

/** Whether `query` is really written in `form`. */
const FORM_CHECKS: Record<CjkForm, { test: (q: string) => boolean; what: string }> = {
  nfd: { test: (q) => q === q.normalize("NFD") && q !== q.normalize("NFC"), what: "decomposed (NFD) and different from its NFC form" },
  "half-width": { test: (q) => /[\uFF61-\uFF9F]/.test(q), what: "written with half-width katakana (U+FF61–FF9F)" },
  "full-width": { test: (q) => /[\uFF01-\uFF5E]/.test(q), what: "written with full-width ASCII forms (U+FF01–FF5E)" },
  "compatibility-ideograph": { test: (q) => /[\uF900-\uFAFF]/.test(q), what: "written with a CJK compatibility ideograph (U+F900–FAFF)" },
};

export function lintCjkQueries(file: { queries: CjkQuery[] }, context: LintContext): FixtureIssue[] {
  const issues = duplicateIds(file.queries, "queries");
  const corpus = [...context.corpusDocs()];
  file.queries.forEach((q, index) => {
    const at = `/queries/${index}`;
    const { issues: judged, missing } = judgedRecordIssues(q, at, context);
    issues.push(...judged);
    const foreign = Object.keys(q.judgments).filter((d) => docLanguage(d) !== q.language);
    if (foreign.length > 0)
      issues.push({ pointer: `${at}/judgments`, problem: `judges ${foreign.join(", ")}, not in the query's language "${q.language}"` });
    if (!q.id.startsWith(`${q.language}-`)) issues.push({ pointer: `${at}/id`, problem: `must start with its language "${q.language}-"` });
    // A query without CJK text carries no language: it would match every language's article alike.
    if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(q.query.normalize("NFKC"))) {
      issues.push({ pointer: `${at}/query`, problem: "a same-language query must contain CJK text" });
    }
    if (q.form !== undefined && q.category !== "normalization")
      issues.push({ pointer: `${at}/form`, problem: "only normalization queries have a form" });
    if (q.form !== undefined && !FORM_CHECKS[q.form].test(q.query))
      issues.push({ pointer: `${at}/query`, problem: `must be ${FORM_CHECKS[q.form].what} (form "${q.form}")` });
    if (q.identifier !== undefined && missing.length === 0) {
      const best = docsGraded(q.judgments, 3);
      if (
        !best.some((d) =>
          normalizeForMatch(context.readDoc(d).normalize("NFKC")).includes(normalizeForMatch(q.identifier!.normalize("NFKC"))),
        )
      ) {
        issues.push({
          pointer: `${at}/identifier`,
          problem: `${show(q.identifier)} does not occur in a doc graded 3 (${best.join(", ") || "none"})`,
        });
      }
      if (!alnum(q.query).includes(alnum(q.identifier)))
        issues.push({ pointer: `${at}/identifier`, problem: `the query does not spell ${show(q.identifier)} in any form` });
    }
    const leaks = pathLeaks(q.query, corpus);
    if (leaks.size > 0)
      issues.push({ pointer: `${at}/query`, problem: `the query leaks its answer through document paths: ${describeLeaks(leaks)}` });
  });
  for (const language of CJK_LANGUAGES) {
    const missingCategories = CJK_CATEGORIES.filter(
      (category) => !file.queries.some((q) => q.language === language && q.category === category),
    );
    if (missingCategories.length > 0)
      issues.push({ pointer: "/queries", problem: `no "${language}" query for ${missingCategories.join(", ")}` });
  }
  return issues;
}

/** The CJK lane's queries (fixtures/cjk/queries.json against fixtures/cjk/corpus). */
export function loadCjkQueries(location?: FixtureLocation): CjkQuery[] {
  const spec = {
    file: "queries.json",
    schema: "cjk-queries.schema.json",
    records: { key: "queries", label: "query" },
    lint: lintCjkQueries,
  };
  return loadFixture<RecordsFile<"queries", CjkQuery>>(spec, { ...location, dir: location?.dir ?? CJK_DIR }).queries;
}
