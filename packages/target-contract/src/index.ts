/**
 * @hybrid-search/target-contract — what a search or question-answering service and the eval suite
 * exchange, and what both sides of a call share. `engine serve` implements it, the suite's targets
 * consume it; it imports nothing of the workspace.
 *
 *   contractProblems("SearchRequest", body);          // [] when it fits, else one line per problem
 *   CONTRACT_MODES;                                   // search, vsearch, fast, balanced, thorough
 *   await new Limiter(4, 64).run(() => handle(req));  // at most 4 at once, 64 waiting, else Busy
 *
 * Subpaths: `/types` (every message as a type), `/messages` (message names, modes, the default
 * documents limit), `/validate` (the validators and how they load), `/limiter` (`Limiter`, `Busy`),
 * `/errors` (the error shape), `/redact` (credential redaction), `/build-validators` (the build
 * step), `/schemas/target.schema.json` (the schema itself).
 */
export { contractProblems } from "./validate.js";
export { CONTRACT_MODES, type ContractMessage } from "./messages.js";
export { Limiter } from "./limiter.js";
export type { Mode } from "./types.js";
