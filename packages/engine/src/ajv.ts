/**
 * Ajv, loaded when a schema is first compiled rather than with the engine: loading it takes about
 * 0.1 s of CPU, and most processes that import the engine (an offline eval run, `engine search`)
 * never check a model's output or a target's reply.
 */
import { createRequire } from "node:module";
import type { Ajv, Options } from "ajv";

const require = createRequire(import.meta.url);

/** A new Ajv instance with `options`; the first call loads Ajv. */
export function createAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
  return new AjvClass(options);
}
