/**
 * Reading a run report back (`pnpm eval:compare`, tests): JSON, validated against the published
 * schema `docs/report.schema.json` (draft-07) with AJV. Anything else is a one-line ConfigError.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { ConfigError } from "../engine-options.js";
import { formatValidationErrors, REPO_ROOT } from "../fixtures.js";
import type { Report } from "./report.js";

export const REPORT_SCHEMA_PATH = join(REPO_ROOT, "docs/report.schema.json");

let validate: ValidateFunction | undefined;

/** Problems of `value` as a report, in plain words; empty when it is one. */
export function reportProblems(value: unknown): string[] {
  validate ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
    JSON.parse(readFileSync(REPORT_SCHEMA_PATH, "utf8")) as object,
  );
  return validate(value) ? [] : formatValidationErrors(validate.errors ?? []);
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
      `${path}: not a pnpm eval report (docs/report.schema.json): ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`,
    );
  }
  return value as Report;
}
