/**
 * An adapter file (`EVAL_TARGET_ADAPTER`, schemas/adapter.schema.json of the contract package),
 * read and checked: one line naming the file and the JSON Pointer of a problem, and the values of
 * the environment variables its templates name (secrets: redacted wherever they could appear).
 */
import { resolve } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { type Adapter, adapterProblems, ENV_NAME, TEMPLATE_VARIABLE, templateStrings } from "@hybrid-search/target-contract/adapter";
import { secretProblem } from "@hybrid-search/target-contract/redact";
import { FixtureError } from "../fixture-files/errors.js";
import { readJsonFile } from "../input-files/read.js";

/** An adapter file, checked, with the values of the environment variables it names. */
export interface LoadedAdapter {
  /** The path as EVAL_TARGET_ADAPTER gave it. */
  given: string;
  adapter: Adapter;
  /** Each environment variable the adapter names, and its value: secrets, redacted everywhere. */
  env: Record<string, string>;
}

/**
 * Reads and checks the adapter file `given` names: not JSON, a field the schema does not know, a
 * template naming what its request does not have, or an environment variable that is not set is a
 * ConfigError naming the file and the JSON Pointer of the problem (one line, exit 2).
 */
export function loadAdapter(given: string, env: NodeJS.ProcessEnv = process.env): LoadedAdapter {
  const where = `EVAL_TARGET_ADAPTER ${given}`;
  let value: unknown;
  try {
    // The suite's one reader of a person's files: UTF-8 checked, JSON with its line and column, an object.
    value = readJsonFile(resolve(given), { shown: where, top: "object" });
  } catch (error) {
    if (error instanceof FixtureError) throw new ConfigError(error.message);
    throw error;
  }
  const problems = adapterProblems(value);
  if (problems.length > 0)
    throw new ConfigError(`${where}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : ""}`);
  const adapter = value as Adapter;
  const values: Record<string, string> = {};
  for (const { at, text: template } of templateStrings(adapter, "")) {
    for (const [, name] of template.matchAll(TEMPLATE_VARIABLE)) {
      const variable = /^env\.(.*)$/.exec(name!)?.[1];
      if (variable === undefined || !ENV_NAME.test(variable)) continue;
      const set = env[variable];
      if (set === undefined || set === "")
        throw new ConfigError(`${where}: ${at}: {{env.${variable}}} names the environment variable ${variable}, which is not set`);
      // Every variable an adapter names is a secret, redacted everywhere: one too short to redact safely is refused.
      const short = secretProblem(variable, set);
      if (short) throw new ConfigError(`${where}: ${at}: {{env.${variable}}}: ${short}`);
      values[variable] = set;
    }
  }
  return { given, adapter, env: values };
}
