// fixtures/refusal-markers.json loads through the fixture loader like every fixture: a file that
// is not valid stops the run with one line naming the file and the field.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureError, loadRefusalMarkers } from "./fixture-files.js";

const dir = mkdtempSync(join(tmpdir(), "markers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = {
  version: 1,
  markers: { en: ["i cannot answer"], de: ["kann ich nicht beantworten"], fr: ["je ne peux pas répondre"], it: ["non posso rispondere"] },
};

function problemOf(value: unknown): string {
  writeFileSync(join(dir, "refusal-markers.json"), typeof value === "string" ? value : JSON.stringify(value));
  try {
    loadRefusalMarkers({ dir });
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as Error).message).not.toContain("\n");
    return (error as Error).message;
  }
  throw new Error("expected the file to be refused");
}

describe("loadRefusalMarkers", () => {
  it("loads the shipped file: en, de, fr and it at least", () => {
    expect(Object.keys(loadRefusalMarkers())).toEqual(expect.arrayContaining(["en", "de", "fr", "it"]));
  });

  it("takes users' own languages and phrases", () => {
    writeFileSync(join(dir, "refusal-markers.json"), JSON.stringify({ ...BASE, markers: { ...BASE.markers, es: ["no puedo responder"] } }));
    expect(loadRefusalMarkers({ dir }).es).toEqual(["no puedo responder"]);
  });

  it.each([
    [{ ...BASE, markers: { ...BASE.markers, de: ["   "] } }, /refusal-markers\.json: \/markers\/de\/0: must not be blank/],
    [{ ...BASE, markers: { en: ["i cannot answer"] } }, /refusal-markers\.json: \/markers: missing required field "de"/],
    [{ ...BASE, markers: { ...BASE.markers, it: ["non"] } }, /\/markers\/it\/0: must have at least two words/],
    [
      { ...BASE, markers: { ...BASE.markers, fr: ["Je ne peux pas répondre", "je ne peux  pas répondre"] } },
      /\/markers\/fr\/1: repeats \/markers\/fr\/0/,
    ],
    [{ ...BASE, markers: { ...BASE.markers, English: ["i cannot answer"] } }, /refusal-markers\.json: .*English/],
    [{ ...BASE, version: 2 }, /\/version: must be 1 \(got 2\)/],
    ['{ "version": 1, "markers": { "en": ["x y",] } }', /refusal-markers\.json: .*line 1, column \d+: trailing comma/],
  ])("refuses a file that is not valid, naming the field: %#", (value, message) => {
    expect(problemOf(value)).toMatch(message);
  });
});
