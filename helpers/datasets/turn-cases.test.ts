/**
 * A dataset's own turn cases (helpers/datasets/turn-cases.ts), on the samples in test/datasets/: a
 * turn-cases.json read with its surfaces' tools, a v10r-style golden-cases.json mapped (paths to
 * document ids, outcome words, fields not mapped and surfaces without tools said in the header),
 * the demo's turn cases carried by its dataset; and each malformed variant's one-line error naming
 * the file, the record and the field as the file names it, checked against the DATASET's corpus
 * (its exit 2 from the CLI: test/own-turn-cases-e2e.test.ts).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureError } from "../fixture-files/errors.js";
import { REPO_ROOT } from "../fixture-files/paths.js";
import { datasetHeader } from "./header.js";
import { loadDataset } from "./load.js";
import { type Dataset, DatasetError } from "./model.js";
import { turnCasesReason } from "./needs.js";

const SAMPLES = join(REPO_ROOT, "test/datasets");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function copy(sample: string): string {
  const dir = mkdtempSync(join(tmpdir(), "turn-dataset-"));
  dirs.push(dir);
  const to = join(dir, sample);
  cpSync(join(SAMPLES, sample), to, { recursive: true });
  return to;
}

const load = (source: string): Dataset => loadDataset({ EVAL_DATASET: source });

function failure(source: string): string {
  try {
    load(source);
  } catch (error) {
    if (!(error instanceof FixtureError) && !(error instanceof DatasetError)) throw error;
    expect(error.message).not.toContain("\n");
    return error.message;
  }
  throw new Error(`${source} loaded without an error`);
}

function edit(path: string, change: (value: { cases: Array<Record<string, unknown>>; [k: string]: unknown }) => void): void {
  const value = JSON.parse(readFileSync(path, "utf8"));
  change(value);
  writeFileSync(path, JSON.stringify(value, null, 2));
}

describe("the suite's turn-case format in a user's dataset", () => {
  it("reads its cases with their surfaces' tools; the agent eval can run on it", () => {
    const dataset = load(join(SAMPLES, "turn-cases"));
    expect(dataset.format).toBe("fixtures");
    expect(dataset.turns?.format).toBe("turn-cases");
    expect(dataset.turns?.cases.map((c) => c.id)).toEqual(["cy-where-end", "cy-deposit", "cy-fix-pass", "cy-off-corpus", "cy-steps"]);
    expect(dataset.turns?.cases[1]).toMatchObject({ surface: "reader", tools: ["search", "read_document", "catalog"], language: "en" });
    expect(dataset.turns?.cases[4]).toMatchObject({ maxSteps: 4 });
    expect(turnCasesReason(dataset)).toBeNull();
    expect(datasetHeader(dataset, null)[0]).toMatch(/^eval: dataset turn-cases \(0 queries, 5 turn cases\): /);
  });

  it("the demo's dataset carries fixtures/turn-cases.json's 24 cases; a dataset without turn cases says how to add them", () => {
    const demo = loadDataset({});
    expect(demo.turns?.cases).toHaveLength(24);
    expect(turnCasesReason(demo)).toBeNull();
    const starter = load(join(SAMPLES, "fixtures-layout"));
    expect(turnCasesReason(starter)).toBe(
      "dataset fixtures-layout has no turn cases: a turn-cases.json in the suite's turn-case format, or a v10r-style golden-cases.json, in its folder adds them (docs/evals.md, The agent eval)",
    );
  });

  it("a cited document the dataset's corpus lacks: one line naming file, record and field", () => {
    const dir = copy("turn-cases");
    edit(join(dir, "turn-cases.json"), (v) => {
      (v.cases[1]!.expect as Array<Record<string, unknown>>)[1]!.doc = "billing/gone.md";
    });
    expect(failure(dir)).toBe(
      `${dir}/turn-cases.json: case cy-deposit (/cases/1/expect/1/doc): [unknown-document] cites "billing/gone.md", which is not a document of ${dir}/corpus`,
    );
  });

  it("the demo's lint, without the demo corpus's own rules: surfaces, tools, coherent expectations, ids used once", () => {
    const dir = copy("turn-cases");
    const path = join(dir, "turn-cases.json");
    const original = readFileSync(path, "utf8");
    const broken = (change: Parameters<typeof edit>[1]): string => {
      writeFileSync(path, original);
      edit(path, change);
      return failure(dir).replace(`${dir}/`, "");
    };
    expect(broken((v) => void (v.cases[0]!.surface = "kiosk"))).toBe(
      'turn-cases.json: case cy-where-end (/cases/0/surface): names no surface of the file (surfaces: help, reader) (got "kiosk")',
    );
    expect(broken((v) => void (v.cases[1]!.expect = [{ kind: "never-calls", tool: "file_correction" }]))).toBe(
      'turn-cases.json: case cy-deposit (/cases/1/expect/0/tool): "file_correction" is not a tool of surface "reader" (search, read_document, catalog)',
    );
    expect(broken((v) => void (v.cases[3]!.expect = [{ kind: "no-citations" }, { kind: "cites", doc: "rides/ending-a-ride.md" }]))).toBe(
      "turn-cases.json: case cy-off-corpus (/cases/3/expect): expects a citation (cites) and none (no-citations)",
    );
    expect(broken((v) => void (v.cases[4]!.id = "cy-deposit"))).toBe(
      'turn-cases.json: case cy-deposit (/cases/4/id): [duplicate-id] case id "cy-deposit" is already used by the case at /cases/1',
    );
    // A user's tools are any name the contract allows, a user's ids any text; a tool name it does not allow is a schema error.
    expect(broken((v) => void ((v.surfaces as Record<string, string[]>).help = ["Search Docs"]))).toBe(
      'turn-cases.json: /surfaces/help/0: [schema] must match the pattern ^[a-z][a-z0-9_]*$ (got "Search Docs")',
    );
    writeFileSync(path, original);
    edit(path, (v) => {
      (v.surfaces as Record<string, string[]>).help = ["lookup_order", "search", "read_document", "catalog", "file_correction"];
      v.cases[0]!.id = "Wo ist der Artikel? #1";
    });
    expect(load(dir).turns?.cases[0]).toMatchObject({
      id: "Wo ist der Artikel? #1",
      tools: ["lookup_order", "search", "read_document", "catalog", "file_correction"],
    });
  });
});

describe("turn cases beside any folder dataset", () => {
  it.each([
    ["fixtures-layout", "en/backup-settings.md"],
    ["beir-answers", "fare-01"],
  ])("%s: a turn-cases.json in its folder is read and linted against its corpus", (sample, doc) => {
    const dir = copy(sample);
    const cases = (cited: string) => ({
      version: 1,
      surfaces: { reader: ["search", "read_document"] },
      cases: [
        { id: "t1", question: "How often is a backup saved?", surface: "reader", guards: "g", expect: [{ kind: "cites", doc: cited }] },
      ],
    });
    writeFileSync(join(dir, "turn-cases.json"), JSON.stringify(cases(doc)));
    const dataset = load(dir);
    expect(dataset.format).toBe(sample === "beir-answers" ? "beir" : "fixtures-layout");
    expect(dataset.turns?.cases.map((c) => c.expect)).toEqual([[{ kind: "cites", doc }]]);
    writeFileSync(join(dir, "turn-cases.json"), JSON.stringify(cases("nowhere.md")));
    expect(failure(dir)).toContain('case t1 (/cases/0/expect/0/doc): [unknown-document] cites "nowhere.md"');
  });
});

describe("a v10r-style golden-cases.json", () => {
  it("maps its cases: paths to document ids, its outcome field, surfaces without tools, fields not mapped named", () => {
    const dataset = load(join(SAMPLES, "golden-cases"));
    const turns = dataset.turns!;
    expect(turns.format).toBe("golden-cases");
    expect(turns.surfaces).toEqual({ docs: null, deskbot: null });
    expect(turns.cases[0]).toEqual({
      id: "export-where",
      question: "Where is the article about exporting invoices?",
      surface: "docs",
      guards: "A where-question answered without the document list, or naming an article the turn never listed.",
      expect: [
        { kind: "calls-tool", tool: "list_docs" },
        { kind: "cites", doc: "guides/exporting-invoices.md" },
        { kind: "cites-only-surfaced" },
        { kind: "outcome", is: "answered" },
      ],
    });
    expect(turns.cases[0]!.tools).toBeUndefined();
    expect(new Set(turns.cases.flatMap((c) => c.expect.map((e) => e.kind))).size).toBe(10);
    expect(dataset.unmapped.map((u) => `${u.field} (${u.records})`)).toEqual(["_comment (1)", "cases/*/tags (5)"]);
    const header = datasetHeader(dataset, null).join("\n");
    expect(header).toContain("turn cases: test/datasets/golden-cases/golden-cases.json read as a v10r-style golden set");
    expect(header).toContain("WARNING: test/datasets/golden-cases/golden-cases.json: names surfaces (docs, deskbot) without their tools");
  });

  it("errors name the tool's own fields: a path the corpus lacks, an unknown kind, both files at once", () => {
    const dir = copy("golden-cases");
    const path = join(dir, "golden-cases.json");
    const original = readFileSync(path, "utf8");
    edit(path, (v) => {
      (v.cases[2]!.expect as Array<Record<string, unknown>>)[0]!.path = "/policies/privacy";
    });
    expect(failure(dir)).toBe(
      `${dir}/golden-cases.json: case retention (/cases/2/expect/0/path): [unknown-document] cites "/policies/privacy", which is not a document of ${dir}/corpus`,
    );
    writeFileSync(path, original);
    edit(path, (v) => {
      (v.cases[1]!.expect as Array<Record<string, unknown>>)[0] = { kind: "calls-twice" };
    });
    expect(failure(dir)).toMatch(/golden-cases\.json: case export-large \(\/cases\/1\/expect\/0\/kind\): \[schema\] /);
    writeFileSync(path, original);
    writeFileSync(join(dir, "turn-cases.json"), JSON.stringify({ version: 1, surfaces: { docs: ["list_docs"] }, cases: [] }));
    expect(failure(dir)).toContain("holds the dataset's turn cases already: keep one of the two files");
  });
});
