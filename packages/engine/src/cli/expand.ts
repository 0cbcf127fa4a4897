/** `expand "<query>"`: the thorough tier's expansion of a query; with --db against the index's vocabulary. */
import { Engine } from "../engine.js";
import { DeterministicExpander } from "../retrieval/deterministic-expander.js";
import type { ExpansionResult } from "../types.js";
import { type Command, oneArgument } from "./command.js";

export const expandCommand: Command = {
  options: ["db", "json"],
  arguments: oneArgument("expand"),
  dbOptional: true,
  async run({ values, args, io, models }) {
    const query = args[0]!;
    let result: ExpansionResult;
    if (values.db !== undefined) {
      const engine = Engine.open(values.db, models);
      try {
        result = await engine.expand(query);
      } finally {
        engine.close();
      }
    } else {
      const expander = models.expander ?? new DeterministicExpander();
      const empty = { documentFrequency: () => 0, similarTerms: () => [], languages: [] };
      result = await expander.expand(query, { vocabulary: empty });
    }
    if (values.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const e = result.expansion;
      io.stdout(
        `expander: ${result.expander}${result.fallback ? ` (fell back: ${result.fallback.reason})` : ""}\n` +
          `lexical:  ${e.lexicalQueries.map((q) => JSON.stringify(q)).join(", ")}\n` +
          `vector:   ${e.vectorQueries.map((q) => JSON.stringify(q)).join(", ")}\n` +
          (e.hyde ? `hyde:     ${JSON.stringify(e.hyde)}\n` : "") +
          (e.language ? `language: ${e.language}\n` : ""),
      );
    }
    return 0;
  },
};
