/**
 * The build's last step (package.json's `build` and `prepare`, after `tsc -b`): Ajv's code for
 * the gate's report checks, the fixture schemas and the target contract's messages, so that no
 * process compiles them when it starts (packages/eval-gate/src/standalone-validators.ts,
 * packages/target-contract/src/validate.ts). Prints nothing; a schema Ajv cannot compile is left
 * to fail at run time with the one-line error it always had.
 */
import { buildReportValidators } from "@hybrid-search/eval-gate/build-validators";
import { buildContractValidators } from "@hybrid-search/target-contract/build-validators";
import { buildFixtureValidators } from "../../helpers/fixture-files/loader.js";

buildReportValidators();
buildFixtureValidators();
buildContractValidators();
