/**
 * Inside an eval file: the run's target, opened once per worker process, with what identifies it.
 * Global setup opens the target first (a target that does not answer stops the run with one line)
 * and provides what it found (`inject("evalTarget")`): eval files decide at load time which evals
 * the target can run (helpers/define-eval.ts) and which suites they define, and skip the rest
 * saying why, reported (helpers/targets/skips.ts). Which target, and everything about its kind,
 * comes from the kind's module (helpers/targets/kinds/): nothing here branches on a kind.
 */
import { inject } from "vitest";
import type { Preset } from "@hybrid-search/target-contract/types";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import type { SuiteFingerprint } from "../setup-db.js";
import type { KindFacts, OpenContext, Variant } from "./kind.js";
import { runPlan } from "../run-plan.js";
import { kindOf, type TargetPlan } from "./kinds/index.js";
import { observedFingerprint } from "./observe.js";
import { seedTarget } from "./seed.js";
import { missingCapability, type Target, type TargetCapabilities, type TargetNeeds } from "./target.js";

/** What global setup found about the target, shared with the eval files. */
export interface TargetInfo extends KindFacts {
  kind: string;
  name: string;
  label: string;
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

/** What the eval files know of a target before it answers: its kind's facts, its name and label, its capabilities, its fingerprint. */
export function targetInfo(plan: TargetPlan, measured: MeasuredTarget): TargetInfo {
  const { reach, suiteIndex, seedsInEveryProcess, knownCapabilities } = kindOf(plan);
  const { kind, name, label, capabilities } = measured.target;
  return { kind, name, label, reach, suiteIndex, seedsInEveryProcess, knownCapabilities, capabilities, fingerprint: measured.fingerprint };
}

/**
 * What the eval files know of a target whose capabilities are known without opening it (the
 * engine on the suite's index, named by the run's model configuration), once its index is built.
 */
export function knownTargetInfo(plan: TargetPlan, configuration: string, fingerprint: SuiteFingerprint): TargetInfo | null {
  const kind = kindOf(plan);
  if (!kind.knownCapabilities) return null;
  const { reach, suiteIndex, seedsInEveryProcess, knownCapabilities } = kind;
  const name = kind.givenName(plan.config) ?? configuration;
  const label = kind.label(name, configuration);
  return {
    kind: kind.name,
    name,
    label,
    reach,
    suiteIndex,
    seedsInEveryProcess,
    knownCapabilities,
    capabilities: knownCapabilities,
    fingerprint,
  };
}

/**
 * The target's facts as global setup found them; without global setup (an eval file run on its
 * own), what the environment says, every capability assumed: a call the target then cannot answer
 * fails its case.
 */
export function providedTarget(): Omit<TargetInfo, "fingerprint"> {
  const provided = inject("evalTarget") as TargetInfo | undefined;
  if (provided) return provided;
  const plan = runPlan().target;
  const kind = kindOf(plan);
  const name = kind.givenName(plan.config) ?? kind.name;
  return {
    kind: kind.name,
    name,
    label: kind.label(name, name),
    reach: kind.reach,
    suiteIndex: kind.suiteIndex,
    seedsInEveryProcess: kind.seedsInEveryProcess,
    knownCapabilities: kind.knownCapabilities,
    capabilities: kind.knownCapabilities ?? { modes: CONTRACT_MODES, ask: true, expand: true, trace: false, turn: true },
  };
}

/**
 * Opens the target `plan` names: with the fingerprint of what it holds, and, when the run seeds it,
 * how. `context.suiteIndex` is only asked of a kind that measures the suite's own index.
 */
export async function openTarget(plan: TargetPlan, context: OpenContext) {
  return kindOf(plan).open(plan.config, context);
}

/**
 * The target of `plan` opened in this process and ready to be called: a kind whose state lives in
 * the process that loaded it (a module that takes documents) is handed the dataset's corpus here,
 * once per run (a watch-mode rerun hands it the corpus as it is then); global setup seeds its own
 * copy, and removes the collection when the run ends. A seed that fails fails every case with its
 * one line.
 */
export async function readyTarget(plan: TargetPlan, context: OpenContext): Promise<MeasuredTarget> {
  const opened = await openTarget(plan, context);
  if (!kindOf(plan).seedsInEveryProcess || !opened.seed || !opened.seedable) return opened;
  const quiet = { say: () => undefined, warn: () => undefined };
  const session = await seedTarget(opened.seedable, context.dataset, { ...opened.seed, keep: true }, quiet);
  return { target: opened.target, fingerprint: observedFingerprint(session.fingerprint, context.dataset, session.collection) };
}

/** What an eval needs of the target: capabilities, or the in-repo engine on the suite's own index (the lanes). */
export interface EvalTargetNeeds extends TargetNeeds {
  /** It measures the in-repo engine's text analysis on an index of its own: no other target can stand in. */
  suiteIndex?: boolean;
}

/** Why the run's target cannot run an eval that needs `needs`, or null when it can. */
export function skipReason(needs: EvalTargetNeeds): string | null {
  const target = providedTarget();
  if (needs.suiteIndex && !target.suiteIndex)
    return `it measures the in-repo engine's text analysis on its own index, and target ${target.name} is ${kindOf(target).title}`;
  return missingCapability(target, needs);
}

/** The suites of an eval that asks the run's target for answers: one per preset with models in-process, else one. */
export function answerSuites(presets: readonly Preset[] | null): Variant[] {
  const target = providedTarget();
  return kindOf(target).answerSuites(target.label, presets);
}

/** The suites of the agent eval, as `answerSuites`. */
export function agentSuites(presets: readonly Preset[] | null): Variant[] {
  const target = providedTarget();
  return kindOf(target).agentSuites(target.label, presets);
}
