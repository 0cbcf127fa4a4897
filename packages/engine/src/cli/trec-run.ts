/** `run <queries.jsonl>`: a batch of queries in, a TREC run file out (`qid Q0 docid rank score tag`). */
import { writeFileSync } from "node:fs";
import { EngineError, quoteInput } from "../errors.js";
import { readQueriesJsonl } from "../formats/jsonl.js";
import { formatTrecRun } from "../formats/trec-run.js";
import { checkWritable, type Command, onIndex, oneArgument, parseTier, UsageError } from "./command.js";
import { type RetrievalMode, retrieve } from "./retrieve.js";

const MODES: readonly RetrievalMode[] = ["search", "vsearch", "query"];

export const trecRunCommand: Command = {
  options: ["db", "mode", "tier", "limit", "out", "tag", "collection", "language", "as-of", "include-superseded"],
  arguments: oneArgument("run"),
  run: onIndex(async (engine, { values, args, io, limit, filters }) => {
    const mode = values.mode ?? "query";
    if (!(MODES as readonly string[]).includes(mode))
      throw new UsageError(`--mode must be search, vsearch or query, got ${quoteInput(mode)}`);
    if (values.tier !== undefined && mode !== "query") throw new UsageError(`--tier applies to --mode query only`);
    const tier = parseTier(values.tier);
    const queries = readQueriesJsonl(args[0]!);
    const tag = values.tag ?? (mode === "query" ? `hybrid-${tier}` : mode);
    if (values.out) checkWritable(values.out);
    let run = "";
    for (const q of queries) {
      const response = await retrieve(engine, mode as RetrievalMode, q.text, { limit: limit ?? 100, ...filters }, tier);
      const seen = new Set<string>();
      for (const hit of response.results) {
        if (seen.has(hit.docId))
          throw new EngineError(
            "BAD_ARGUMENT",
            `document id ${quoteInput(hit.docId)} occurs in two collections; pick one with --collection`,
          );
        seen.add(hit.docId);
      }
      run += formatTrecRun(q.id, response.results, tag);
    }
    if (values.out) {
      writeFileSync(values.out, run);
      io.stderr(`engine: wrote ${queries.length} queries to ${values.out} (tag ${tag})\n`);
    } else io.stdout(run);
    return 0;
  }),
};
