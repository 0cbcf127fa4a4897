import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOCS_PATH, generatedSection, renderMeasureTable } from "./measure-docs.js";
import { MEASURES } from "./registry.js";

describe("docs/metrics.md", () => {
  it("holds the measure table generated from the registry (run `npx tsx packages/trec-eval/src/measure-docs.ts --write`)", () => {
    expect(generatedSection(readFileSync(DOCS_PATH, "utf8"))).toBe(renderMeasureTable());
  });
  it("states the duplicate rule the code applies: judged topics only, not 'everywhere'", () => {
    // The code checks repeated documents in judged topics only, as trec_eval; edge-cases.test.ts pins it.
    const doc = readFileSync(DOCS_PATH, "utf8");
    // Each bullet runs from its "- **Duplicates.**" to the next bullet or blank line.
    const rules = [...doc.matchAll(/^- \*\*Duplicates\.\*\*[\s\S]*?(?=\n- |\n\n)/gm)].map((m) => m[0]);
    expect(rules).toHaveLength(2); // the convention and the deliberate difference
    for (const rule of rules) expect(rule).not.toMatch(/everywhere/);
    expect(doc).toMatch(/run topic\s+without\s+judgments\s+is\s+not\s+checked/);
  });
  it("has a row for every measure", () => {
    const table = renderMeasureTable();
    for (const m of MEASURES) expect(table).toContain(`| \`${m.id}\``);
  });
});
