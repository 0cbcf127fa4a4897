/**
 * The tools of an agent turn, as AI SDK tools over the engine's core: each calls what the engine
 * already does (the query pipeline's `search`, `vsearch` and tiers, the passage store, the
 * catalog of the index state) and returns a compact JSON value the model reads and the turn trace
 * records. Every call is timed here, by its tool call id, since the AI SDK does not time tools.
 *
 * | tool              | input                                         | output                                             |
 * | ----------------- | --------------------------------------------- | -------------------------------------------------- |
 * | `search`          | `query`, `mode` (default balanced), `limit` 1–20 (5) | `results`: docId, title, language, score, snippet |
 * | `read_document`   | `docId`, `section` (part of a heading)        | docId, title, language, `sections`: heading, text  |
 * | `catalog`         | `collection`, `language` (both optional)      | `collections`, `documents`: docId, title, language |
 * | `file_correction` | `docId`, `correction`, `quote`                | none: it needs approval, and a turn stops there    |
 *
 * A tool that cannot do what it is asked throws one line (an unknown document, a section it does
 * not have, a mode the engine does not know); the loop hands the error to the model, and the trace
 * records the call as an error. Validity (`asOf`, `includeSuperseded`) applies to `search`, which
 * ranks as the pipeline does; `catalog` and `read_document` show every document as indexed.
 */
import type { ToolSet } from "ai";
import type { EngineCore } from "../core.js";
import { baseLanguage } from "../ingest/language-path.js";
import type { TurnOptionsResolved } from "../options/turn-options.js";
import { query, search, vsearch } from "../pipeline/run.js";
import { now } from "../pipeline/trace.js";
import type { CatalogDocument } from "../store/catalog.js";
import { type AgentToolName, type RankedHit, TIERS, type Tier } from "../types.js";

/** Modes `search` takes: BM25, vectors, or a hybrid tier. */
export const SEARCH_MODES = ["search", "vsearch", ...TIERS] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** `search`'s default depth and the deepest it goes: a tool result the model reads whole. */
export const SEARCH_LIMIT = { default: 5, max: 20 } as const;
/** Characters of a document `read_document` returns at most; the sections after that are counted, not sent. */
export const READ_MAX_CHARS = 12_000;
/** Documents `catalog` lists at most. */
export const CATALOG_MAX = 500;

export interface SearchInput {
  query: string;
  mode?: SearchMode;
  limit?: number;
}
export interface SearchOutput {
  mode: SearchMode;
  results: Array<{ docId: string; title: string; language: string | null; score: number; snippet: string }>;
}
export interface ReadInput {
  docId: string;
  section?: string;
}
export interface ReadOutput {
  docId: string;
  title: string;
  language: string | null;
  collection: string;
  sections: Array<{ heading: string; text: string }>;
  /** Sections left out to stay within READ_MAX_CHARS. */
  truncated?: number;
}
export interface CatalogInput {
  collection?: string;
  language?: string;
}
export interface CatalogOutput {
  collections: string[];
  documents: Array<{ docId: string; title: string; language: string | null; collection: string }>;
  total: number;
}
export interface CorrectionInput {
  docId: string;
  correction: string;
  quote?: string;
}

/** What each tool is, for the model (its description) and for the trace (whether it needs approval). */
export const TOOL_INFO: Readonly<Record<AgentToolName, { description: string; needsApproval: boolean }>> = {
  search: {
    description:
      "Search the help centre. Returns the best documents for a query with their id (a path), title, language and a snippet. mode: search (keywords, BM25), vsearch (vectors), fast, balanced (default) or thorough.",
    needsApproval: false,
  },
  read_document: {
    description:
      "Read a document by its id (a path such as en/billing/refunds.md, as search and catalog return it): its sections with their headings. section: only the sections whose heading contains these words.",
    needsApproval: false,
  },
  catalog: {
    description:
      "List the collections and every document's id (its path), title and language: the table of contents. Use it to say where something is written.",
    needsApproval: false,
  },
  file_correction: {
    description:
      "File a correction to a document for its editors, when the user asks for one. Needs a person's approval: the turn stops at this call and reports it as a proposal.",
    needsApproval: true,
  },
};

