/**
 * AJV's errors as one plain line each, `<instance path>: <problem>`, for reports that fail
 * `report.schema.json`.
 */
import type { ErrorObject } from "ajv";

export function schemaProblems(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => {
    const where = e.instancePath === "" ? "top level" : e.instancePath;
    if (e.keyword === "required") return `${where}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
    if (e.keyword === "additionalProperties")
      return `${where}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    return `${where}: ${e.message ?? e.keyword}`;
  });
}
