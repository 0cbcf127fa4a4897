/**
 * `search`, `vsearch`, `query`: one query, its ranked documents printed (or the whole response
 * with --json); and `retrieve`, the call behind them and behind `run`.
 */
import type { Engine } from "../engine.js";
import { quoteInput } from "../errors.js";
import type { SearchOptions, SearchResult, Tier } from "../types.js";
import { type Command, type OptionName, onIndex, oneArgument, parseTier } from "./command.js";

export type RetrievalMode = "search" | "vsearch" | "query";

/** The engine's response to `text` in `mode` (`tier` for query). */
export async function retrieve(engine: Engine, mode: RetrievalMode, text: string, opts: SearchOptions, tier: Tier): Promise<SearchResult> {
  if (mode === "search") return engine.search(text, opts);
  if (mode === "vsearch") return engine.vsearch(text, opts);
  return engine.query(text, { ...opts, tier });
}

const FILTERS: readonly OptionName[] = ["limit", "collection", "language", "as-of", "include-superseded", "json"];

/** The command for one mode: `search` and `vsearch` take no --tier. */
export function retrievalCommand(mode: RetrievalMode): Command {
  return {
    options: mode === "query" ? ["db", "tier", ...FILTERS] : ["db", ...FILTERS],
    arguments: oneArgument(mode),
    run: onIndex(async (engine, { values, args, io, limit, filters }) => {
      const response = await retrieve(engine, mode, args[0]!, { ...(limit ? { limit } : {}), ...filters }, parseTier(values.tier));
      io.stdout(values.json ? `${JSON.stringify(response, null, 2)}\n` : formatResponse(response));
      return 0;
    }),
  };
}

function formatResponse(response: SearchResult): string {
  if (response.results.length === 0)
    return `no results for ${quoteInput(response.query)} (${response.mode}, ${response.elapsedMs.toFixed(1)} ms)\n`;
  const lines = response.results.map(
    (h) =>
      `${String(h.rank).padStart(2)}. ${h.docId}  ${h.score.toFixed(4)}  ${h.title}${h.heading ? ` › ${h.heading}` : ""}` +
      `${h.validity?.stale ? `  [STALE: ${h.validity.reason}]` : ""}\n    ${h.snippet}`,
  );
  return `${lines.join("\n")}\n(${response.mode}, ${response.results.length} results, ${response.elapsedMs.toFixed(1)} ms)\n`;
}
