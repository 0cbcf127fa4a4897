import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeExportedRun, routeFolders } from "./ui-export.js";

describe("routeFolders", () => {
  it("gives every suite page and every case page a folder, as the UI's routes spell them", () => {
    expect(
      routeFolders([
        { name: "Search (BM25)", evals: 2 },
        { name: "Matrix", evals: 0 },
      ]),
    ).toEqual([
      join("suite", "Search (BM25)"),
      join("suite", "Search (BM25)", "eval", "0"),
      join("suite", "Search (BM25)", "eval", "1"),
      join("suite", "Matrix"),
    ]);
  });
});

describe("describeExportedRun", () => {
  it("names a full run, and says a partial run holds only the re-run suites and which full run to ask for", () => {
    expect(describeExportedRun({ id: 3, runType: "full", suites: 24 }, 3, "out")).toBe(
      "eval:export: run #3 (a full run, 24 suites) → out/",
    );
    expect(describeExportedRun({ id: 5, runType: "partial", suites: 1 }, 3, "out")).toBe(
      "eval:export: run #5 (a partial run: watch mode re-ran 1 suite, only those are in it; the latest full run is #3: --runId 3) → out/",
    );
  });
});
