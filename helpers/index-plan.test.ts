import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./fixture-files.js";
import { evalFiles, evalFilesReading, fixtureWatchTrigger, indexesFor, indexOf, LANES } from "./index-plan.js";

const files = evalFiles(REPO_ROOT);

describe("which index an eval file measures", () => {
  it("follows the convention every eval file keeps: a lane's file is named after it, every other file measures the dataset", () => {
    for (const file of files) {
      const source = readFileSync(join(REPO_ROOT, file), "utf8");
      const lanesUsed = [...source.matchAll(/lane(?:Index|Target)\("([^"]+)"\)/g)].map((m) => m[1]);
      const usesDataset = /evalIndex\(\)|evalTarget\(\)|tierComparison|tierMeans/.test(source);
      const index = indexOf(file);
      // Global setup builds only indexOf(file) for it: anything else would be built in the worker.
      if (index === "dataset") expect({ file, lanesUsed }).toEqual({ file, lanesUsed: [] });
      else expect({ file, lanesUsed: [...new Set(lanesUsed)], usesDataset }).toEqual({ file, lanesUsed: [index], usesDataset: false });
    }
    expect(LANES.every((lane) => files.includes(`evals/${lane}.eval.ts`))).toBe(true);
  });

  it("builds only what the selected files measure; everything when the selection is unknown", () => {
    expect(indexesFor(["/repo/evals/search.eval.ts", "/repo/evals/vsearch.eval.ts"])).toEqual(new Set(["dataset"]));
    expect(indexesFor(["/repo/evals/lexical.eval.ts"])).toEqual(new Set(["lexical"]));
    expect(indexesFor(["evals/cjk.eval.ts", "evals/ask.eval.ts"])).toEqual(new Set(["cjk", "dataset"]));
    expect(indexesFor([])).toEqual(new Set(["dataset", "lexical", "cjk", "temporal"]));
  });
});

describe("which eval files a fixture feeds (watch mode)", () => {
  const datasetFiles = files.filter((f) => !LANES.some((lane) => f === `evals/${lane}.eval.ts`));

  it("a lane's fixture re-runs that lane's file; the corpus and queries re-run the dataset's files; schemas re-run all", () => {
    expect(evalFilesReading("lexical/handbook/runbooks/quarantine.md", files)).toEqual(["evals/lexical.eval.ts"]);
    expect(evalFilesReading("cjk/queries.json", files)).toEqual(["evals/cjk.eval.ts"]);
    expect(evalFilesReading("corpus/en/billing/refunds.md", files)).toEqual(datasetFiles);
    expect(evalFilesReading("queries.json", files)).toEqual(datasetFiles);
    expect(evalFilesReading("schemas/queries.schema.json", files)).toEqual(files);
    expect(evalFilesReading("README.md", files)).toEqual([]);
    expect(datasetFiles).toContain("evals/search.eval.ts");
  });

  it("matches files under <root>/fixtures only, not helpers/fixture-files", () => {
    const trigger = fixtureWatchTrigger(REPO_ROOT);
    const match = `${REPO_ROOT}/fixtures/cjk/queries.json`.match(trigger.pattern);
    expect(match && trigger.testsToRun(match.input!, match)).toEqual(["evals/cjk.eval.ts"]);
    expect(`${REPO_ROOT}/helpers/fixture-files/ajv-messages.ts`).not.toMatch(trigger.pattern);
  });
});
