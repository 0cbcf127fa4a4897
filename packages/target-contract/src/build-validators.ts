/**
 * The build step of the contract's validators (bin/entry/build-validators.ts runs it after
 * `tsc -b`): Ajv's code for every message, in one file of dist/validators/ named by what it is
 * compiled from (validate.ts), so no process compiles the schemas when it starts.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { contractAjv, VALIDATORS_DIR, validatorSources, validatorsFile } from "./validate.js";

const require = createRequire(import.meta.url);

/**
 * Writes the code of every message's validator into `dir`, emptied first; returns how many it
 * wrote. Schemas Ajv cannot compile get no file: they fail on first use with Ajv's own error, as
 * they would without the build step.
 */
export function buildContractValidators(dir: string = VALIDATORS_DIR, sources = validatorSources()): number {
  const standaloneCode = (require("ajv/dist/standalone/index.js") as typeof import("ajv/dist/standalone/index.js")).default;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let code: string;
  try {
    code = standaloneCode(contractAjv(sources, true), sources.refs);
  } catch {
    return 0;
  }
  // Written whole, then renamed: a process starting meanwhile sees the file complete or not at all.
  const file = join(dir, validatorsFile(sources));
  writeFileSync(`${file}.tmp`, code);
  renameSync(`${file}.tmp`, file);
  return Object.keys(sources.refs).length;
}
