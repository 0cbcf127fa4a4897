/**
 * Model selection from the environment — the one place that decides which models the engine, its
 * CLI and the eval suite use:
 *
 * | variable | meaning |
 * | --- | --- |
 * | `ENGINE_PROVIDER` | `google`, `openai-compatible` or `offline`; forces the mode (default: below) |
 * | `OPENAI_COMPATIBLE_BASE_URL` | an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio), e.g. `http://127.0.0.1:11434/v1` |
 * | `OPENAI_COMPATIBLE_API_KEY` | its key, if it wants one |
 * | `GOOGLE_GENERATIVE_AI_API_KEY` | Gemini through `@ai-sdk/google` |
 * | `ENGINE_MODEL` | model id for every preset (openai-compatible: required unless the three below are set) |
 * | `ENGINE_MODEL_SLIM` / `_BALANCED` / `_QUALITY` | model id per preset |
 * | `ENGINE_JUDGE_MODEL` | the LLM judge's model id (default: the quality preset's) |
 * | `ENGINE_EXPANSION_PRESET` | preset the query expander uses (default `slim`) |
 * | `ENGINE_EMBEDDING_MODEL` | embedding model id (Google default `gemini-embedding-001`; openai-compatible: offline embedder unless set; `offline` forces it) |
 * | `ENGINE_RERANK_MODEL` | reranking model id, for a provider that has reranking models (default and `offline`: the heuristic reranker) |
 * | `ENGINE_TIMEOUT_MS` | give up on one model call (any: answer, expansion, embedding, reranking) after this long (default 60000) |
 * | `ENGINE_MAX_RETRIES` | retries of a failed or rate-limited model call, with backoff (default 2) |
 *
 * Without `ENGINE_PROVIDER`, a base URL selects openai-compatible, else a Google key selects google,
 * else everything is offline. Google presets: slim `gemini-2.5-flash-lite`, balanced
 * `gemini-2.5-flash`, quality `gemini-2.5-pro`. Keys are read here and passed to the provider
 * only: they never appear in ids, descriptions, traces or reports. A reranking model comes from the
 * provider's `rerankingModel` (AI SDK ProviderV3); neither `@ai-sdk/google` 3 nor
 * `@ai-sdk/openai-compatible` 2 has one, so there ENGINE_RERANK_MODEL other than `offline` is an error.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV3, LanguageModelV3, RerankingModelV3 } from "@ai-sdk/provider";
import { EngineError, quoteInput } from "../errors.js";
import { type CallPolicy, type EngineOptions, PRESETS, type Preset } from "../types.js";

export { PRESETS, type Preset };
import { ModelExpander, type ModelExpanderOptions } from "./model-expander.js";

export type ModelMode = "offline" | "google" | "openai-compatible";

export const GOOGLE_PRESETS: Record<Preset, string> = {
  slim: "gemini-2.5-flash-lite",
  balanced: "gemini-2.5-flash",
  quality: "gemini-2.5-pro",
};
export const GOOGLE_EMBEDDING_MODEL = "gemini-embedding-001";

export interface ModelSelection {
  mode: ModelMode;
  /** Limits of every model call: answers, expansion, embeddings, reranking. */
  limits: CallPolicy;
  /** A name for this configuration, unique per set of model ids (used to key baselines). */
  configuration: string;
  /** Model ids by role, for printing and recording; `null` where the offline component is used. */
  ids: {
    presets: Record<Preset, string> | null;
    judge: string | null;
    expansion: string | null;
    embedder: string | null;
    reranker: string | null;
  };
  /** Where requests go (no credentials), for printing. */
  endpoint: string | null;
  /** The generator of a preset, or undefined offline. */
  languageModel(preset: Preset): LanguageModelV3 | undefined;
  judgeModel(): LanguageModelV3 | undefined;
  expansionModel(): LanguageModelV3 | undefined;
  /** The embedding model, or undefined for the offline embedder. */
  embeddingModel(): EmbeddingModelV3 | undefined;
  /** The reranking model, or undefined for the offline heuristic reranker. */
  rerankingModel(): RerankingModelV3 | undefined;
}

/** One line for the start of a run: mode and every model id. */
export function describeModels(s: ModelSelection): string {
  if (s.mode === "offline")
    return "models: offline (extractive answers, agent: offline policy, heuristic judge, deterministic expander, hashed n-gram embedder)";
  const p = s.ids.presets!;
  return (
    `models: ${s.mode}${s.endpoint ? ` at ${s.endpoint}` : ""}; presets slim=${p.slim}, balanced=${p.balanced}, quality=${p.quality}; ` +
    `judge=${s.ids.judge}; expansion=${s.ids.expansion}; embedder=${s.ids.embedder ?? "offline hashed n-grams"}; ` +
    `reranker=${s.ids.reranker ?? "offline heuristic"}`
  );
}

