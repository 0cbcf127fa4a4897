/**
 * Reading a run report back (`pnpm eval:compare`, tests): JSON, validated against the published
 * schema `report.schema.json` of this package (draft-07) with AJV. Anything else is a one-line ConfigError.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { ConfigError } from "./errors.js";
import type { Report } from "./report.js";
import { schemaProblems } from "./schema-errors.js";

/** The published schema of a run report (draft-07), shipped with this package. */
export const REPORT_SCHEMA_PATH = fileURLToPath(new URL("../report.schema.json", import.meta.url));

let validate: ValidateFunction | undefined;

/** Problems of `value` as a report, in plain words; empty when it is one. */
export function reportProblems(value: unknown): string[] {
  validate ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
    JSON.parse(readFileSync(REPORT_SCHEMA_PATH, "utf8")) as object,
  );
  return validate(value) ? [] : schemaProblems(validate.errors ?? []);
}

export function readReport(path: string): Report {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${path}: cannot read a report (${(error as Error).message.split("\n")[0]})`);
  }
  const problems = reportProblems(value);
  if (problems.length > 0) {
    throw new ConfigError(
      `${path}: not a pnpm eval report (packages/eval-gate/report.schema.json): ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`,
    );
  }
  return value as Report;
}
