/**
 * Which target a run measures, from the environment: `EVAL_TARGET` (a service's URL, speaking the
 * contract or described by `EVAL_TARGET_ADAPTER`; or a target module's path), `EVAL_RUN_DIR`
 * (recorded runs), or neither (the in-process engine, the default). Also what keys its floors and
 * what the report records of it, so that targets never share or overwrite each other's floors.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { type LoadedAdapter, loadAdapter } from "./adapter-file.js";
import { type HttpTargetConfig, httpTargetConfig } from "./http-target.js";
import { type ModuleTargetConfig, moduleTargetConfig } from "./module-target.js";
import { type Target, targetLabel } from "./target.js";

export type TargetChoice =
  | { kind: "in-process" }
  | { kind: "http"; config: HttpTargetConfig; adapter?: LoadedAdapter }
  | { kind: "module"; config: ModuleTargetConfig }
  | { kind: "recorded"; folder: string; name?: string };

/** A URL (`scheme://…`), as opposed to a path. */
const URL_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The target the environment names; a ConfigError (one line, exit 2) when it is malformed or ambiguous. */
export function targetChoice(env: NodeJS.ProcessEnv = process.env): TargetChoice {
  const target = env.EVAL_TARGET?.trim();
  const runDir = env.EVAL_RUN_DIR?.trim();
  if (target && runDir) throw new ConfigError("EVAL_TARGET and EVAL_RUN_DIR are both set; a run measures one target");
  if (target && !URL_FORM.test(target)) return { kind: "module", config: moduleTargetConfig(target, env) };
  const http = httpTargetConfig(env);
  const adapterFile = env.EVAL_TARGET_ADAPTER?.trim();
  if (http) return { kind: "http", config: http, ...(adapterFile ? { adapter: loadAdapter(adapterFile, env) } : {}) };
  if (adapterFile) throw new ConfigError("EVAL_TARGET_ADAPTER describes how to call the service EVAL_TARGET names; EVAL_TARGET is not set");
  for (const key of ["EVAL_TARGET_SEED", "EVAL_TARGET_KEEP_SEED"])
    if (env[key]?.trim()) throw new ConfigError(`${key} seeds the service EVAL_TARGET names; EVAL_TARGET is not set`);
  if (runDir) {
    const name = env.EVAL_TARGET_NAME?.trim();
    if (name && !/^[A-Za-z0-9._-]{1,64}$/.test(name))
      throw new ConfigError(
        `EVAL_TARGET_NAME must be 1–64 letters, digits, ".", "_" or "-" (it keys the floors), got ${JSON.stringify(name.slice(0, 80))}`,
      );
    return { kind: "recorded", folder: runDir, ...(name ? { name } : {}) };
  }
  if (env.EVAL_TARGET_NAME?.trim()) throw new ConfigError("EVAL_TARGET_NAME names an EVAL_TARGET or EVAL_RUN_DIR target; neither is set");
  return { kind: "in-process" };
}

/**
 * What the floors of a run on `target` are keyed by (the report's `mode`): the in-process engine
 * keeps its model configuration's name (`offline`, …); a service is `http:<name>`, a target
 * module `module:<name>`, recorded runs `run:<name>`.
 */
export function targetMode(target: Pick<Target, "kind" | "name">, configuration: string): string {
  if (target.kind === "in-process") return configuration;
  return targetLabel(target);
}

/** Where a target is, for a report: an HTTP target's origin only (a path or query could carry a secret), a module's path. */
export function targetLocation(choice: TargetChoice): string {
  if (choice.kind === "http") return new URL(choice.config.url).origin;
  if (choice.kind === "recorded") return choice.folder;
  if (choice.kind === "module") return choice.config.given;
  return "in-process";
}

/** sha256 over a recorded run folder's files (names and bytes): what the run info calls its corpus. */
export function runFolderHash(folder: string): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(folder).sort()) {
    if (!/\.(run|jsonl)$/.test(name)) continue;
    hash
      .update(name)
      .update("\0")
      .update(readFileSync(join(folder, name)))
      .update("\0");
  }
  return hash.digest("hex");
}