function limitsFrom(env: NodeJS.ProcessEnv): ModelSelection["limits"] {
  // A timer longer than 2^31 − 1 ms fires at once in Node: the largest timeout that holds.
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max)
      throw new EngineError("BAD_ARGUMENT", `${name} must be a whole number from ${min} to ${max}, got ${quoteInput(raw)}`);
    return n;
  };
  return { timeoutMs: int("ENGINE_TIMEOUT_MS", 60_000, 1, 2_147_483_647), maxRetries: int("ENGINE_MAX_RETRIES", 2, 0, 10) };
}

export function selectModels(env: NodeJS.ProcessEnv = process.env): ModelSelection {
  const forced = env.ENGINE_PROVIDER?.trim();
  if (forced !== undefined && forced !== "" && !["google", "openai-compatible", "offline"].includes(forced)) {
    throw new EngineError("BAD_ARGUMENT", `ENGINE_PROVIDER must be google, openai-compatible or offline, got ${quoteInput(forced)}`);
  }
  const baseURL = env.OPENAI_COMPATIBLE_BASE_URL?.trim();
  const googleKey = env.GOOGLE_GENERATIVE_AI_API_KEY?.trim();
  const mode: ModelMode = forced ? (forced as ModelMode) : baseURL ? "openai-compatible" : googleKey ? "google" : "offline";
  const limits = limitsFrom(env);
  if (mode === "offline") {
    rerankingModelId(env, "offline mode");
    return offline(limits);
  }
  const expansionPreset = (env.ENGINE_EXPANSION_PRESET?.trim() || "slim") as Preset;
  if (!PRESETS.includes(expansionPreset))
    throw new EngineError(
      "BAD_ARGUMENT",
      `ENGINE_EXPANSION_PRESET must be one of ${PRESETS.join(", ")}, got ${quoteInput(expansionPreset)}`,
    );

  if (mode === "google") {
    if (!googleKey) throw new EngineError("BAD_ARGUMENT", "ENGINE_PROVIDER=google needs GOOGLE_GENERATIVE_AI_API_KEY");
    const presets = presetIds(env, GOOGLE_PRESETS);
    const google = createGoogleGenerativeAI({ apiKey: googleKey });
    const embedding = env.ENGINE_EMBEDDING_MODEL?.trim() || GOOGLE_EMBEDDING_MODEL;
    return build("google", null, presets, env, expansionPreset, limits, {
      languageModel: (id) => google(id),
      embeddingId: embedding === "offline" ? undefined : embedding,
      embeddingModel: (id) => google.embeddingModel(id),
      ...rerankingFrom(env, google, "@ai-sdk/google"),
    });
  }

  if (!baseURL) throw new EngineError("BAD_ARGUMENT", "ENGINE_PROVIDER=openai-compatible needs OPENAI_COMPATIBLE_BASE_URL");
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new EngineError("BAD_ARGUMENT", `OPENAI_COMPATIBLE_BASE_URL is not a URL: "${redact(baseURL)}"`);
  }
  const fallback = env.ENGINE_MODEL?.trim();
  const presets = presetIds(env, fallback ? { slim: fallback, balanced: fallback, quality: fallback } : undefined);
  const apiKey = env.OPENAI_COMPATIBLE_API_KEY?.trim();
  const provider = createOpenAICompatible({
    name: "openai-compatible",
    baseURL,
    ...(apiKey ? { apiKey } : {}),
    supportsStructuredOutputs: true,
  });
  const embedding = env.ENGINE_EMBEDDING_MODEL?.trim();
  return build(
    "openai-compatible",
    `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, "")}`,
    presets,
    env,
    expansionPreset,
    limits,
    {
      languageModel: (id) => provider.chatModel(id),
      embeddingId: embedding && embedding !== "offline" ? embedding : undefined,
      embeddingModel: (id) => provider.embeddingModel(id),
      ...rerankingFrom(env, provider, "@ai-sdk/openai-compatible"),
    },
  );
}

/** ENGINE_RERANK_MODEL, or undefined when unset or `offline`; set where nothing can rerank, a one-line error. */
function rerankingModelId(env: NodeJS.ProcessEnv, unavailable?: string): string | undefined {
  const id = env.ENGINE_RERANK_MODEL?.trim();
  if (!id || id === "offline") return undefined;
  if (unavailable) {
    throw new EngineError(
      "BAD_ARGUMENT",
      `ENGINE_RERANK_MODEL="${id}": ${unavailable} has no reranking models; unset it or set it to "offline" for the heuristic reranker`,
    );
  }
  return id;
}

/** The reranking model of ENGINE_RERANK_MODEL from a provider, if the provider has reranking models at all. */
export function rerankingFrom(
  env: NodeJS.ProcessEnv,
  provider: { rerankingModel?: (id: string) => RerankingModelV3 },
  name: string,
): Pick<ModelFactories, "rerankingId" | "rerankingModel"> {
  const rerankingModel = provider.rerankingModel?.bind(provider);
  const rerankingId = rerankingModelId(env, rerankingModel ? undefined : name);
  return rerankingId && rerankingModel ? { rerankingId, rerankingModel } : {};
}