/** What the tools of one turn share: the core, the turn's options, and where the durations go. */
export interface ToolContext {
  readonly core: EngineCore;
  readonly options: TurnOptionsResolved;
  /** Milliseconds each call ran, by tool call id. */
  readonly durations: Map<string, number>;
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The AI SDK tools of the turn's surface, in the surface's order. */
export async function agentTools(ctx: ToolContext): Promise<ToolSet> {
  const ai = await import("ai");
  const timed =
    <I, O>(fn: (input: I) => O | Promise<O>) =>
    async (input: I, { toolCallId }: { toolCallId: string }): Promise<O> => {
      const start = now();
      try {
        return await fn(input);
      } finally {
        ctx.durations.set(toolCallId, now() - start);
      }
    };
  const definitions: Record<AgentToolName, ToolSet[string]> = {
    search: {
      description: TOOL_INFO.search.description,
      inputSchema: ai.jsonSchema<SearchInput>({
        type: "object",
        required: ["query"],
        additionalProperties: false,
        properties: {
          query: { type: "string", minLength: 1, maxLength: 1000 },
          mode: { enum: [...SEARCH_MODES] },
          limit: { type: "integer", minimum: 1, maximum: SEARCH_LIMIT.max },
        },
      }),
      execute: timed((input: SearchInput) => searchTool(ctx, input)),
    },
    read_document: {
      description: TOOL_INFO.read_document.description,
      inputSchema: ai.jsonSchema<ReadInput>({
        type: "object",
        required: ["docId"],
        additionalProperties: false,
        properties: { docId: { type: "string", minLength: 1 }, section: { type: "string", minLength: 1 } },
      }),
      execute: timed((input: ReadInput) => readTool(ctx, input)),
    },
    catalog: {
      description: TOOL_INFO.catalog.description,
      inputSchema: ai.jsonSchema<CatalogInput>({
        type: "object",
        additionalProperties: false,
        properties: { collection: { type: "string", minLength: 1 }, language: { type: "string", minLength: 1 } },
      }),
      execute: timed((input: CatalogInput) => catalogTool(ctx, input)),
    },
    // No execute: the turn never performs it; a person approves the proposal outside the turn.
    file_correction: {
      description: TOOL_INFO.file_correction.description,
      inputSchema: ai.jsonSchema<CorrectionInput>({
        type: "object",
        required: ["docId", "correction"],
        additionalProperties: false,
        properties: {
          docId: { type: "string", minLength: 1 },
          correction: { type: "string", minLength: 1, maxLength: 2000 },
          quote: { type: "string", minLength: 1, maxLength: 2000 },
        },
      }),
      needsApproval: true,
    },
  };
  return Object.fromEntries(ctx.options.tools.map((name) => [name, definitions[name]]));
}

async function searchTool(ctx: ToolContext, input: SearchInput): Promise<SearchOutput> {
  const mode = input.mode ?? "balanced";
  const options = { ...ctx.options.given, limit: input.limit ?? SEARCH_LIMIT.default, traceDepth: 0 };
  const response =
    mode === "search"
      ? search(ctx.core, input.query, options)
      : mode === "vsearch"
        ? await vsearch(ctx.core, input.query, options)
        : await query(ctx.core, input.query, { ...options, tier: mode as Tier });
  return {
    mode,
    results: response.results.map((h: RankedHit) => ({
      docId: h.docId,
      title: h.title,
      language: h.language,
      score: round(h.score),
      snippet: h.snippet,
    })),
  };
}

/** The documents of the turn's scope (its collection and language filters). */
function scoped(ctx: ToolContext, extra: CatalogInput = {}): CatalogDocument[] {
  const { catalog } = ctx.core.index.state();
  const collection = extra.collection ?? ctx.options.filters.collection;
  const language = (extra.language ?? ctx.options.filters.language)?.toLowerCase();
  return catalog.documents.filter(
    (d) =>
      (collection === undefined || d.collection === collection) &&
      (language === undefined || (d.language !== null && (d.language === language || baseLanguage(d.language) === language))),
  );
}

function readTool(ctx: ToolContext, { docId, section }: ReadInput): ReadOutput {
  const matches = scoped(ctx).filter((d) => d.docId === docId);
  if (matches.length === 0)
    throw new RangeError(`no document ${JSON.stringify(docId)} in this index; search or catalog give the ids (paths)`);
  if (matches.length > 1)
    throw new RangeError(
      `${JSON.stringify(docId)} is a document of several collections (${matches.map((d) => d.collection).join(", ")}); the turn names none`,
    );
  const doc = matches[0]!;
  let passages = ctx.core.passages.ofDocument(doc.collection, doc.docId);
  if (section !== undefined) {
    const wanted = section.toLowerCase();
    const kept = passages.filter((p) => p.heading.toLowerCase().includes(wanted));
    if (kept.length === 0)
      throw new RangeError(
        `${doc.docId} has no section whose heading contains ${JSON.stringify(section)}; its headings: ${[...new Set(passages.map((p) => p.heading))].join(" | ")}`,
      );
    passages = kept;
  }
  const sections: ReadOutput["sections"] = [];
  let chars = 0;
  for (const p of passages) {
    if (sections.length > 0 && chars + p.text.length > READ_MAX_CHARS) break;
    sections.push({ heading: p.heading, text: p.text });
    chars += p.text.length;
  }
  const left = passages.length - sections.length;
  return {
    docId: doc.docId,
    title: doc.title,
    language: doc.language,
    collection: doc.collection,
    sections,
    ...(left > 0 ? { truncated: left } : {}),
  };
}

function catalogTool(ctx: ToolContext, input: CatalogInput): CatalogOutput {
  const documents = scoped(ctx, input);
  return {
    collections: [...new Set(documents.map((d) => d.collection))].sort(),
    documents: documents
      .slice(0, CATALOG_MAX)
      .map((d) => ({ docId: d.docId, title: d.title, language: d.language, collection: d.collection })),
    total: documents.length,
  };
}
