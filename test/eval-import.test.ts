/**
 * `pnpm eval:import` in process (bin/eval-import.ts's main): every format's sample written in the
 * suite's fixture format, what it prints it mapped and could not, the written folder loading back
 * as the same dataset, and importing that folder again writing the same bytes; its one-line errors,
 * with nothing written. The compiled CLI is spawned in test/compiled-clis.test.ts.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-import.js";
import { loadDataset } from "../helpers/dataset.js";
import { ROOT } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "eval-import-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function importing(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** Every file of a folder, path → bytes. */
function contents(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [relative(folder, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "base64")]),
  );
}

const SAMPLES = [
  ["fixtures", join(ROOT, "fixtures")],
  ["starter", join(ROOT, "templates/starter")],
  ["beir-answers", join(ROOT, "test/datasets/beir-answers")],
  ["golden-qa", join(ROOT, "test/datasets/golden-qa")],
  ["bundle", join(ROOT, "test/datasets/bundle")],
  ["fixtures-layout", join(ROOT, "test/datasets/fixtures-layout")],
  ["fixtures-layout-subset", join(ROOT, "test/datasets/fixtures-layout-subset")],
  ["qa-jsonl", join(ROOT, "test/datasets/qa-jsonl/golden.jsonl")],
  ["turn-cases", join(ROOT, "test/datasets/turn-cases")],
  ["golden-cases", join(ROOT, "test/datasets/golden-cases")],
] as const;

describe("pnpm eval:import", () => {
  it.each(SAMPLES)(
    "%s: writes the suite's fixture format holding the same cases, and importing the result again changes nothing",
    (name, source) => {
      const once = join(scratch, `${name}-1`);
      const first = importing([source, once]);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^eval:import: read .* as /);
      expect(first.stdout).toMatch(/^eval:import: wrote .* in the suite's fixture format: .*it loads back through the same checks/m);
      const original = loadDataset({ EVAL_DATASET: source });
      const imported = loadDataset({ EVAL_DATASET: once });
      expect(imported.format).toBe("fixtures");
      // The source's document ids are kept, whatever they are (paths, titles, record keys).
      expect([...imported.corpusIds].sort()).toEqual([...original.corpusIds].sort());
      expect(imported.gate === null).toBe(original.gate === null);
      // The same questions and queries, with the same expectations and the same document ids.
      const expectations = (c: (typeof original.askCases)[number]) => [
        c.id,
        c.question,
        c.expectedSubstrings,
        c.expectedSubstringsAny,
        c.expectedRefusal,
        c.givenSources,
        c.referenceAnswer,
        c.mustCite,
      ];
      expect(imported.askCases.map(expectations)).toEqual(original.askCases.map(expectations));
      expect(imported.cases.map((c) => [c.id, c.query, Object.keys(c.judgments)])).toEqual(
        original.cases.map((c) => [c.id, c.query, Object.keys(c.judgments)]),
      );
      // A relevant set listed apart from the judgments (relevantDocs) is kept as it is.
      expect(imported.cases.map((c) => c.relevant)).toEqual(original.cases.map((c) => c.relevant));
      expect(imported.splitRelevance).toEqual(original.splitRelevance);
      // Turn cases (ids kept) come along as they are.
      expect(imported.turns?.cases).toEqual(original.turns?.cases);
      const twice = join(scratch, `${name}-2`);
      const second = importing([once, twice]);
      expect(second.code, second.stderr).toBe(0);
      // A golden-cases.json is kept in its tool's format (its surfaces name no tools to write): its unmapped fields are said again.
      if (name !== "golden-cases") expect(second.stdout).not.toMatch(/not mapped|became file names/);
      expect(contents(twice)).toEqual(contents(once));
    },
  );

  it("turn cases come along, citing the documents by the ids they keep: a BEIR folder's turn-cases.json", () => {
    const source = join(scratch, "beir-turns");
    cpSync(join(ROOT, "test/datasets/beir-answers"), source, { recursive: true });
    const turns = {
      version: 1,
      surfaces: { reader: ["search"] },
      cases: [{ id: "t1", question: "Off-peak?", surface: "reader", guards: "g", expect: [{ kind: "cites", doc: "fare-01" }] }],
    };
    writeFileSync(join(source, "turn-cases.json"), JSON.stringify(turns));
    const r = importing([source, join(scratch, "beir-turns-out")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"fare-01" in \S+\.md/);
    expect(loadDataset({ EVAL_DATASET: join(scratch, "beir-turns-out") }).turns?.cases[0]?.expect).toEqual([
      { kind: "cites", doc: "fare-01" },
    ]);
  });

  it("prints every field it could not map, and keeps every document id, a title in its file's front matter", () => {
    const r = importing([join(ROOT, "test/datasets/golden-qa"), join(scratch, "printed")]);
    expect(r.stdout).toContain(
      "eval:import: not mapped: test/datasets/golden-qa/golden_qa.json /questions/*/difficulty (1 record(s)): not a field the suite knows for this format; nothing reads it",
    );
    expect(r.stdout).toMatch(
      /5 document id\(s\) are not file paths: each is kept, in its file's front matter \(id:\), and the file named after it: "Opening hours" in opening-hours\.md/,
    );
    expect(readFileSync(join(scratch, "printed/corpus/opening-hours.md"), "utf8")).toMatch(
      /^---\nid: "Opening hours"\ntitle: "Opening hours"\n---\nThe Larkspur/,
    );
    // The copy names documents as the source does: a deployment that names them by title scores it as it scores the source.
    const copy = loadDataset({ EVAL_DATASET: join(scratch, "printed") });
    expect(copy.corpusIds).toContain("Opening hours");
    expect(copy.askCases.flatMap((c) => c.mustCite ?? [])).toEqual(
      loadDataset({ EVAL_DATASET: join(ROOT, "test/datasets/golden-qa") }).askCases.flatMap((c) => c.mustCite ?? []),
    );
    expect(copy.corpusSource).toMatchObject({ kind: "documents", ids: "keys" });
    expect(JSON.parse(readFileSync(join(scratch, "printed/ask-cases.json"), "utf8")).gate).toEqual({
      minPassRate: 0.5,
      maxP95LatencyMs: 60000,
    });
  });

  it("a malformed source is one line and exit 2, and nothing is written; so is a target folder that holds anything", () => {
    const broken = join(scratch, "broken.json");
    writeFileSync(
      broken,
      readFileSync(join(ROOT, "test/datasets/golden-qa/golden_qa.json"), "utf8").replace(
        '"expectedDocumentTitle": "Late returns"',
        '"expectedDocumentTitle": "Fines"',
      ),
    );
    const out = join(scratch, "never");
    const r = importing([broken, out]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(
      /^eval:import: \S+broken\.json: question q03 \(\/questions\/2\/expectedDocumentTitle\): \[unknown-document\] cites "Fines"[^\n]*\n$/,
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(scratch).filter((f) => f.includes("importing"))).toEqual([]);
    const full = join(scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "mine.txt"), "");
    expect(importing([join(ROOT, "test/datasets/bundle"), full])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/full is not empty; eval:import writes only into a new or empty folder/),
    });
    expect(importing([join(ROOT, "test/datasets/bundle"), join(scratch, "x"), "--format", "csv"]).stderr).toBe(
      'eval:import: --format must be one of fixtures, fixtures-layout, bundle, golden-qa, beir, qa-jsonl, got "csv"\n',
    );
    expect(importing(["only-one"])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^eval:import: a source and a new folder are needed, got 1 argument\(s\); Usage: /),
    });
  });
});
