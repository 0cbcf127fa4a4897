/**
 * The published schema of a run report (`report.schema.json`, draft-07), loaded once into AJV:
 * reports read back (`report-file.ts`) and the run info the suite hands the gate (`run-info.ts`)
 * are checked against it. Reads the schema file on first use.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { schemaProblems } from "./schema-errors.js";

/** The published schema of a run report (draft-07), shipped with this package. */
export const REPORT_SCHEMA_PATH = fileURLToPath(new URL("../report.schema.json", import.meta.url));

let loaded: { ajv: Ajv; id: string } | undefined;

function reportSchema(): { ajv: Ajv; id: string } {
  if (!loaded) {
    const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, "utf8")) as { $id: string };
    loaded = { ajv: new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).addSchema(schema), id: schema.$id };
  }
  return loaded;
}

type Ref = (pointer: string) => { $ref: string };

/**
 * A check against (part of) the report schema, compiled on first use: `schema(ref)` builds what
 * to check, `ref("/properties/mode")` pointing into the report schema (`ref("")`: a whole report).
 * It returns the value's problems in plain words, empty when it fits.
 */
export function reportSchemaCheck(schema: (ref: Ref) => object): (value: unknown) => string[] {
  let validate: ValidateFunction | undefined;
  return (value) => {
    if (!validate) {
      const { ajv, id } = reportSchema();
      validate = ajv.compile(schema((pointer) => ({ $ref: `${id}#${pointer}` })));
    }
    return validate(value) ? [] : schemaProblems(validate.errors ?? []);
  };
}
