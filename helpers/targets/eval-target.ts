/**
 * Inside an eval file: the run's target (helpers/targets/select.ts), opened once per worker
 * process, with what identifies it. The in-process engine wraps the run's shared index
 * (helpers/eval-index.ts); an HTTP target is asked for /health; recorded runs are read.
 *
 * Global setup opens the target first (a target that does not answer stops the run with one line)
 * and provides what it found (`inject("evalTarget")`): eval files decide at load time which evals
 * the target can run (`defineFor`, `skipReason`), and skip the rest saying why, reported
 * (helpers/targets/skips.ts).
 */
import { evalite } from "evalite";
import { inject } from "vitest";
import type { Dataset } from "../dataset.js";
import type { SuiteFingerprint } from "../setup-db.js";
import { openAdapterTarget } from "./adapter-target.js";
import { type HttpTarget, openHttpTarget, type SeedConfig } from "./http-target.js";
import { inProcessTarget } from "./in-process.js";
import { DEFAULT_MODULE_COLLECTION, type ModuleTarget, openModuleTarget } from "./module-target.js";
import { openRecordedTarget } from "./recorded-target.js";
import { runFolderHash, targetChoice, type TargetChoice } from "./select.js";
import { reportSkip } from "./skips.js";
import { missingCapability, type Target, type TargetCapabilities, type TargetKind, type TargetMode } from "./target.js";
import type { Engine } from "@hybrid-search/engine";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";

/** What global setup found about the target, shared with the eval files. */
export interface TargetInfo {
  kind: TargetKind;
  name: string;
  capabilities: TargetCapabilities;
  fingerprint: SuiteFingerprint;
}

declare module "vitest" {
  interface ProvidedContext {
    evalTarget: TargetInfo;
  }
}

export interface MeasuredTarget {
  target: Target;
  fingerprint: SuiteFingerprint;
}

const NOT_REPORTED = "(not reported by the target)";

/**
 * A target's fingerprint in the suite's shape; what it does not report is said to be unreported.
 * `collection`: where the target holds the dataset (EVAL_TARGET_SEED), when not the dataset's own name.
 */
export function fingerprintOf(reported: unknown, dataset: Dataset, collection = dataset.collection): SuiteFingerprint {
  const f = (typeof reported === "object" && reported !== null ? reported : { corpusHash: String(reported) }) as Partial<SuiteFingerprint>;
  return {
    schemaVersion: f.schemaVersion ?? 0,
    analyzer: f.analyzer ?? NOT_REPORTED,
    chunkers: f.chunkers ?? [],
    embedder: f.embedder ?? NOT_REPORTED,
    dimensions: f.dimensions ?? 0,
    corpusHash: f.corpusHash ?? NOT_REPORTED,
    documents: f.documents ?? 0,
    passages: f.passages ?? 0,
    dataset: dataset.name,
    collection,
  };
}

/**
 * Opens the target `choice` names. `inProcess` gives the run's engine and index fingerprint (only
 * called for the in-process target); `configuration` is the model configuration's name.
 */
export async function openTarget(
  choice: TargetChoice,
  dataset: Dataset,
  configuration: string,
  inProcess: () => Promise<{ engine: Engine; fingerprint: SuiteFingerprint }>,
): Promise<MeasuredTarget> {
  if (choice.kind === "http") {
    const target = choice.adapter ? await openAdapterTarget(choice.config, choice.adapter) : await openHttpTarget(choice.config);
    return { target, fingerprint: fingerprintOf(target.health.fingerprint, dataset, choice.config.seed?.collection) };
  }
  if (choice.kind === "module") {
    const target = await openModuleTarget(choice.config);
    return { target, fingerprint: fingerprintOf(target.health.fingerprint, dataset) };
  }
  if (choice.kind === "recorded") {
    const target = openRecordedTarget(choice.folder, new Set(dataset.cases.map((c) => c.id)), choice.name);
    return { target, fingerprint: fingerprintOf({ corpusHash: runFolderHash(target.folder) }, dataset) };
  }
  const { engine, fingerprint } = await inProcess();
  return { target: inProcessTarget(engine, configuration), fingerprint };
}

/**
 * What the run seeds `target` with, or null: a service when EVAL_TARGET_SEED names a collection;
 * a target module whenever it takes documents (its copy in each process of the run is handed the
 * corpus), into EVAL_TARGET_SEED's collection or `eval`.
 */
export function seedFor(choice: TargetChoice, target: Target): SeedConfig | null {
  if (choice.kind === "http") return choice.config.seed ?? null;
  if (choice.kind !== "module" || !(target as ModuleTarget).definition.documents) return null;
  return choice.config.seed ?? { collection: DEFAULT_MODULE_COLLECTION, keep: false, timeoutMs: 600_000 };
}

/** `target` as seeding takes it (a service or a module; seedFor said it is seeded). */
export const seedable = (target: Target): HttpTarget | ModuleTarget => target as HttpTarget | ModuleTarget;

export function targetInfo(measured: MeasuredTarget): TargetInfo {
  const { kind, name, capabilities } = measured.target;
  return { kind, name, capabilities, fingerprint: measured.fingerprint };
}

/**
 * The target's kind and capabilities as global setup found them; without global setup (an eval
 * file run on its own), what the environment says, every capability assumed: a call the target
 * then cannot answer fails its case.
 */
export function providedTarget(): Pick<TargetInfo, "kind" | "name" | "capabilities"> {
  const provided = inject("evalTarget") as TargetInfo | undefined;
  if (provided) return provided;
  const kind = targetChoice().kind;
  return { kind, name: kind, capabilities: { modes: CONTRACT_MODES, ask: true, expand: true, trace: kind === "in-process" } };
}

/** What an eval needs of the target: modes, answers, expansion, or the in-process engine itself (the lanes). */
export interface TargetNeeds {
  modes?: readonly TargetMode[];
  ask?: boolean;
  expand?: boolean;
  /** It measures the in-repo engine's text analysis on an index of its own: no other target can stand in. */
  inProcessOnly?: boolean;
}

/** Why the run's target cannot run an eval that needs `needs`, or null when it can. */
export function skipReason(needs: TargetNeeds): string | null {
  const target = providedTarget();
  if (needs.inProcessOnly && target.kind !== "in-process")
    return `it measures the in-repo engine's text analysis on its own index, and target ${target.name} is ${target.kind}`;
  return missingCapability(target, needs);
}

/** How Evalite defines an eval: `evalite`, or `evalite.each(variants)`; each has its `skip`. */
type Define = (evalName: string, opts: never) => unknown;

/**
 * `define` (`evalite` by default, or `evalite.each(variants)`), or — when the target lacks what
 * the eval needs (a mode, answers, expansion) or the eval measures the in-process engine only —
 * its `skip`, which reports each eval it is called with as skipped, with the reason
 * (helpers/targets/skips.ts): a skipped eval is never scored 0, and its floors are reported as
 * skipped.
 */
export function defineFor(needs: TargetNeeds): typeof evalite.skip;
export function defineFor<D extends Define>(needs: TargetNeeds, define: D & { skip: D }): D;
export function defineFor(needs: TargetNeeds, define: Define & { skip: Define } = evalite): Define {
  const why = skipReason(needs);
  if (why === null) return define;
  return (evalName, opts) => {
    reportSkip({ eval: evalName, reason: why });
    return define.skip(evalName, opts);
  };
}
