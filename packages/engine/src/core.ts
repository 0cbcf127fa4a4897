/**
 * What an open engine is made of: the index file and its handle, the models, the resolved
 * parameters and the stores every call reads. `Engine` (engine.ts) is a facade over one core; the
 * query pipeline (pipeline/) and `ask` (answer/ask.ts) are functions of it, so a new
 * orchestration over the same stages takes a core, never the facade.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Answerer } from "./answer/answerer.js";
import { ExtractiveAnswerer } from "./answer/extractive.js";
import { ModelAnswerer } from "./answer/model-answerer.js";
import { DEFAULT_CALL_POLICY } from "./call-policy.js";
import { defaultEmbedder } from "./embed/embedder.js";
import type { ChunkerConfig } from "./ingest/chunk.js";
import { checkOpenOptions, type OpenEngineOptions } from "./options/call-options.js";
import { resolveParameters } from "./options/parameters.js";
import { Bm25Retriever } from "./retrieval/bm25.js";
import { DeterministicExpander } from "./retrieval/deterministic-expander.js";
import { HeuristicReranker } from "./retrieval/heuristic-reranker.js";
import { openIndex, type Db } from "./store/database.js";
import { IndexStateCache } from "./store/index-state.js";
import type { IndexerContext } from "./store/indexer.js";
import { PassageStore } from "./store/passages.js";
import type { AnalyzerConfig } from "./text/analyze.js";
import type { CallPolicy, EmbeddingModel, HybridConfig, IndexWorkerMode, QueryExpander, RerankingModel } from "./types.js";
import { PRESETS, type Preset } from "./types.js";

export interface EngineCore {
  readonly file: string;
  readonly db: Db;
  readonly embedder: EmbeddingModel;
  readonly reranker: RerankingModel;
  readonly expander: QueryExpander;
  readonly analyzer: AnalyzerConfig;
  readonly chunker: ChunkerConfig;
  readonly hybrid: HybridConfig;
  readonly languageModels: Partial<Record<Preset, LanguageModelV3>>;
  /** What drives an agent turn per preset: `agentModels`, else the answer model (EngineOptions). */
  readonly agentModels: Partial<Record<Preset, LanguageModelV3>>;
  /** Limits of every model call: answers, embeddings, reranking. */
  readonly modelLimits: CallPolicy;
  /** Where an index run prepares its passages (`EngineOptions.indexWorker`). */
  readonly indexWorker: IndexWorkerMode;
  /** The lexical scorer behind sources and evidence of `ask()` (the heuristic reranker's features), whatever reranks. */
  readonly lexicalScorer: HeuristicReranker;
  /** A preset's answerer when it has a language model; the others answer with `extractive`. */
  readonly answerers: Partial<Record<Preset, Answerer>>;
  readonly extractive: Answerer;
  readonly bm25: Bm25Retriever;
  readonly passages: PassageStore;
  /** What the engine has read of the index, until it changes. */
  readonly index: IndexStateCache;
}

/** Opens (or, with `create`, creates) the index at `file` with every option checked first. Throws EngineError when it cannot. */
export function openEngineCore(file: string, options: OpenEngineOptions = {}): EngineCore {
  const { busyTimeoutMs } = checkOpenOptions(file, options);
  const db = openIndex(file, { create: options.create ?? false, busyTimeoutMs });
  try {
    return createCore(file, db, options);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Stops the vector scan's helper thread, if any, and closes the index. */
export function closeEngineCore(core: EngineCore): void {
  core.index.close();
  core.db.close();
}

function createCore(file: string, db: Db, options: OpenEngineOptions): EngineCore {
  const embedder = options.embedder ?? defaultEmbedder();
  const { analyzer, chunker, hybrid } = resolveParameters(options, embedder);
  const lexicalScorer = new HeuristicReranker(analyzer);
  const languageModels = { ...options.languageModels };
  const answerers: Partial<Record<Preset, Answerer>> = {};
  for (const preset of PRESETS) {
    const model = languageModels[preset];
    if (model) answerers[preset] = new ModelAnswerer(model);
  }
  return {
    file,
    db,
    embedder,
    reranker: options.reranker ?? lexicalScorer,
    expander: options.expander ?? new DeterministicExpander(analyzer),
    analyzer,
    chunker,
    hybrid,
    languageModels,
    agentModels: Object.fromEntries(
      PRESETS.flatMap((preset) => {
        const model = options.agentModels?.[preset] ?? languageModels[preset];
        return model ? [[preset, model]] : [];
      }),
    ),
    modelLimits: { ...(options.modelLimits ?? DEFAULT_CALL_POLICY) },
    indexWorker: options.indexWorker ?? "auto",
    lexicalScorer,
    answerers,
    extractive: new ExtractiveAnswerer(lexicalScorer),
    bm25: new Bm25Retriever(db, hybrid.columnWeights),
    passages: new PassageStore(db),
    index: new IndexStateCache(db, file, analyzer, embedder),
  };
}

/** What an index run needs of the core. */
export function indexerContext(core: EngineCore): IndexerContext {
  return {
    db: core.db,
    file: core.file,
    analyzer: core.analyzer,
    chunker: core.chunker,
    embedder: core.embedder,
    modelLimits: core.modelLimits,
    indexWorker: core.indexWorker,
  };
}
