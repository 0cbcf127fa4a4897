// The engine writes TREC run files (`pnpm engine run`) that the metrics package reads back exactly:
// the one place where the system under test and the ruler meet on a file format.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTrecRun } from "@hybrid-search/engine/formats";
import { readTrecRun } from "@hybrid-search/trec-eval/formats";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "run-file-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("TREC run files from the engine", () => {
  it("are read back by trec-eval in the engine's order, with the run tag", () => {
    const path = join(root, "written.txt");
    const ranking = [
      { docId: "d2", score: 0.5 },
      { docId: "d1", score: 0.25 },
    ];
    writeFileSync(path, formatTrecRun("q1", ranking, "tag"));
    const seen: string[][] = [];
    const summary = readTrecRun(path, { onTopic: (t) => seen.push([t.id, ...t.docIds.slice(0, t.count)]) });
    expect(seen).toEqual([["q1", "d2", "d1"]]);
    expect(summary.runId).toBe("tag");
  });
});
