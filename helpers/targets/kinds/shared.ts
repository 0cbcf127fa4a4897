/** What the kinds of target other than the in-process engine share: how their suites are named, the run's grading line, how a request is shown. */
import type { Preset } from "@hybrid-search/target-contract/types";
export { CONTRACT_MODES } from "@hybrid-search/target-contract/messages";
import type { EvalModels } from "../../models.js";
import type { Variant } from "../kind.js";

/** The ranking options every retrieval eval asks with (helpers/retrieval-task.ts: depth 10, trace 50), as `--explain-target` shows them. */
export const SEARCH_OPTIONS = { limit: 10, traceDepth: 50 };

/** A body as `--explain-target` shows it: whole up to 600 characters, else its start and its length. */
export function bodyShown(text: string, shown = 600): string {
  return text.length <= shown ? text : `${text.slice(0, shown)}… (${text.length} characters)`;
}

/** A target that answers for itself: one suite, named by it (its presets are its own business). */
export const remoteVariants = (label: string, _presets: readonly Preset[] | null): Variant[] => [{ name: label, input: "balanced" }];

/** The run's grading, when another target than the in-process engine answers: the judge is still the suite's. */
export function gradingLine(models: EvalModels): string {
  return models.judge
    ? `grading: judge ${models.ids.judge} (the target answers; the suite's models only grade)`
    : "grading: heuristic graders, no judge model configured (the target answers; the suite's models only grade)";
}

/** The settings a service and a target module both read: its name, credentials, time per call, concurrency and seeding. */
export const CALLED_TARGET_SETTINGS = [
  "EVAL_TARGET_NAME",
  "EVAL_TARGET_TOKEN",
  "EVAL_TARGET_COOKIE",
  "EVAL_TARGET_TIMEOUT_MS",
  "EVAL_TARGET_CONCURRENCY",
  "EVAL_TARGET_SEED",
  "EVAL_TARGET_KEEP_SEED",
  "EVAL_TARGET_SEED_TIMEOUT_MS",
] as const;
