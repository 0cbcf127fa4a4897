/**
 * Recorded runs (`EVAL_RUN_DIR=<folder>`, recorded-target.ts): the outputs of a system the suite
 * cannot call, read, never called. EVAL_TARGET_NAME names it (default: the folder's name).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TargetKind } from "../kind.js";
import { targetName } from "../settings.js";
import { CONTRACT_MODES, gradingLine, remoteVariants } from "./shared.js";

export interface RecordedConfig {
  folder: string;
  name?: string;
}

const label = (name: string) => `run:${name}`;

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

export const recorded: TargetKind<RecordedConfig> = {
  name: "recorded",
  title: "recorded runs",
  reach: "recorded",
  suiteIndex: false,
  seedsInEveryProcess: false,
  knownCapabilities: null,
  settings: ["EVAL_TARGET_NAME"],
  namedBy: "EVAL_RUN_DIR",
  claims: (env) => !!env.EVAL_RUN_DIR?.trim(),
  fromEnv(env) {
    const name = targetName(env);
    return { folder: env.EVAL_RUN_DIR!.trim(), ...(name ? { name } : {}) };
  },
  givenName: (config) => config.name ?? null,
  async open(config, { dataset }) {
    const [{ openRecordedTarget }, { observedFingerprint }] = await Promise.all([import("../recorded-target.js"), import("../observe.js")]);
    const target = openRecordedTarget(config.folder, new Set(dataset.cases.map((c) => c.id)), config.name, label);
    return { target, fingerprint: observedFingerprint({ corpusHash: runFolderHash(target.folder) }, dataset), seed: null };
  },
  label,
  floorsKey: label,
  location: (config) => config.folder,
  async explain(config, { query, question }) {
    const queryLine = query ? `query ${query.id} ${JSON.stringify(query.query)}` : "no query (the dataset has none)";
    const lines = [
      `target: ${label(config.name ?? config.folder)}: recorded runs in ${config.folder}, read, never called`,
      `  ranking, for ${queryLine}: the lines of ${query?.id ?? "its id"} in ${CONTRACT_MODES.map((mode) => `${mode}.run`).join(", ")}`,
    ];
    if (question)
      lines.push(
        `  answering, for question ${question.id} ${JSON.stringify(question.question)}: the line with "id": ${JSON.stringify(question.id)} in answers.jsonl`,
      );
    return lines;
  },
  answerSuites: remoteVariants,
  agentSuites: remoteVariants,
  modelsLine: gradingLine,
  runModels: (label, config, models) => ({ target: `${label} (${config.folder})`, judge: models.ids.judge ?? null }),
};