/** How a provider makes each kind of model; an id left undefined means the offline component. */
export interface ModelFactories {
  languageModel: (id: string) => LanguageModelV3;
  embeddingId: string | undefined;
  embeddingModel: (id: string) => EmbeddingModelV3;
  rerankingId?: string;
  rerankingModel?: (id: string) => RerankingModelV3;
}

function presetIds(env: NodeJS.ProcessEnv, defaults: Record<Preset, string> | undefined): Record<Preset, string> {
  const out = {} as Record<Preset, string>;
  for (const preset of PRESETS) {
    const id = env[`ENGINE_MODEL_${preset.toUpperCase()}`]?.trim() || env.ENGINE_MODEL?.trim() || defaults?.[preset];
    if (!id)
      throw new EngineError("BAD_ARGUMENT", `no model for preset "${preset}": set ENGINE_MODEL or ENGINE_MODEL_${preset.toUpperCase()}`);
    out[preset] = id;
  }
  return out;
}

function build(
  mode: Exclude<ModelMode, "offline">,
  endpoint: string | null,
  presets: Record<Preset, string>,
  env: NodeJS.ProcessEnv,
  expansionPreset: Preset,
  limits: ModelSelection["limits"],
  { languageModel, embeddingId, embeddingModel, rerankingId, rerankingModel }: ModelFactories,
): ModelSelection {
  const judge = env.ENGINE_JUDGE_MODEL?.trim() || presets.quality;
  const cache = new Map<string, LanguageModelV3>();
  const lm = (id: string): LanguageModelV3 => {
    let m = cache.get(id);
    if (!m) {
      m = languageModel(id);
      cache.set(id, m);
    }
    return m;
  };
  const ids = { presets, judge, expansion: presets[expansionPreset], embedder: embeddingId ?? null, reranker: rerankingId ?? null };
  // The offline reranker adds nothing to the name, so configurations named before rerankers were selectable keep their names.
  const rerank = rerankingId ? `;rerank=${rerankingId}` : "";
  return {
    mode,
    limits,
    configuration: `${mode}(${[presets.slim, presets.balanced, presets.quality].join(",")};judge=${judge};embed=${embeddingId ?? "offline"}${rerank})`,
    ids,
    endpoint,
    languageModel: (preset) => lm(presets[preset]),
    judgeModel: () => lm(judge),
    expansionModel: () => lm(ids.expansion),
    embeddingModel: () => (embeddingId ? embeddingModel(embeddingId) : undefined),
    rerankingModel: () => (rerankingId && rerankingModel ? rerankingModel(rerankingId) : undefined),
  };
}

function offline(limits: ModelSelection["limits"]): ModelSelection {
  return {
    mode: "offline",
    limits,
    configuration: "offline",
    ids: { presets: null, judge: null, expansion: null, embedder: null, reranker: null },
    endpoint: null,
    languageModel: () => undefined,
    judgeModel: () => undefined,
    expansionModel: () => undefined,
    embeddingModel: () => undefined,
    rerankingModel: () => undefined,
  };
}

/** Removes credentials from a URL before it is shown anywhere. */
export function redact(url: string): string {
  return url.replace(/\/\/[^/@]*@/, "//***@").replace(/([?&](?:key|api_key|token)=)[^&]*/gi, "$1***");
}

/**
 * Engine options for a selection: the embedding model, the reranking model, one language model per
 * preset for answers and the same one for agent turns, the model expander, and the call policy of
 * them all. `wrap` lets a caller (the eval suite) wrap every language model, told the role it plays
 * (`answerer:<preset>`, `agent:<preset>`, `expander`), e.g. to count its usage and cache its calls.
 * Offline, nothing is set and the engine's offline defaults apply.
 */
export function engineModelOptions(
  selection: ModelSelection,
  wrap: (model: LanguageModelV3, role: string) => LanguageModelV3 = (m) => m,
  expanderOptions: ModelExpanderOptions = {},
): Pick<EngineOptions, "embedder" | "reranker" | "languageModels" | "agentModels" | "expander" | "modelLimits"> {
  if (selection.mode === "offline") return {};
  const languageModels: Partial<Record<Preset, LanguageModelV3>> = {};
  const agentModels: Partial<Record<Preset, LanguageModelV3>> = {};
  for (const preset of PRESETS) {
    languageModels[preset] = wrap(selection.languageModel(preset)!, `answerer:${preset}`);
    agentModels[preset] = wrap(selection.languageModel(preset)!, `agent:${preset}`);
  }
  const embedder = selection.embeddingModel();
  const reranker = selection.rerankingModel();
  return {
    ...(embedder ? { embedder } : {}),
    ...(reranker ? { reranker } : {}),
    languageModels,
    agentModels,
    modelLimits: selection.limits,
    expander: new ModelExpander(wrap(selection.expansionModel()!, "expander"), { ...selection.limits, ...expanderOptions }),
  };
}
