export { selectModels, describeModels, engineModelOptions, redact, PRESETS, GOOGLE_PRESETS, GOOGLE_EMBEDDING_MODEL } from "./select.js";
export type { ModelSelection, ModelMode, Preset } from "./select.js";
export { ModelExpander, EXPAND_PROMPT_PATH } from "./model-expander.js";
export { expansionSchema, expansionErrors, isValidExpansion, EXPANSION_SCHEMA_PATH } from "./expansion-schema.js";
export { EXTRACTIVE_ANSWERER } from "../answer/extractive.js";
export { OFFLINE_POLICY_LABEL, OFFLINE_POLICY_MODEL } from "../agent/offline-policy.js";
