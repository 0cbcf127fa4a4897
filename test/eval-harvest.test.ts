/**
 * `pnpm eval:harvest` in process (bin/eval-harvest.ts's main) on the sample feedback file
 * (test/datasets/feedback/feedback.jsonl, written for this project with e-mail addresses, phone
 * numbers, tokens and keys in it): the candidates it writes, scrubbed — none of the planted values
 * is anywhere in the folder — each with its feedback id, loading as a dataset; and its one-line
 * errors, with nothing written. The candidates' rules are tested in bin/lib/harvest/harvest.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-harvest.js";
import { isDraft, loadDataset } from "../helpers/dataset.js";
import { ROOT } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "eval-harvest-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const SAMPLE = join(ROOT, "test/datasets/feedback/feedback.jsonl");

function harvesting(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const code = main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) }, env);
  return { code, stdout, stderr };
}

/** Every file of a folder, as text. */
function allText(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !relative(folder, e.parentPath).startsWith("corpus"))
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

describe("pnpm eval:harvest", () => {
  it("writes scrubbed candidates from the sample feedback, each with its record's id, in a folder that loads as a dataset", () => {
    const out = join(scratch, "harvested");
    const r = harvesting([SAMPLE, out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("eval:harvest: read 11 feedback record(s) from");
    expect(r.stdout).toContain("(search 4, answer 4, turn 3), against dataset fixtures");
    expect(r.stdout).toContain("eval:harvest: scrubbed 7: 1 key(s), 2 token(s), 3 e-mail address(es), 1 phone number(s)\n");
    expect(r.stdout).toContain(
      "candidates: 7 — 2 retrieval case(s) from searches, 1 answer case(s) and 2 turn case(s) from ratings down, 2 that need an expectation (incomplete.json)",
    );
    expect(r.stdout).toContain("not candidates: 1 rated up, 1 already in the dataset, 1 asked again in the feedback (merged)");
    const text = allText(out);
    for (const planted of [
      "marta.rossi@example.com",
      "team@acme-example.org",
      "7946 0958",
      "sk-proj-Zx81Kq02Lm93Nb74Vc65",
      "9f8e7d6c5b4a3210ffee",
      "eyJhbGciOiJIUzI1NiJ9",
    ])
      expect(text).not.toContain(planted);
    expect(text).toContain("[email]");
    expect(text).toContain("[key]");

    const dataset = loadDataset({ EVAL_DATASET: out });
    const answers = dataset.askCases.filter(isDraft);
    expect(answers.map((c) => [c.provenance?.feedbackId, c.expectedSubstrings, c.mustCite])).toEqual([
      ["fb-2001", ["30 days"], ["en/billing/cancel-annual-plan.md"]],
    ]);
    expect(dataset.cases.filter(isDraft).map((c) => [c.provenance?.feedbackId, c.judgments])).toEqual([
      ["fb-1001", { "en/billing/cancel-annual-plan.md": 3, "en/billing/cancel-monthly-plan.md": 0, "en/billing/plans-and-pricing.md": 1 }],
      ["fb-1004", { "de/abrechnung/rechnungen-und-zahlungsarten.md": 3 }],
    ]);
    const turns = JSON.parse(readFileSync(join(out, "turn-cases.json"), "utf8")) as {
      cases: Array<{ id: string; expect: unknown[]; provenance: { feedbackId: string } }>;
    };
    expect(turns.cases.map((c) => [c.id, c.provenance.feedbackId, c.expect])).toEqual([
      [
        "t-025",
        "fb-3001",
        [
          { kind: "cites-only-surfaced" },
          { kind: "calls-tool", tool: "catalog" },
          { kind: "cites", doc: "en/account/export-your-data.md" },
        ],
      ],
      ["t-026", "fb-3002", [{ kind: "outcome", is: "refused" }]],
    ]);
    const incomplete = JSON.parse(readFileSync(join(out, "incomplete.json"), "utf8")) as {
      cases: Array<{ kind: string; provenance: { feedbackId: string } }>;
    };
    expect(incomplete.cases.map((c) => [c.kind, c.provenance.feedbackId])).toEqual([
      ["answer", "fb-2002"],
      ["turn", "fb-3003"],
    ]);
  });

  it("a line that is not a feedback record, an answer not in the contract's shape and a folder that is not empty are one line and exit 2, nothing written", () => {
    const out = join(scratch, "never");
    const bad = (name: string, lines: string[]): string => {
      const path = join(scratch, name);
      writeFileSync(path, `${lines.join("\n")}\n`);
      return path;
    };
    const good = readFileSync(SAMPLE, "utf8").split("\n")[0]!;
    const notRecord = harvesting([bad("number.jsonl", [good, "42"]), out]);
    expect(notRecord).toMatchObject({ code: 2, stdout: "" });
    expect(notRecord.stderr).toMatch(
      /^eval:harvest: [^\n]*number\.jsonl: line 2 \(\/\): \[schema\] must be an object \(got the number 42\)\n$/,
    );
    const notJson = harvesting([bad("broken.jsonl", [good, "{ oops"]), out]);
    expect(notJson.stderr).toMatch(/^eval:harvest: [^\n]*broken\.jsonl: line 2 \(\/\): \[invalid-json\] [^\n]*\n$/);
    const noKind = harvesting([bad("nokind.jsonl", ['{"id":"x","query":"q"}']), out]);
    expect(noKind.stderr).toMatch(/line 1 \(\/\): \[schema\] missing required field "kind"\n$/);
    const shape = JSON.stringify({
      id: "a",
      kind: "answer",
      question: "Q?",
      rating: "down",
      response: { answer: "x", citations: [{ ref: 1 }], refused: false, sources: [] },
    });
    const notContract = harvesting([bad("shape.jsonl", [shape]), out]);
    expect(notContract.stderr).toMatch(
      /line 1 \(\/response\/citations\/0\): \[schema\] not the target contract's AskResponse: missing required field "docId"\n$/,
    );
    expect(existsSync(out)).toBe(false);

    const full = join(scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "mine.txt"), "x");
    const refused = harvesting([SAMPLE, full]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^eval:harvest: [^\n]+ is not empty; eval:harvest writes only into a new or empty folder[^\n]*\n$/);
    expect(readdirSync(full)).toEqual(["mine.txt"]);
  });
});
