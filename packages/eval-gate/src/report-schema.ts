/**
 * The published schema of a run report (`report.schema.json`, draft-07) and the checks against
 * it: reports read back (`report-file.ts`) and the run info the suite hands the gate
 * (`run-info.ts`). Each check is compiled on first use, from the code the build generated for it
 * when that is current (standalone-validators.ts), else by Ajv. Reads the schema file on first use.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Options } from "ajv";
import { schemaProblems } from "./schema-errors.js";
import { loadValidator, type ValidatorSource } from "./standalone-validators.js";

/** The published schema of a run report (draft-07), shipped with this package. */
export const REPORT_SCHEMA_PATH = fileURLToPath(new URL("../report.schema.json", import.meta.url));

/** Where the build writes the checks' code (this package's dist/, from src/ as from dist/). */
export const VALIDATORS_DIR = fileURLToPath(new URL("../dist/validators/", import.meta.url));

const OPTIONS: Options = { allErrors: true, strict: true, allowUnionTypes: true };

let loaded: { schema: object; id: string } | undefined;

function reportSchema(): { schema: object; id: string } {
  if (!loaded) {
    const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, "utf8")) as { $id: string };
    loaded = { schema, id: schema.$id };
  }
  return loaded;
}

type Ref = (pointer: string) => { $ref: string };

/** A check against the report schema: the value's problems in plain words, empty when it fits. */
export interface ReportSchemaCheck {
  (value: unknown): string[];
  /** What it is compiled from: for the build, which generates its code (build-validators.ts). */
  source(): ValidatorSource;
}

/**
 * A check against (part of) the report schema, compiled on first use: `schema(ref)` builds what
 * to check, `ref("/properties/mode")` pointing into the report schema (`ref("")`: a whole report).
 */
export function reportSchemaCheck(schema: (ref: Ref) => object): ReportSchemaCheck {
  const source = (): ValidatorSource => {
    const report = reportSchema();
    return { options: OPTIONS, refs: [report.schema], schema: schema((pointer) => ({ $ref: `${report.id}#${pointer}` })) };
  };
  let validate: ReturnType<typeof loadValidator> | undefined;
  const check = (value: unknown): string[] => {
    validate ??= loadValidator(source(), VALIDATORS_DIR);
    return validate(value) ? [] : schemaProblems(validate.errors ?? []);
  };
  return Object.assign(check, { source });
}
