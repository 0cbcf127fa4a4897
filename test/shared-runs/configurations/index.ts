/**
 * Every shared run configuration, by name, in the order the global setup starts them (after any
 * marked `alone`, which run first with none beside them): first those that mostly wait (on a
 * model that hangs or is slow, on a target that times out), so their waiting overlaps the rest,
 * then the full runs, then the runs of a few eval files. A test file
 * reads one with `sharedRun("<name>")` (../read.ts); a new configuration goes in the file of its
 * area, with a line saying what it is and who reads it.
 */
import type { Configuration } from "../configuration.js";
import { BRING_YOUR_OWN } from "./byo.js";
import { CAMPAIGN } from "./campaign.js";
import { CONCURRENCY } from "./concurrency.js";
import { DATASETS } from "./datasets.js";
import { FIXTURES } from "./fixtures.js";
import { MODELS } from "./models.js";
import { TARGETS } from "./targets.js";
import { UI } from "./ui.js";

export const CONFIGURATIONS: Record<string, Configuration> = {
  ...MODELS,
  ...UI,
  ...FIXTURES,
  ...TARGETS,
  ...BRING_YOUR_OWN,
  ...CAMPAIGN,
  ...DATASETS,
  ...CONCURRENCY,
};
