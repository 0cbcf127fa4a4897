/**
 * fixtures/turn-cases.json: the real file holds 20+ cases in four languages, every category and
 * every expectation kind; a broken copy fails to load with one line naming the file, the case
 * and the field, for the schema's rules and for each rule of the lint.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXPECTATION_KINDS, TURN_CATEGORIES } from "../scorers/agent/turn-case.js";
import { FIXTURES_DIR, FixtureError, formatFixtureError, loadTurnCases, type TurnCasesFile } from "./fixture-files.js";

const CORPUS_DIR = join(FIXTURES_DIR, "corpus");
const real = JSON.parse(readFileSync(join(FIXTURES_DIR, "turn-cases.json"), "utf8")) as TurnCasesFile;

describe("the real turn cases", () => {
  const cases = loadTurnCases();

  it("are 20 or more, in en, de, fr and it, in every category, each using every kind somewhere", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(new Set(cases.map((c) => c.language))).toEqual(new Set(["en", "de", "fr", "it"]));
    expect(new Set(cases.map((c) => c.category))).toEqual(new Set(TURN_CATEGORIES));
    expect(new Set(cases.flatMap((c) => c.expect.map((e) => e.kind)))).toEqual(new Set(EXPECTATION_KINDS));
  });

  it("carry their surface's tools, and say what they guard", () => {
    for (const c of cases) {
      expect(c.tools, c.id).toEqual(real.surfaces[c.surface]);
      expect(c.guards.length, c.id).toBeGreaterThan(20);
    }
  });

  it("hold the issue's kinds of turn: where-questions, two documents, the injection, a correction, an off-corpus refusal", () => {
    const has = (category: string, kind: string, tool?: string) =>
      cases.some(
        (c) => c.category === category && c.expect.some((e) => e.kind === kind && (tool === undefined || ("tool" in e && e.tool === tool))),
      );
    expect(has("where", "calls-tool", "catalog")).toBe(true);
    expect(cases.some((c) => c.category === "multi-hop" && c.expect.some((e) => e.kind === "calls-tool" && e.atLeast === 2))).toBe(true);
    expect(has("injection", "never-calls", "file_correction")).toBe(true);
    expect(has("correction", "stops-at-approval", "file_correction")).toBe(true);
    expect(has("off-corpus", "never-calls", "file_correction") && has("off-corpus", "outcome")).toBe(true);
  });
});

describe("broken turn-case files", () => {
  const dir = mkdtempSync(join(tmpdir(), "turn-fixtures-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "turn-cases.json");

  /** A changed copy's load error: one line, a FixtureError. */
  function error(change: (data: TurnCasesFile) => void): string {
    const data = structuredClone(real);
    change(data);
    writeFileSync(file, JSON.stringify(data, null, 2));
    try {
      loadTurnCases({ dir, corpusDir: CORPUS_DIR });
    } catch (e) {
      expect(e).toBeInstanceOf(FixtureError);
      const message = (e as FixtureError).message;
      expect(message).not.toContain("\n");
      expect(formatFixtureError(e)).toBe(message);
      return message;
    }
    throw new Error("expected the load to fail");
  }

  it("loads an unchanged copy", () => {
    writeFileSync(file, JSON.stringify(real));
    expect(loadTurnCases({ dir, corpusDir: CORPUS_DIR })).toHaveLength(real.cases.length);
  });

  it("names the case and field for the schema's rules", () => {
    expect(error((d) => ((d.cases[0]!.expect[0] as { kind: string }).kind = "calls-tools"))).toMatch(
      new RegExp(`^${file}: case t-001 \\(/cases/0/expect/0/kind\\): must be one of outcome, calls-tool, .* \\(got "calls-tools"\\)$`),
    );
    expect(error((d) => delete (d.cases[0]!.expect[0] as { tool?: string }).tool)).toBe(
      `${file}: case t-001 (/cases/0/expect/0): missing required field "tool" when kind is "calls-tool"`,
    );
    expect(error((d) => ((d.cases[0]!.expect[1] as Record<string, unknown>).tool = "search"))).toBe(
      `${file}: case t-001 (/cases/0/expect/1/tool): unknown field "tool" (allowed: kind, doc) when kind is "cites"`,
    );
    expect(error((d) => delete (d.cases[2] as { guards?: string }).guards)).toBe(
      `${file}: case t-003 (/cases/2): missing required field "guards"`,
    );
    expect(error((d) => ((d.cases[2]!.expect[0] as { tool: string }).tool = "shell"))).toBe(
      `${file}: case t-003 (/cases/2/expect/0/tool): must be one of search, read_document, catalog, file_correction (got "shell")`,
    );
    expect(error((d) => ((d.cases[1] as { maxSteps?: number }).maxSteps = 0))).toBe(
      `${file}: case t-002 (/cases/1/maxSteps): must be at least 1 (got 0)`,
    );
  });

  it("names the case and field for each rule of the lint", () => {
    expect(error((d) => (d.cases[3]!.surface = "kiosk"))).toBe(
      `${file}: case t-004 (/cases/3/surface): names no surface of the file (surfaces: help-centre, reader) (got "kiosk")`,
    );
    // t-004 runs on the reader surface, which has no file_correction.
    expect(error((d) => d.cases[3]!.expect.push({ kind: "never-calls", tool: "file_correction" }))).toBe(
      `${file}: case t-004 (/cases/3/expect/3/tool): "file_correction" is not a tool of surface "reader" (search, read_document, catalog)`,
    );
    expect(error((d) => ((d.cases[0]!.expect[1] as { doc: string }).doc = "en/sharing/share-links.md"))).toBe(
      `${file}: case t-001 (/cases/0/expect/1/doc): cites en/sharing/share-links.md, which does not exist in fixtures/corpus`,
    );
    expect(error((d) => d.cases[0]!.expect.push({ kind: "outcome", is: "refused" }))).toBe(
      `${file}: case t-001 (/cases/0/expect): expects more than one outcome`,
    );
    expect(error((d) => d.cases[0]!.expect.push({ kind: "no-citations" }))).toBe(
      `${file}: case t-001 (/cases/0/expect): expects a citation (cites) and none (no-citations)`,
    );
    expect(error((d) => d.cases[0]!.expect.push({ kind: "stops-at-approval" }))).toBe(
      `${file}: case t-001 (/cases/0/expect): expects a stop at approval and the outcome "answered"`,
    );
    expect(error((d) => d.cases[0]!.expect.push({ kind: "never-calls", tool: "catalog" }))).toBe(
      `${file}: case t-001 (/cases/0/expect/4): forbids "catalog", which a calls-tool expectation of the case requires`,
    );
    expect(error((d) => ((d.cases[22]!.expect[1] as { steps: number }).steps = 5))).toBe(
      `${file}: case t-023 (/cases/22/expect/1/steps): allows 5 steps, more than the case's own cap of 2`,
    );
    expect(error((d) => (d.cases[5]!.id = "t-001"))).toBe(`${file}: case t-001 (/cases/5/id): id "t-001" is already used by /cases/0`);
  });

  it("fails a file in which no case uses a kind", () => {
    expect(
      error((d) => {
        for (const c of d.cases) c.expect = c.expect.filter((e) => e.kind !== "calls-any-tool");
      }),
    ).toBe(`${file}: /cases: no case uses the expectation kind(s) calls-any-tool: each kind guards something only when a case uses it`);
  });
});
