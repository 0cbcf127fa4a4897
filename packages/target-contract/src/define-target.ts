/**
 * A target module: a TypeScript or JavaScript file whose default export is `defineTarget({...})`,
 * measured in the suite's own process (`EVAL_TARGET=./eval.target.ts`, docs/targets.md). Each
 * capability is a function taking and returning the contract's messages (types.ts): what a
 * service answers over HTTP, a module returns, and the suite checks it with the same schema.
 *
 *   import { defineTarget } from "@hybrid-search/target-contract/define-target";
 *   export default defineTarget({
 *     name: "my-search",
 *     search: { search: async ({ query, limit }) => ({ results: await mySearch(query, limit) }) },
 *   });
 *
 * `defineTarget` returns what it is given: its value is the types (a plain object of the same shape
 * works too). The suite checks the definition when it loads it (`targetDefinitionProblems`): a
 * JavaScript module has no types, and a TypeScript one is loaded without checking them.
 */
import type {
  AskRequest,
  AskResponse,
  DocumentsRequest,
  DocumentsResponse,
  ExpandRequest,
  ExpandResponse,
  Fingerprint,
  Mode,
  SearchRequest,
  SearchResponse,
} from "./types.js";
import type { TurnRequest, TurnResponse } from "./turn.js";

/** What the suite hands every call besides its request. */
export interface CallContext {
  /**
   * Aborted when the suite stops waiting for the call (after `EVAL_TARGET_TIMEOUT_MS`, 10 s by
   * default): the case has errored by then; a module that can cancel its work should.
   */
  signal: AbortSignal;
}

/** A capability: the contract's request in, its response out (a promise or the value itself). */
export type Capability<Request, Response> = (request: Request, context: CallContext) => Promise<Response> | Response;

/** How the target ranks in one mode: the contract's `POST /search`, for that `mode`. */
export type SearchCapability = Capability<SearchRequest, SearchResponse>;

/** Seeding: `PUT /documents` and `DELETE /documents?collection=…` of the contract. */
export interface DocumentsCapability {
  /** The collection holds exactly `request.documents` afterwards; the response says how many it holds. */
  seed: Capability<DocumentsRequest, DocumentsResponse>;
  /** Removes the collection; the response's `documents` is 0. Without it the run cannot remove what it seeded, and says so. */
  delete?: Capability<{ collection: string }, DocumentsResponse>;
}

/** A target module's default export. */
export interface TargetDefinition {
  /** What floors and reports call it (`module:<name>`) unless EVAL_TARGET_NAME says otherwise: 1–64 letters, digits, `.`, `_`, `-`. @example "minisearch-docs" */
  name: string;
  /** The version of the system measured, recorded with the run. @example "7.2.0" */
  version?: string;
  /**
   * What the target has indexed (equal fingerprints mean comparable runs). Without one, the run's
   * fingerprint is what a seed returned, else says it is not reported.
   */
  fingerprint?: Fingerprint;
  /** Ranking, one function per mode it serves (`search`, `vsearch`, `fast`, `balanced`, `thorough`); a mode without one is never asked for. */
  search?: Partial<Record<Mode, SearchCapability>>;
  /** Answering: the contract's `POST /ask`. */
  ask?: Capability<AskRequest, AskResponse>;
  /** Query expansion: the contract's `POST /expand`. */
  expand?: Capability<ExpandRequest, ExpandResponse>;
  /** Taking the dataset's corpus: a module that has it is handed the corpus at the start of every run. */
  documents?: DocumentsCapability;
  /**
   * Whether responses carry the contract's stage trace (`trace`), for the run's header; the suite
   * reads a trace whenever a response has one. @default false
   */
  trace?: boolean;
  /** Agent turns: the contract's `POST /turn`, a question in, the turn trace out (turn.ts). */
  turn?: Capability<TurnRequest, TurnResponse>;
  /** Whether `ask` answers from the `sources` a request gives instead of retrieving (the given-sources lane). @default false */
  givenSources?: boolean;
}

/** Types a target module's definition (a module's default export); returns it as it is. */
export function defineTarget<const T extends TargetDefinition>(definition: T): T {
  return definition;
}

