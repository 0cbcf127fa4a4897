/**
 * The one loader and validator for fixture files: golden queries, answer cases, translation
 * groups, the lanes' cases, and the query-expansion schema. Every load parses the JSON, validates
 * it against its JSON Schema (draft-07, compiled once per schema file) and runs the fixture's lint.
 * Any problem becomes a `FixtureError` whose message is a single line naming the file, the record
 * and the problem in plain words, e.g.
 *
 *   fixtures/queries.json: query q-012 (/queries/11/category): must be one of keyword, ... (got "kw")
 *
 * Paths are configurable (`dir`, `corpusDir`, `schemaDir`), so tests can load broken copies from
 * a temp folder. These are the demo corpus's rules; a user's own dataset, in this format or
 * another, loads through helpers/datasets/ (`EVAL_DATASET`), with its own schemas and lint.
 *
 * This file is the public face; each concern lives in helpers/fixture-files/: the records (types.ts),
 * where they live (paths.ts), the error and its message format (errors.ts), AJV's errors in plain
 * words (ajv-messages.ts), invalid JSON (json-syntax.ts), loading (loader.ts, corpus.ts), and the
 * lint of each fixture kind (queries.ts, ask-cases.ts, turn-cases.ts, translations.ts,
 * lexical-lane.ts, cjk-lane.ts, temporal-lane.ts, with checks.ts and leaks.ts shared).
 */
export { formatValidationErrors } from "./fixture-files/ajv-messages.js";
export { lintAskCases, loadAskCases } from "./fixture-files/ask-cases.js";
export { lintCjkQueries, loadCjkQueries } from "./fixture-files/cjk-lane.js";
export { docLanguage, listCorpusDocs, readCorpusDoc } from "./fixture-files/corpus.js";
export { FixtureError, type FixtureIssue, formatFixtureError, isFixtureError } from "./fixture-files/errors.js";
export { isExpansion, loadExpansionSchema, validateExpansion } from "./fixture-files/expansion.js";
export { findJsonSyntaxError } from "./fixture-files/json-syntax.js";
export { containsIdentifier, leakTokens, pathLeaks } from "./fixture-files/leaks.js";
export { lexicalCollectionDocs, loadLexicalCases } from "./fixture-files/lexical-lane.js";
export { type FixtureSpec, type LintContext, loadFixture } from "./fixture-files/loader.js";
export {
  CJK_DIR,
  displayPath,
  FIXTURES_DIR,
  type FixtureLocation,
  LEXICAL_DIR,
  REPO_ROOT,
  TEMPORAL_DIR,
} from "./fixture-files/paths.js";
export { lintQueries, loadQueries } from "./fixture-files/queries.js";
export { lintRefusalMarkers, loadRefusalMarkers } from "./fixture-files/refusal-markers.js";
export { lintTemporalCases, loadTemporalCases, readTemporalCorpus } from "./fixture-files/temporal-lane.js";
export { fixtureTranslationMap, lintTranslations, loadTranslations, translationsByDoc } from "./fixture-files/translations.js";
export { lintTurnCases, loadTurnCases, type TurnCasesFile } from "./fixture-files/turn-cases.js";
export {
  ASK_CATEGORIES,
  type AskCase,
  type AskCategory,
  CJK_CATEGORIES,
  CJK_FORMS,
  CJK_LANGUAGES,
  type CjkCategory,
  type CjkForm,
  type CjkLanguage,
  type CjkQuery,
  type FixtureAskCase,
  type Grade,
  type JudgedQuery,
  type Judgments,
  type Language,
  LEXICAL_CELLS,
  LEXICAL_COLLECTIONS,
  type LexicalCase,
  type LexicalCell,
  type LexicalCollection,
  normalizeForMatch,
  QUERY_CATEGORIES,
  type Query,
  type QueryCategory,
  type RecordsFile,
  TEMPORAL_CHANGES,
  type TemporalCase,
  type TemporalChange,
  type TranslationGroup,
} from "./fixture-files/types.js";
