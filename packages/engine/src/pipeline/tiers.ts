/**
 * Every retrieval mode of the engine as a composition of steps (steps.ts), one line each, read
 * like the tier table of docs/engine.md ("Hybrid tiers"). Validity runs before every one of them
 * (run.ts), and the last step's ranking becomes the hits. A new tier is one more entry here (and
 * its name in `TIERS`, types.ts); a new stage is a module in stages/ and a step in an entry.
 */
import { compose, type Step, type SyncStep } from "./compose.js";
import { bm25Ranking, expandQueries, applyFeedback, fuseLists, rerankTop, retrieveLists, vectorRanking } from "./steps.js";
import type { Tier } from "../types.js";

export type Mode = "search" | "vsearch" | Tier;

/** The compositions a call can run, by mode; `search` stays synchronous. */
export type Compositions = { readonly search: SyncStep } & { readonly [M in Exclude<Mode, "search">]: Step };

export const COMPOSITIONS = {
  search: compose(bm25Ranking),
  vsearch: compose(vectorRanking),
  fast: compose(bm25Ranking),
  balanced: compose(retrieveLists, fuseLists, rerankTop("rerankDepth")),
  thorough: compose(expandQueries, retrieveLists, applyFeedback, fuseLists, rerankTop("thoroughRerankDepth")),
} as const satisfies Compositions;
