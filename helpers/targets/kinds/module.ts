/**
 * A target module (`EVAL_TARGET=./eval.target.ts`): a TypeScript or JavaScript module whose
 * default export is `defineTarget({...})`, loaded and called in a worker thread of its own in this
 * process (module-target.ts, module-thread.ts), where its time limit holds whatever it does.
 * EVAL_TARGET_NAME, EVAL_TARGET_TIMEOUT_MS (10000), EVAL_TARGET_CONCURRENCY (1), EVAL_TARGET_SEED
 * and EVAL_TARGET_KEEP_SEED as for a service; a module that takes documents is handed the dataset's
 * corpus in every process of the run that calls it (its state lives where it was loaded).
 */
import type { TargetKind } from "../kind.js";
import { type ModuleTargetConfig, moduleTargetConfig } from "../module-config.js";
import { URL_FORM } from "../settings.js";
import { bodyShown, CALLED_TARGET_SETTINGS, CONTRACT_MODES, gradingLine, remoteVariants, SEARCH_OPTIONS } from "./shared.js";

/** The collection a module with `documents` is handed the corpus in when EVAL_TARGET_SEED names none. */
export const DEFAULT_MODULE_COLLECTION = "eval";

/** What opening and explaining a module needs, loaded when a run measures one (jiti, the engine for its imports). */
const loadModules = () => Promise.all([import("../module-target.js"), import("../observe.js"), import("../seed.js")]);

const label = (name: string) => `module:${name}`;

export const module: TargetKind<ModuleTargetConfig> = {
  name: "module",
  title: "a target module",
  reach: "this-thread",
  suiteIndex: false,
  seedsInEveryProcess: true,
  knownCapabilities: null,
  settings: [...CALLED_TARGET_SETTINGS],
  namedBy: "EVAL_TARGET",
  claims: (env) => {
    const target = env.EVAL_TARGET?.trim();
    return !!target && !URL_FORM.test(target);
  },
  fromEnv: (env) => moduleTargetConfig(env.EVAL_TARGET!.trim(), env),
  givenName: (config) => config.name ?? null,
  async open(config, { dataset }) {
    const [{ openModuleTarget }, { observedFingerprint }] = await loadModules();
    const target = await openModuleTarget(config, label);
    const seed = target.shape.documents
      ? (config.seed ?? { collection: DEFAULT_MODULE_COLLECTION, keep: false, timeoutMs: 600_000 })
      : null;
    return { target, fingerprint: observedFingerprint(target.health.fingerprint, dataset), seedable: target, seed };
  },
  label,
  floorsKey: label,
  location: (config) => config.given,
  async explain(config, { dataset, query, question }) {
    const [{ loadTargetShape }, , { datasetDocuments }] = await loadModules();
    const definition = await loadTargetShape(config);
    const name = config.name ?? definition.name;
    const seeded = definition.documents ? (config.seed?.collection ?? DEFAULT_MODULE_COLLECTION) : undefined;
    const scope = seeded ? { collection: seeded } : {};
    const queryLine = query ? `query ${query.id} ${JSON.stringify(query.query)}` : "no query (the dataset has none)";
    const lines = [
      `target: ${label(name)} (${config.given}), called in a worker thread of this process, ${config.concurrency} call(s) at once, each within ${config.timeoutMs} ms`,
    ];
    const modes = CONTRACT_MODES.filter((m) => definition.modes.includes(m));
    if (modes.length === 0) lines.push("  ranking: none (the definition has no search functions: the retrieval evals are skipped)");
    for (const mode of modes) {
      const request = {
        query: query?.query ?? "",
        mode,
        ...SEARCH_OPTIONS,
        ...(query?.collection ? { collection: query.collection } : {}),
      };
      lines.push(`  ranking, for ${queryLine}:`, `    search.${mode}(${JSON.stringify({ ...request, ...scope })}, { signal })`);
    }
    if (question)
      lines.push(
        `  answering, for question ${question.id} ${JSON.stringify(question.question)}:`,
        definition.ask
          ? `    ask(${JSON.stringify({ question: question.question, preset: "balanced", ...scope })}, { signal })`
          : "    none (the definition has no ask: the answer evals are skipped)",
      );
    if (seeded) {
      const corpus = datasetDocuments(dataset);
      lines.push(
        `  seeding, before the first call (in each process of the run that calls it):`,
        `    documents.seed(${bodyShown(JSON.stringify({ collection: seeded, ids: corpus.ids, documents: corpus.documents }))}, { signal }) — ${corpus.documents.length} documents`,
      );
    }
    return lines;
  },
  answerSuites: remoteVariants,
  agentSuites: remoteVariants,
  modelsLine: gradingLine,
  runModels: (label, config, models) => ({ target: `${label} (${config.given})`, judge: models.ids.judge ?? null }),
};
