/**
 * JSON Schema validators compiled by the build instead of on every start. Loading Ajv and
 * compiling a schema costs from tens of milliseconds to half a second of CPU in every process
 * that checks a file (`pnpm eval` checks the fixtures before its first line, Evalite's worker
 * loads them again, the gate reads its run info); running the code Ajv generates for the same
 * schema (`ajv/dist/standalone`) takes about a millisecond, and its errors are Ajv's own, the same
 * objects (`verbose` included), so every message built from them reads the same.
 *
 * The build (`pnpm build`, which `pnpm install` runs) writes each validator's code to a file named
 * by a hash of everything it is compiled from: Ajv's version and options, the schemas it refers
 * to and the schema itself. So built code is never stale: after an edit to a schema (or to the
 * options, or another Ajv) the hash names no file, and the schema is compiled at run time, as
 * before the build step existed, until the next build (bin/check-build.mjs need not refuse to
 * start). Used by the gate's report checks (report-schema.ts) and the suite's fixture loader
 * (helpers/fixture-files/loader.ts); the judge's schemas (scorers/triad/) only compile lazily.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Ajv, Options, ValidateFunction } from "ajv";

// Ajv is CommonJS, and a check is synchronous: required when first needed, not imported (about 0.1 s).
const require = createRequire(import.meta.url);

/** What a validator is compiled from. */
export interface ValidatorSource {
  /** Ajv's options. */
  options: Options;
  /** Schemas the checked one refers to by `$id`, added to Ajv first. */
  refs?: readonly object[];
  /** The schema to check against. */
  schema: object;
}

let ajvVersion: string | undefined;

/** The name of the file holding `source`'s built code: a hash of Ajv's version and everything in `source`. */
export function validatorFile(source: ValidatorSource): string {
  ajvVersion ??= (require("ajv/package.json") as { version: string }).version;
  const what = JSON.stringify([ajvVersion, source.options, source.refs ?? [], source.schema]);
  return `${createHash("sha256").update(what).digest("hex").slice(0, 32)}.cjs`;
}

/**
 * The validator of `source`: the build's code from `dir` when it holds it, else compiled by Ajv
 * now, which throws as Ajv does when the schema is not usable.
 */
export function loadValidator(source: ValidatorSource, dir: string): ValidateFunction {
  const built = join(dir, validatorFile(source));
  return existsSync(built) ? evaluate(readFileSync(built, "utf8")) : compileValidator(source);
}

/**
 * Runs built code (a CommonJS module exporting the validator) with this module's `require`, so the
 * Ajv runtime it needs (`ajv/dist/runtime/*`) resolves from here, wherever the file lies.
 */
function evaluate(code: string): ValidateFunction {
  const module = { exports: {} as unknown };
  new Function("module", "exports", "require", code)(module, module.exports, require);
  return module.exports as ValidateFunction;
}

/** `source` compiled by Ajv now (Ajv loaded on the first call); throws as Ajv does when the schema is not usable. */
export function compileValidator(source: ValidatorSource): ValidateFunction {
  return compile(source, source.options).validate;
}

function compile(source: ValidatorSource, options: Options): { ajv: Ajv; validate: ValidateFunction } {
  const { Ajv } = require("ajv") as typeof import("ajv");
  const ajv = new Ajv(options);
  for (const ref of source.refs ?? []) ajv.addSchema(ref);
  return { ajv, validate: ajv.compile(source.schema) };
}

/**
 * The build step: writes the code of each source into `dir`, emptied first, and returns how many
 * it wrote. A schema Ajv cannot compile gets no file: it fails at run time with Ajv's own error,
 * as it would have without the build step.
 */
export function writeValidators(dir: string, sources: readonly ValidatorSource[]): number {
  const standaloneCode = (require("ajv/dist/standalone/index.js") as typeof import("ajv/dist/standalone/index.js")).default;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const source of sources) {
    let compiled: { ajv: Ajv; validate: ValidateFunction };
    try {
      compiled = compile(source, { ...source.options, code: { ...source.options.code, source: true } });
    } catch {
      continue;
    }
    // Written whole, then renamed: a process starting meanwhile sees the file complete or not at all.
    const file = join(dir, validatorFile(source));
    writeFileSync(`${file}.tmp`, standaloneCode(compiled.ajv, compiled.validate));
    renameSync(`${file}.tmp`, file);
    written++;
  }
  return written;
}
