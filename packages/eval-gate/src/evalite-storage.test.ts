import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Evalite } from "evalite";
import { createInMemoryStorage } from "evalite/in-memory-storage";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { afterAll, describe, expect, it } from "vitest";
import { exportRun, markFailedSuites, recordCreatedRuns } from "./evalite-storage.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const storages: Array<[string, () => Promise<Evalite.Storage>]> = [
  ["in-memory", async () => createInMemoryStorage()],
  [
    "SQLite",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "gate-storage-"));
      dirs.push(dir);
      return createSqliteStorage(join(dir, "evalite.db"));
    },
  ],
];

/** One suite with its evals, as Evalite's runner writes them (create running, then update). */
async function writeSuite(
  storage: Evalite.Storage,
  runId: number,
  name: string,
  rows: Array<{ input: unknown; output: unknown; status?: "success" | "fail"; scores: Array<[string, number, unknown?]>; traces?: number }>,
  variant?: { name: string; group: string },
): Promise<void> {
  const suite = await storage.suites.create({
    runId,
    name,
    filepath: `/repo/evals/${name}.eval.ts`,
    ...(variant ? { variantName: variant.name, variantGroup: variant.group } : {}),
  });
  for (const [order, row] of rows.entries()) {
    const created = await storage.evals.create({
      suiteId: suite.id,
      order,
      input: "",
      expected: "",
      output: null,
      duration: 0,
      status: "running",
      renderedColumns: [],
    });
    await storage.evals.update({
      id: created.id,
      input: row.input,
      expected: null,
      output: row.output,
      duration: 7,
      status: row.status ?? "success",
      renderedColumns: [{ label: "Q", value: "q" }],
    });
    for (const [scoreName, score, metadata] of row.scores)
      await storage.scores.create({ evalId: created.id, name: scoreName, score, description: `${scoreName} desc`, metadata });
    for (let t = 0; t < (row.traces ?? 0); t++)
      await storage.traces.create({ evalId: created.id, input: { stage: t }, output: "o", start: 1, end: 3, order: t + 1 });
  }
  await storage.suites.update({ id: suite.id, status: rows.some((r) => r.status === "fail") ? "fail" : "success" });
}

describe.each(storages)("this run read back from Evalite's %s storage", (_, open) => {
  it("records exactly the runs created through it, not runs another writer created", async () => {
    const underlying = await open();
    const recording = recordCreatedRuns(underlying);
    await underlying.runs.create({ runType: "full" });
    const ours = await recording.storage.runs.create({ runType: "full" });
    await underlying.runs.create({ runType: "partial" });
    expect(recording.createdRunIds).toEqual([ours.id]);
    // Everything else is the same storage.
    expect((await recording.storage.runs.getMany({ ids: [ours.id] })).map((r) => r.id)).toEqual([ours.id]);
    expect(recording.storage.suites).toBe(underlying.suites);
    await recording.storage.close();
  });

  it("exports the run asked for, in Evalite's --outputPath shape, even when a later run exists", async () => {
    const storage = await open();
    const earlier = await storage.runs.create({ runType: "full" });
    await writeSuite(storage, earlier.id, "Earlier", [{ input: "x", output: 1, scores: [["m", 0]] }]);
    const run = await storage.runs.create({ runType: "full" });
    await writeSuite(storage, run.id, "Search", [
      {
        input: { id: "q1" },
        output: { elapsedMs: 2 },
        scores: [
          ["nDCG@10", 1, { status: "scored" }],
          ["MRR@10", 0.5],
        ],
        traces: 2,
      },
      { input: { id: "q2" }, output: { name: "Error", message: "boom" }, status: "fail", scores: [] },
    ]);
    await writeSuite(storage, run.id, "Thoroughness [fast]", [{ input: { id: "q1" }, output: 1, scores: [["m", 0.25]] }], {
      name: "fast",
      group: "Thoroughness",
    });
    // A suite whose evals never finished: Evalite's export leaves it out.
    await storage.suites.create({ runId: run.id, name: "Unfinished", filepath: "/repo/evals/u.eval.ts" });
    const later = await storage.runs.create({ runType: "full" });
    await writeSuite(storage, later.id, "Later", [{ input: "y", output: 2, scores: [["m", 1]] }]);

    const out = await exportRun(storage, run.id);
    expect(out.run).toEqual({ id: run.id, runType: "full", createdAt: run.created_at });
    expect(out.suites.map((s) => [s.name, s.status, s.variantName ?? null, s.variantGroup ?? null])).toEqual([
      ["Search", "fail", null, null],
      ["Thoroughness [fast]", "success", "fast", "Thoroughness"],
    ]);
    const [search] = out.suites;
    expect(search).toMatchObject({ filepath: "/repo/evals/Search.eval.ts", duration: 0, averageScore: 0.75 });
    expect(search!.evals).toHaveLength(2);
    expect(search!.evals[0]).toMatchObject({
      duration: 7,
      input: { id: "q1" },
      output: { elapsedMs: 2 },
      status: "success",
      colOrder: 0,
      renderedColumns: [{ label: "Q", value: "q" }],
      averageScore: 0.75,
      scores: [
        { name: "nDCG@10", score: 1, description: "nDCG@10 desc", metadata: { status: "scored" } },
        { name: "MRR@10", score: 0.5, description: "MRR@10 desc" },
      ],
      traces: [
        { input: { stage: 0 }, output: "o", startTime: 1, endTime: 3, colOrder: 1 },
        { input: { stage: 1 }, output: "o", startTime: 1, endTime: 3, colOrder: 2 },
      ],
    });
    for (const key of ["id", "createdAt"]) expect(search!.evals[0]).toHaveProperty(key);
    expect(search!.evals[0]!.scores[0]).toHaveProperty("createdAt");
    expect(search!.evals[1]).toMatchObject({ status: "fail", output: { message: "boom" }, averageScore: 0, scores: [], traces: [] });
    expect(out.suites[1]!.averageScore).toBe(0.25);
    await storage.close();
  });

  it("exports a run without suites as empty, and refuses a run the storage does not have", async () => {
    const storage = await open();
    const run = await storage.runs.create({ runType: "full" });
    const other = await storage.runs.create({ runType: "full" });
    await writeSuite(storage, other.id, "Other", [{ input: "x", output: 1, scores: [["m", 1]] }]);
    expect((await exportRun(storage, run.id)).suites).toEqual([]);
    await expect(exportRun(storage, 9999)).rejects.toThrow("Evalite's storage has no run 9999");
    await storage.close();
  });

  it("writes the gate's verdicts back: status fail for each suite it failed that Evalite had not, nothing else", async () => {
    const storage = await open();
    const run = await storage.runs.create({ runType: "full" });
    await writeSuite(storage, run.id, "Low but holding", [{ input: "a", output: 1, scores: [["m", 0.1]] }]);
    await writeSuite(storage, run.id, "Floor fell", [{ input: "b", output: 1, scores: [["m", 0.9]] }]);
    await writeSuite(storage, run.id, "Threw", [{ input: "c", output: null, status: "fail", scores: [] }]);
    const out = await exportRun(storage, run.id);
    const marked = await markFailedSuites(storage, out, [
      { suite: "Low but holding", status: "pass" },
      { suite: "Floor fell", status: "fail" },
      { suite: "Threw", status: "fail" },
    ]);
    expect(marked).toEqual(["Floor fell"]);
    const statuses = Object.fromEntries((await exportRun(storage, run.id)).suites.map((s) => [s.name, s.status]));
    expect(statuses).toEqual({ "Low but holding": "success", "Floor fell": "fail", Threw: "fail" });
    await storage.close();
  });
});
