/**
 * A value checked against one of the contract's messages, its problems in plain words. Both sides
 * of a call check with it: `engine serve` each request, the suite's HTTP target each response, the
 * recorded-runs target each recorded answer.
 *
 * The validators are the code Ajv generates for the schemas (`ajv/dist/standalone`), written by
 * the build (build-validators.ts) to dist/validators/ in one file named by a hash of everything it
 * is compiled from: Ajv's version, its options, every schema and the message list. A process loads
 * that file (about a millisecond) instead of compiling the schemas (a tenth of a second and more);
 * after an edit to a schema the hash names no file and the schemas are compiled by Ajv on first
 * use, until the next build. Either way the errors are Ajv's own, so every message reads the same.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import { type ContractMessage, TARGET_MESSAGES } from "./messages.js";
import { TURN_MESSAGES } from "./turn.js";

// Ajv is CommonJS and checks synchronously: required when first needed, not imported (about 0.1 s of CPU).
const require = createRequire(import.meta.url);

/** The contract's JSON Schemas (draft-07), one file per concern. */
export const SCHEMAS_DIR = fileURLToPath(new URL("../schemas/", import.meta.url));

/** Where the build writes the validators' code (this package's dist/, from src/ as from dist/). */
export const VALIDATORS_DIR = fileURLToPath(new URL("../dist/validators/", import.meta.url));

/** Each schema file and the messages it defines under `definitions`: a new concern adds its file and its messages here. */
const SCHEMA_FILES: ReadonlyArray<{ file: string; messages: readonly ContractMessage[] }> = [
  { file: "target.schema.json", messages: TARGET_MESSAGES },
  { file: "turn.schema.json", messages: TURN_MESSAGES },
];

const OPTIONS: Options = { allErrors: true, strict: true, allowUnionTypes: true };

/** What the validators are compiled from. */
export interface ValidatorSources {
  /** The parsed schema files, each with its `$id`. */
  schemas: ReadonlyArray<{ $id: string }>;
  /** Each message and where its schema is: `<schema $id>#/definitions/<message>`. */
  refs: Readonly<Record<ContractMessage, string>>;
}

/** The contract's schemas as they are on disk now, and where each message is defined in them. */
export function validatorSources(schemasDir: string = SCHEMAS_DIR): ValidatorSources {
  const schemas: Array<{ $id: string }> = [];
  const refs = {} as Record<ContractMessage, string>;
  for (const { file, messages } of SCHEMA_FILES) {
    const schema = JSON.parse(readFileSync(join(schemasDir, file), "utf8")) as { $id: string };
    schemas.push(schema);
    for (const message of messages) refs[message] = `${schema.$id}#/definitions/${message}`;
  }
  return { schemas, refs };
}

let ajvVersion: string | undefined;

/** The name of the file that holds the code of `sources`' validators: a hash of Ajv's version, its options and `sources`. */
export function validatorsFile(sources: ValidatorSources): string {
  ajvVersion ??= (require("ajv/package.json") as { version: string }).version;
  const what = JSON.stringify([ajvVersion, OPTIONS, sources.schemas, sources.refs]);
  return `contract-${createHash("sha256").update(what).digest("hex").slice(0, 32)}.cjs`;
}

/** An Ajv instance holding every schema of `sources` (Ajv loaded on the first call); `source`: keep the code for the build. */
export function contractAjv(sources: ValidatorSources, source = false): Ajv {
  const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
  const ajv = new AjvClass(source ? { ...OPTIONS, code: { source: true } } : OPTIONS);
  for (const schema of sources.schemas) ajv.addSchema(schema);
  return ajv;
}

/** Finds each message's validator: built code when `validatorsDir` holds the current one, else compiled by Ajv on first use. */
export type Validators = (message: ContractMessage) => ValidateFunction;

/** The validators of `sources`, from the build's code in `validatorsDir` when it is current, else Ajv's compiled on demand. */
export function loadValidators(sources: ValidatorSources, validatorsDir: string = VALIDATORS_DIR): Validators {
  const built = join(validatorsDir, validatorsFile(sources));
  if (existsSync(built)) {
    const module = { exports: {} as Record<string, ValidateFunction> };
    // Run with this module's `require`, so the Ajv runtime the code needs (`ajv/dist/runtime/*`) resolves from here.
    new Function("module", "exports", "require", readFileSync(built, "utf8"))(module, module.exports, require);
    return (message) => module.exports[message]!;
  }
  const ajv = contractAjv(sources);
  return (message) => {
    const validate = ajv.getSchema(sources.refs[message]);
    if (!validate) throw new Error(`the contract defines no ${message}`);
    return validate;
  };
}

/** Ajv's errors in plain words, one per problem: `/limit must be <= 10000`. */
function describe(errors: readonly ErrorObject[]): string[] {
  // An if/then rule's own error only repeats the problem its `then` reported beside it.
  return errors
    .filter((e) => e.keyword !== "if")
    .map((e) => {
      const where = e.instancePath || "(the body)";
      if (e.keyword === "additionalProperties")
        return `${where}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      if (e.keyword === "required")
        return `${where}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
      if (e.keyword === "enum") return `${where}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`;
      return `${where}: ${e.message}`;
    });
}

/** Problems of `value` as `message` by `validators`, in plain words; empty when it fits. */
export function problemsBy(validators: Validators, message: ContractMessage, value: unknown): string[] {
  const validate = validators(message);
  return validate(value) ? consistencyProblems(message, value) : describe(validate.errors ?? []);
}

/**
 * What a schema cannot say of a message that fits it: a turn's token usage must add up — its total
 * at least its input and output together — or a grader of the budget would read a total the turn's
 * own parts contradict (a total of 1 beside 5,000,000 input tokens passed "stops within budget").
 */
function consistencyProblems(message: ContractMessage, value: unknown): string[] {
  if (message !== "TurnResponse") return [];
  const usage = (value as { usage?: { inputTokens: number; outputTokens: number; totalTokens: number } }).usage;
  if (!usage || usage.totalTokens >= usage.inputTokens + usage.outputTokens) return [];
  return [
    `/usage/totalTokens: ${usage.totalTokens} is less than inputTokens + outputTokens (${usage.inputTokens} + ${usage.outputTokens}): the turn's usage contradicts itself`,
  ];
}

let validators: Validators | undefined;

/** Problems of `value` as the contract's `message`, in plain words; empty when it fits. Loads the validators on first use. */
export function contractProblems(message: ContractMessage, value: unknown): string[] {
  validators ??= loadValidators(validatorSources());
  return problemsBy(validators, message, value);
}
