/**
 * Drafted cases in a dataset: the fixture format carries `status`, `provenance` and `reviewed` on
 * queries and answer cases, a load keeps them (a derived query keeps its question's status), the
 * header says how many drafts there are, `eval:import`'s writer keeps them (an imported draft stays
 * a draft, with its documents renamed), and the schema refuses a status other than "draft".
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../fixture-files/paths.js";
import { allDraftsReason, isDraft, loadDataset, reviewedOnly } from "../dataset.js";
import { datasetHeader } from "./header.js";
import { writeFixtureFormat } from "./write.js";

const scratch = mkdtempSync(join(tmpdir(), "drafts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PROVENANCE = { method: "structure/number", docId: "en/billing/refunds.md", quote: "x", drafted: "2026-01-02" };

/** The starter with its first answer case and first query marked as drafts. */
function starterWithDrafts(name: string, mark: (value: Record<string, unknown>) => void = () => {}): string {
  const folder = join(scratch, name);
  cpSync(join(REPO_ROOT, "templates/starter"), folder, { recursive: true });
  for (const [file, key] of [
    ["ask-cases.json", "cases"],
    ["queries.json", "queries"],
  ] as const) {
    const path = join(folder, file);
    const value = JSON.parse(readFileSync(path, "utf8"));
    value.$schema = undefined;
    Object.assign(value[key][0], { status: "draft", provenance: PROVENANCE });
    mark(value[key][0]);
    writeFileSync(path, JSON.stringify(value));
  }
  return folder;
}

describe("drafted cases in a dataset", () => {
  it("load with their status and provenance, and the header counts them", () => {
    const folder = starterWithDrafts("plain");
    const d = loadDataset({ EVAL_DATASET: folder });
    expect(d.askCases.filter(isDraft).map((c) => c.id)).toEqual(["a-001"]);
    expect(d.cases.filter(isDraft).map((c) => [c.id, c.provenance?.method])).toEqual([["q-001", "structure/number"]]);
    expect(reviewedOnly(d.cases)).toHaveLength(d.cases.length - 1);
    expect(datasetHeader(d, null).find((l) => l.includes("drafts:"))).toMatch(/drafts: 2 \(status "draft": not reviewed yet\)/);
    expect(allDraftsReason(d.cases, "judged query", d.name)).toBeNull();
    expect(allDraftsReason(d.cases.filter(isDraft), "judged query", d.name)).toMatch(/^every judged query of dataset plain is a draft/);
  });

  it("a status other than draft, or a provenance without its method, is a one-line schema error", () => {
    const wrong = starterWithDrafts("wrong", (c) => {
      c.status = "reviewed";
    });
    expect(() => loadDataset({ EVAL_DATASET: wrong })).toThrow(
      /queries\.json: query q-001 \(\/queries\/0\/status\): \[schema\] must be "draft" \(got "reviewed"\)/,
    );
    const noMethod = starterWithDrafts("no-method", (c) => {
      c.provenance = { drafted: "2026-01-02" };
    });
    expect(() => loadDataset({ EVAL_DATASET: noMethod })).toThrow(/missing required field "method"/);
  });

  it("are written back as drafts by the fixture-format writer, documents renamed in their provenance", () => {
    const d = loadDataset({ EVAL_DATASET: starterWithDrafts("write") });
    const out = join(scratch, "written");
    writeFixtureFormat(d, out);
    const back = loadDataset({ EVAL_DATASET: out });
    expect(back.askCases.filter(isDraft).map((c) => c.provenance)).toEqual([PROVENANCE]);
    expect(back.cases.filter(isDraft).map((c) => c.id)).toEqual(["q-001"]);
    // Documents given as data are renamed to file names: the provenance follows them.
    const golden = loadDataset({ EVAL_DATASET: join(REPO_ROOT, "test/datasets/golden-qa") });
    const title = golden.corpusIds[0]!;
    const drafted = {
      ...golden,
      askCases: [
        ...golden.askCases,
        { id: "d-1", question: "Q?", mustCite: [title], status: "draft" as const, provenance: { ...PROVENANCE, docId: title } },
      ],
    };
    const renamed = join(scratch, "renamed");
    const written = writeFixtureFormat(drafted, renamed);
    const to = new Map(written.renamed).get(title)!;
    const draft = loadDataset({ EVAL_DATASET: renamed }).askCases.find((c) => c.id === "d-1")!;
    expect([draft.mustCite, draft.provenance?.docId]).toEqual([[to], to]);
  });

  it("a derived query keeps its question's draft status", () => {
    const folder = starterWithDrafts("derived");
    rmSync(join(folder, "queries.json"));
    const d = loadDataset({ EVAL_DATASET: folder });
    expect(d.derivedCases).toBe(true);
    expect(d.cases.filter(isDraft).map((c) => c.id)).toEqual(["a-001"]);
  });
});
