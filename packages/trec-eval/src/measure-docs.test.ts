import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOCS_PATH, generatedSection, renderMeasureTable } from "./measure-docs.js";
import { MEASURES } from "./registry.js";

describe("docs/metrics.md", () => {
  it("holds the measure table generated from the registry (run `npx tsx packages/trec-eval/src/measure-docs.ts --write`)", () => {
    expect(generatedSection(readFileSync(DOCS_PATH, "utf8"))).toBe(renderMeasureTable());
  });
  it("has a row for every measure", () => {
    const table = renderMeasureTable();
    for (const m of MEASURES) expect(table).toContain(`| \`${m.id}\``);
  });
});
