import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./fixture-files.js";
import { evalFiles, fixtureWatchTrigger } from "./index-plan.js";
import { evalName, notGatedLine, SELECTION_ENV, selectedEvalFiles, selectionFromEnv, unselectedEvalFiles } from "./eval-selection.js";

const files = evalFiles(REPO_ROOT);
const only = (...selected: string[]) => ({ [SELECTION_ENV]: JSON.stringify(selected) });

describe("a selection, passed from pnpm eval / eval:watch to evalite.config.ts", () => {
  it("names each eval file by its file name without .eval.ts", () => {
    expect(evalName("evals/search.eval.ts")).toBe("search");
    expect(evalName("/repo/evals/vsearch.eval.mts")).toBe("vsearch");
  });

  it("excludes every other eval file; without one, nothing", () => {
    expect(selectedEvalFiles(REPO_ROOT, only("evals/search.eval.ts"))).toEqual(["evals/search.eval.ts"]);
    expect(unselectedEvalFiles(REPO_ROOT, only("evals/search.eval.ts"))).toEqual(files.filter((f) => f !== "evals/search.eval.ts"));
    expect(unselectedEvalFiles(REPO_ROOT, only("evals/search.eval.ts"))).toContain("evals/vsearch.eval.ts");
    expect(selectedEvalFiles(REPO_ROOT, {})).toEqual(files);
    expect(unselectedEvalFiles(REPO_ROOT, {})).toEqual([]);
    expect(selectionFromEnv({ [SELECTION_ENV]: "" })).toBeNull();
  });

  it("refuses a malformed selection in one line (the config then does not load: pnpm eval says so, exit 2)", () => {
    expect(() => selectionFromEnv({ [SELECTION_ENV]: "search" })).toThrow(
      "EVAL_SELECTED_FILES must be a JSON array of eval file paths (set by pnpm eval and pnpm eval:watch)",
    );
    expect(() => selectionFromEnv({ [SELECTION_ENV]: "[1]" })).toThrow(/must be a JSON array/);
  });

  it("a watch session's fixture edits re-run selected files only", () => {
    const trigger = fixtureWatchTrigger(REPO_ROOT, () => selectedEvalFiles(REPO_ROOT, only("evals/search.eval.ts")));
    const match = `${REPO_ROOT}/fixtures/queries.json`.match(trigger.pattern)!;
    expect(trigger.testsToRun(match.input!, match)).toEqual(["evals/search.eval.ts"]);
    const lane = `${REPO_ROOT}/fixtures/cjk/queries.json`.match(trigger.pattern)!;
    expect(trigger.testsToRun(lane.input!, lane)).toEqual([]);
  });

  it("a run pnpm eval does not drive says it is not gated and which command gives the verdict", () => {
    expect(notGatedLine([`${REPO_ROOT}/evals/search.eval.ts`])).toBe(
      "eval: not gated: this Evalite run holds no floors, latency ceilings or recorded cases (it fails only when an eval fails); the verdict: pnpm eval search",
    );
    expect(notGatedLine(files)).toMatch(/; the verdict: pnpm eval$/);
  });
});
