/**
 * The expansion output's JSON Schema — the single definition in `fixtures/schemas/expansion.schema.json`
 * — and its AJV validator, shared by the model expander and the evals.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ErrorObject } from "ajv";
import { createAjv } from "../ajv.js";
import type { Expansion } from "../types.js";

export const EXPANSION_SCHEMA_PATH = resolve(import.meta.dirname, "../../../../fixtures/schemas/expansion.schema.json");

let compiled: { schema: Record<string, unknown>; validate: (value: unknown) => boolean; errors: () => ErrorObject[] } | undefined;

function load(): NonNullable<typeof compiled> {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(EXPANSION_SCHEMA_PATH, "utf8")) as Record<string, unknown>;
    // Same options as the fixture loader, so errors read the same wherever they are shown.
    const ajv = createAjv({ allErrors: true, verbose: true, strict: true, strictRequired: false });
    const fn = ajv.compile(schema);
    compiled = { schema, validate: (v) => fn(v) as boolean, errors: () => [...(fn.errors ?? [])] };
  }
  return compiled;
}

/** The schema object (a copy), e.g. for `generateObject`. */
export function expansionSchema(): Record<string, unknown> {
  return structuredClone(load().schema);
}

/** AJV's errors for `value`, empty when it is a valid expansion. */
export function expansionErrors(value: unknown): ErrorObject[] {
  const c = load();
  return c.validate(value) ? [] : c.errors();
}

export function isValidExpansion(value: unknown): value is Expansion {
  return expansionErrors(value).length === 0;
}
