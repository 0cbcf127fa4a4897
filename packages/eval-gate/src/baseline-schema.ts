/**
 * The published schema of the baseline file (`baseline.schema.json`, draft-07) and the check
 * against it, compiled like the report's checks (standalone-validators.ts: the build's code when
 * it is current, else Ajv at run time).
 *
 * A value that does not fit is told one problem, in one line, in the words of the schema: each
 * level of the schema that can be wrong carries an `x-problem` (an annotation keyword, declared to
 * Ajv), and an error is named by the innermost schema on its path that has one, at the instance
 * path that schema checks — so a case id that is not a string names the list it sits in, and a
 * log entry missing its date names the entry. `{value}` in a problem quotes the value found there
 * (at most 200 characters, `quoteInput`). Of several problems, the one in the field the file
 * lists first is told (the schema's order: version, tolerance, modeTolerance, floors, …).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ErrorObject, Options } from "ajv";
import { quoteInput } from "./errors.js";
import { VALIDATORS_DIR } from "./report-schema.js";
import { loadValidator, type ValidatorSource } from "./standalone-validators.js";

/** The published schema of the baseline file (draft-07), shipped with this package. */
export const BASELINE_SCHEMA_PATH = fileURLToPath(new URL("../baseline.schema.json", import.meta.url));

/** The annotation that says what a value that does not fit a schema is told. */
const PROBLEM = "x-problem";

const OPTIONS: Options = { allErrors: true, strict: true, keywords: [PROBLEM] };

interface SchemaNode {
  [PROBLEM]?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
}

let schema: SchemaNode | undefined;

const baselineSchema = (): SchemaNode => (schema ??= JSON.parse(readFileSync(BASELINE_SCHEMA_PATH, "utf8")) as SchemaNode);

/** What the baseline check is compiled from: for the build, which generates its code (build-validators.ts). */
export function baselineCheckSource(): ValidatorSource {
  return { options: OPTIONS, schema: baselineSchema() };
}

let validate: ReturnType<typeof loadValidator> | undefined;

/** One problem of a (version 2) baseline value: where (`top level`, `/floors/offline/…`) and what; null when it fits. */
export function baselineProblem(value: unknown): { where: string; what: string } | null {
  validate ??= loadValidator(baselineCheckSource(), VALIDATORS_DIR);
  if (validate(value)) return null;
  const root = baselineSchema();
  const order = Object.keys(root.properties ?? {});
  const rank = (e: ErrorObject): number => {
    const field = e.keyword === "required" ? (e.params as { missingProperty: string }).missingProperty : segments(e.instancePath)[0];
    const at = field === undefined ? -1 : order.indexOf(field);
    return at === -1 ? (field === undefined ? -1 : order.length) : at;
  };
  // Array.prototype.sort is stable: within a field, Ajv's order (the document's) stands.
  const first = [...(validate.errors ?? [])].sort((a, b) => rank(a) - rank(b))[0]!;
  return told(first, root, value);
}

/** The problem an Ajv error is told: the innermost `x-problem` on its schema path, at the instance path that schema checks. */
function told(error: ErrorObject, root: SchemaNode, value: unknown): { where: string; what: string } {
  const instance = segments(error.instancePath);
  const path = error.schemaPath.replace(/^#\/?/, "").split("/").map(unescapeKey);
  let node: SchemaNode | undefined = root;
  let depth = 0;
  let named = { node: root, depth: 0 };
  for (let i = 0; i < path.length && node; i++) {
    const keyword = path[i]!;
    if (keyword === "properties") {
      node = node.properties?.[path[++i]!];
      depth++;
    } else if (keyword === "additionalProperties" || keyword === "items") {
      const next: SchemaNode | boolean | undefined = node[keyword];
      node = typeof next === "object" ? next : undefined;
      depth++;
    } else break;
    if (node?.[PROBLEM] !== undefined) named = { node, depth };
  }
  let at = instance.slice(0, named.depth);
  let problem = named.node[PROBLEM] ?? error.message ?? error.keyword;
  if (error.keyword === "required" && node) {
    // A missing field is told what its own schema says, at its own path (its value: undefined).
    const missing = (error.params as { missingProperty: string }).missingProperty;
    const own = node.properties?.[missing]?.[PROBLEM];
    if (own !== undefined && named.depth === instance.length) {
      at = [...instance, missing];
      problem = own;
    }
  }
  const found = at.reduce<unknown>(
    (v, key) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined),
    value,
  );
  return {
    where: at.length === 0 ? "top level" : `/${at.join("/")}`,
    what: problem.replace("{value}", () => quoteInput(found)),
  };
}

/** A JSON pointer's keys, unescaped (`~1` is `/`, `~0` is `~`). */
function segments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeKey);
}

const unescapeKey = (key: string): string => key.replace(/~1/g, "/").replace(/~0/g, "~");