/** The modes a definition may serve, in the contract's order. */
const MODES: readonly Mode[] = ["search", "vsearch", "fast", "balanced", "thorough"];
const FIELDS = ["name", "version", "fingerprint", "search", "ask", "expand", "documents", "trace", "turn", "givenSources"];
const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * What is wrong with `value` as a target definition, one problem per line, each naming the field
 * (`/search/vsearch: must be a function, got a string`); empty when it is one. A JavaScript module
 * has no types to check, and a TypeScript one is loaded without checking them.
 */
export function targetDefinitionProblems(value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return [`the default export must be defineTarget({ name, search?, ask?, … }), got ${kind(value)}`];
  const v = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(v)) if (!FIELDS.includes(key)) problems.push(`/${key}: unknown field (known: ${FIELDS.join(", ")})`);
  if (typeof v.name !== "string" || !NAME.test(v.name))
    problems.push(`/name: must be 1–64 letters, digits, ".", "_" or "-" (it keys the floors), got ${show(v.name)}`);
  if (v.version !== undefined && typeof v.version !== "string") problems.push(`/version: must be a string, got ${kind(v.version)}`);
  if (v.fingerprint !== undefined && !isFingerprint(v.fingerprint))
    problems.push(`/fingerprint: must be a string or an object with a string corpusHash, got ${kind(v.fingerprint)}`);
  if (v.trace !== undefined && typeof v.trace !== "boolean") problems.push(`/trace: must be true or false, got ${kind(v.trace)}`);
  if (v.givenSources !== undefined && typeof v.givenSources !== "boolean")
    problems.push(`/givenSources: must be true or false, got ${kind(v.givenSources)}`);
  if (v.search !== undefined) {
    if (typeof v.search !== "object" || v.search === null)
      problems.push(`/search: must be an object of functions by mode, got ${kind(v.search)}`);
    else
      for (const [mode, fn] of Object.entries(v.search)) {
        if (!(MODES as readonly string[]).includes(mode)) problems.push(`/search/${mode}: unknown mode (modes: ${MODES.join(", ")})`);
        else if (typeof fn !== "function") problems.push(`/search/${mode}: must be a function, got ${kind(fn)}`);
      }
  }
  for (const key of ["ask", "expand", "turn"] as const)
    if (v[key] !== undefined && typeof v[key] !== "function") problems.push(`/${key}: must be a function, got ${kind(v[key])}`);
  if (v.documents !== undefined) {
    const d = v.documents as Record<string, unknown> | null;
    if (typeof d !== "object" || d === null) problems.push(`/documents: must be { seed, delete? }, got ${kind(d)}`);
    else {
      for (const key of Object.keys(d))
        if (key !== "seed" && key !== "delete") problems.push(`/documents/${key}: unknown field (known: seed, delete)`);
      if (typeof d.seed !== "function") problems.push(`/documents/seed: must be a function, got ${kind(d.seed)}`);
      if (d.delete !== undefined && typeof d.delete !== "function")
        problems.push(`/documents/delete: must be a function, got ${kind(d.delete)}`);
    }
  }
  const serves =
    (typeof v.search === "object" && v.search !== null && Object.keys(v.search).length > 0) ||
    v.ask !== undefined ||
    v.expand !== undefined ||
    v.turn !== undefined;
  if (problems.length === 0 && !serves) problems.push("(the definition): serves nothing: give it search (by mode), ask, expand or turn");
  return problems;
}

/** The modes a (checked) definition serves, in the contract's order. */
export function definedModes(definition: TargetDefinition): Mode[] {
  return MODES.filter((mode) => typeof definition.search?.[mode] === "function");
}

function isFingerprint(x: unknown): boolean {
  return (
    (typeof x === "string" && x !== "") ||
    (typeof x === "object" && x !== null && typeof (x as { corpusHash?: unknown }).corpusHash === "string")
  );
}

function kind(x: unknown): string {
  if (x === null) return "null";
  if (x === undefined) return "nothing";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "function") return "a function";
  if (typeof x === "object") return "an object";
  return `${/^[aeiou]/.test(typeof x) ? "an" : "a"} ${typeof x}`;
}

function show(x: unknown): string {
  return typeof x === "string" ? JSON.stringify(x.slice(0, 80)) : kind(x);
}
