/**
 * AJV's errors as one plain line each, `<instance path>: <problem>`, for reports that fail
 * `report.schema.json`. The missing fields of one object are one problem that names them all
 * (up to `MAX_NAMED`), so a report missing `summary` and `cases` says exactly that. A line quotes
 * at most `MAX_QUOTED` characters of what it was given (a path can hold any key of the input).
 * An `if` error (the schema's version-dependent fields) says nothing the errors of its branch
 * do not, and is left out.
 */
import type { ErrorObject } from "ajv";

const MAX_NAMED = 8;
const MAX_QUOTED = 200;

export function schemaProblems(errors: readonly ErrorObject[]): string[] {
  const missing = new Map<string, string[]>();
  const problems: Array<string | { missingAt: string }> = [];
  for (const e of errors) {
    // "must match then schema" only repeats the problems the `then` branch already named.
    if (e.keyword === "if") continue;
    const where = e.instancePath === "" ? "top level" : clip(e.instancePath);
    if (e.keyword === "required") {
      const field = (e.params as { missingProperty: string }).missingProperty;
      if (!missing.has(where)) {
        missing.set(where, []);
        problems.push({ missingAt: where });
      }
      missing.get(where)!.push(field);
    } else if (e.keyword === "additionalProperties") {
      problems.push(`${where}: unknown field "${clip((e.params as { additionalProperty: string }).additionalProperty)}"`);
    } else problems.push(`${where}: ${e.message ?? e.keyword}`);
  }
  return problems.map((p) => (typeof p === "string" ? p : missingFields(p.missingAt, missing.get(p.missingAt)!)));
}

function missingFields(where: string, fields: readonly string[]): string {
  const named = fields.slice(0, MAX_NAMED).map((f) => `"${f}"`);
  const more = fields.length > MAX_NAMED ? ` and ${fields.length - MAX_NAMED} more` : "";
  return `${where}: missing required field${fields.length > 1 ? "s" : ""} ${named.join(", ")}${more}`;
}

const clip = (text: string): string => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);
