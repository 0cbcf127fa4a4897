/**
 * The kinds of target, one module each (docs/targets.md): which the environment names, and each
 * one's configuration. A new kind is one module of this folder and its line in `TARGET_KINDS`; the
 * suite, the report and `--explain-target` take everything else from it (kind.ts says what a kind
 * gives).
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import type { TargetKind } from "../kind.js";
import { http } from "./http.js";
import { inProcess } from "./in-process.js";
import { module } from "./module.js";
import { recorded } from "./recorded.js";

/** Every kind; the in-process engine is the one a run measures when the environment names no other. */
export const TARGET_KINDS: readonly TargetKind<never>[] = [http, module, recorded, inProcess] as TargetKind<never>[];

const DEFAULT_KIND = inProcess as TargetKind<never>;

/** The run's target as the environment names it: its kind and its checked configuration (plain JSON). */
export interface TargetPlan {
  kind: string;
  config: unknown;
}

/**
 * The target the environment names: the one kind that claims it (the in-process engine when none
 * does), with its configuration. Two kinds named at once, or a setting that only another kind
 * reads, is a ConfigError (one line, exit 2): a typo in CI must not pass quietly.
 */
export function chooseTarget(env: NodeJS.ProcessEnv = process.env): TargetPlan {
  const claimed = TARGET_KINDS.filter((kind) => kind.claims(env));
  if (claimed.length > 1)
    throw new ConfigError(`${[...new Set(claimed.map((k) => k.namedBy))].join(" and ")} are both set; a run measures one target`);
  const kind = claimed[0] ?? DEFAULT_KIND;
  for (const other of TARGET_KINDS)
    for (const setting of other.settings) {
      if (kind.settings.includes(setting) || !env[setting]?.trim()) continue;
      const readers = TARGET_KINDS.filter((k) => k.settings.includes(setting)).map((k) => k.title);
      throw new ConfigError(
        `${setting} is a setting of ${readers.join(" or ")}, and ${kind.namedBy ? `${kind.namedBy} names ${kind.title}` : `this run measures ${kind.title} (neither EVAL_TARGET nor EVAL_RUN_DIR is set)`}; unset it`,
      );
    }
  return { kind: kind.name, config: kind.fromEnv(env) };
}

/** The kind a plan names. */
export function kindOf(plan: Pick<TargetPlan, "kind">): TargetKind<unknown> {
  const kind = TARGET_KINDS.find((k) => k.name === plan.kind);
  if (!kind)
    throw new ConfigError(`no target kind ${JSON.stringify(plan.kind)}; the kinds are ${TARGET_KINDS.map((k) => k.name).join(", ")}`);
  return kind as TargetKind<unknown>;
}
