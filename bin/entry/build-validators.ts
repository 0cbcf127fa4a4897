/**
 * The build's last step (package.json's `build` and `prepare`, after `tsc -b`): Ajv's code for
 * the gate's report checks and the fixture schemas, so that no process compiles them when it
 * starts (packages/eval-gate/src/standalone-validators.ts). Prints nothing; a schema Ajv cannot
 * compile is left to fail at run time with the one-line error it always had.
 */
import { buildReportValidators } from "@hybrid-search/eval-gate/build-validators";
import { buildFixtureValidators } from "../../helpers/fixtures/loader.js";

buildReportValidators();
buildFixtureValidators();
