/**
 * Query expansion (thorough): the engine's expander — deterministic offline, a model when
 * configured — against this index's vocabulary. An expander failure never fails the query: it
 * runs unexpanded, and the trace says why.
 */
import type { EngineCore } from "../../core.js";
import { errorLine } from "../../errors.js";
import type { IndexState } from "../../store/index-state.js";
import type { Expansion, ExpansionResult } from "../../types.js";
import type { QueryContext } from "../context.js";
import { stage } from "../trace.js";

/** Expands `text` (already cut to MAX_QUERY_CHARS); on failure, the query unexpanded with a `fallback`. */
export async function expandQuery(
  core: EngineCore,
  state: IndexState,
  text: string,
  headers?: Record<string, string>,
): Promise<ExpansionResult> {
  try {
    return await core.expander.expand(text, { vocabulary: state.vocabulary, ...(headers ? { headers } : {}) });
  } catch (error) {
    return {
      expansion: { lexicalQueries: [text], vectorQueries: [text] },
      expander: core.expander.id,
      fallback: { reason: `expander failed: ${errorLine(error)}` },
    };
  }
}

export const expansion = stage("expansion", async (ctx: QueryContext) => {
  const text = ctx.query.used;
  const result = await expandQuery(ctx.core, ctx.state, text);
  const value: Expansion = result.expansion;
  return {
    value,
    input: { query: text, expander: result.expander },
    output: { ...result.expansion, ...(result.fallback ? { fallback: result.fallback } : {}) },
    note: result.fallback ? `ran unexpanded: ${result.fallback.reason}` : undefined,
  };
});
