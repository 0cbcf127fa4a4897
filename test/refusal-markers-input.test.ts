// A refusal-marker file that is not valid stops `pnpm eval` before any eval runs: one line naming
// the file and the field, exit 2. The answer evals read the file in their worker, where a bad file
// would only fail an eval, so bin/eval.ts loads it first. The real loader reads a real file here;
// only its folder is redirected (the repository's own file must stay valid for the other tests).
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { evalInProcess } from "./eval-run.js";

// Hoisted above the imports, with vi.mock: the mocked loader needs the folder before bin/eval.ts loads.
const dir = await vi.hoisted(async () => {
  const fs = await import("node:fs");
  const os = await import("node:os");
  const path = await import("node:path");
  return fs.mkdtempSync(path.join(os.tmpdir(), "refusal-markers-input-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

vi.mock("../helpers/fixture-files/refusal-markers.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../helpers/fixture-files/refusal-markers.js")>();
  return { ...original, loadRefusalMarkers: () => original.loadRefusalMarkers({ dir }) };
});

const VALID = {
  version: 1,
  markers: { en: ["i cannot answer"], de: ["kann ich nicht beantworten"], fr: ["je ne peux pas répondre"], it: ["non posso rispondere"] },
};

describe("pnpm eval with a refusal-marker file that is not valid", () => {
  it.each([
    ["a one-word phrase", { ...VALID, markers: { ...VALID.markers, it: ["non"] } }, /\/markers\/it\/0: must have at least two words/],
    ["a language left out", { ...VALID, markers: { en: VALID.markers.en } }, /\/markers: missing required field "de"/],
    ["not JSON", '{ "version": 1, "markers": ', /refusal-markers\.json: \[invalid-json\] invalid JSON at line 1, column \d+: /],
  ])("%s: one line naming the file and the field, exit 2, before Evalite starts", async (_, content, field) => {
    writeFileSync(join(dir, "refusal-markers.json"), typeof content === "string" ? content : JSON.stringify(content));
    const r = await evalInProcess(["ask"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toHaveLength(2); // one line and its newline
    expect(r.stderr).toMatch(/^eval: \S*refusal-markers\.json: /);
    expect(r.stderr).toMatch(field);
  });

  it("a valid file lets the run go on to its next check", async () => {
    writeFileSync(join(dir, "refusal-markers.json"), JSON.stringify(VALID));
    // The next check refuses the filter, so nothing runs: the marker file passed.
    const r = await evalInProcess(["no-such-eval"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^eval: no eval file is named "no-such-eval"/);
  });
});
