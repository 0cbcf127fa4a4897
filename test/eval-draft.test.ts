/**
 * `pnpm eval:draft` in process (bin/eval-draft.ts's main): drafts from the starter (as `pnpm
 * eval:init` writes it), the fixtures, a golden-QA sample and bare corpora, each written folder
 * loading as a dataset with its drafts beside the source's own cases; a model's drafts (the AI
 * SDK's mock models); and its one-line errors, with nothing written. What the drafter drafts is
 * tested in helpers/drafting/drafting.test.ts; the compiled CLI is spawned in test/compiled-clis.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedModel } from "@hybrid-search/engine/testing";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-draft.js";
import { main as init } from "../bin/eval-init.js";
import { isDraft, loadDataset, reviewedOnly } from "../helpers/dataset.js";
import { ROOT } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "eval-draft-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function draft(argv: string[], given: Parameters<typeof main>[3] = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) }, {}, given);
  return { code, stdout, stderr };
}

const quiet = { stdout: () => {}, stderr: () => {} };

describe("pnpm eval:draft", () => {
  it.each([
    ["the starter (pnpm eval:init)", "starter", 20],
    ["the fixtures", join(ROOT, "fixtures"), 60],
    ["a golden-QA sample", join(ROOT, "test/datasets/golden-qa"), 10],
  ])("on %s writes a folder that loads as a dataset, the source's cases as they were and the drafts beside them", async (_, source, n) => {
    let from = source;
    if (source === "starter") {
      from = join(scratch, "starter");
      expect(init([from], quiet)).toBe(0);
    }
    const out = join(scratch, `drafts-${readdirSync(scratch).length}`);
    const r = await draft([from, out, "--n", String(n)]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^eval:draft: read .* documents/);
    expect(r.stdout).toMatch(/^eval:draft: drafted \d+ of \d+ asked, by the offline rules/m);
    expect(r.stdout).toMatch(/every drafted answer case holds \((\d+) of \1: each expected fact in its quote/);
    const original = loadDataset({ EVAL_DATASET: from });
    const written = loadDataset({ EVAL_DATASET: out });
    expect(reviewedOnly(written.askCases).map((c) => c.id)).toEqual(original.askCases.map((c) => c.id));
    // Queries derived from drafted answer cases are drafts too, but not drafted cases of their own.
    const drafts = [...written.askCases.filter(isDraft), ...(written.derivedCases ? [] : written.cases.filter(isDraft))];
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.length).toBeLessThanOrEqual(n);
    for (const d of drafts)
      expect(d.provenance).toMatchObject({
        method: expect.stringMatching(/^structure\//),
        drafted: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      });
  });

  it("drafts from a bare corpus: a folder of documents, or a corpus.jsonl", async () => {
    const folder = join(scratch, "bare");
    mkdirSync(folder);
    writeFileSync(join(folder, "plans.md"), "# Plans\n\nThe Basic plan has 20 GB of storage. Sharing links expire after 14 days.\n");
    writeFileSync(
      join(folder, "export.md"),
      "# Export\n\n## Request an export\n\n1. Open **Settings → Export**.\n2. Choose **Start export**.\n",
    );
    const fromFolder = await draft([folder, join(scratch, "bare-out"), "--n", "6"]);
    expect(fromFolder.stderr).toBe("");
    expect(fromFolder.stdout).toMatch(/read .* as a bare corpus \(a folder of documents, no cases\): 2 documents/);
    expect(loadDataset({ EVAL_DATASET: join(scratch, "bare-out") }).askCases.filter(isDraft).length).toBeGreaterThan(0);
    const jsonl = join(scratch, "corpus.jsonl");
    writeFileSync(jsonl, `${JSON.stringify({ _id: "d1", title: "Loans", text: "A loan lasts 21 days. Renewals are possible twice." })}\n`);
    const fromJsonl = await draft([jsonl, join(scratch, "jsonl-out"), "--n", "3"]);
    expect(fromJsonl.stderr).toBe("");
    expect(fromJsonl.stdout).toMatch(/as a bare corpus \(a corpus\.jsonl, no cases\): 1 documents/);
    const written = loadDataset({ EVAL_DATASET: join(scratch, "jsonl-out") });
    // The corpus keeps its record's id (written in its file's front matter), so the draft cites "d1".
    expect(written.askCases.find((c) => c.category === "number")).toMatchObject({ expectedSubstrings: ["21 days"], mustCite: ["d1"] });
  });

  it("with a model, the model drafts the answer cases, each checked the same way", async () => {
    const reply = JSON.stringify({ question: "How long does a loan last?", facts: ["21 days"], quote: "A loan lasts 21 days." });
    const jsonl = join(scratch, "model-corpus.jsonl");
    writeFileSync(jsonl, `${JSON.stringify({ _id: "d1", title: "Loans", text: "A loan lasts 21 days. Renewals are possible twice." })}\n`);
    const r = await draft([jsonl, join(scratch, "model-out"), "--n", "4"], { model: scriptedModel("drafter", reply) });
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/by the model mock\/drafter \(answer cases; queries and off-corpus questions by the offline rules\)/);
    const c = loadDataset({ EVAL_DATASET: join(scratch, "model-out") }).askCases.find((x) => x.category === "single-hop")!;
    expect(c).toMatchObject({
      question: "How long does a loan last?",
      expectedSubstrings: ["21 days"],
      status: "draft",
      provenance: { method: "model/mock/drafter", docId: "d1", quote: "A loan lasts 21 days." },
    });
    const offline = await draft([jsonl, join(scratch, "offline-out"), "--n", "4", "--offline"], { model: scriptedModel("unused", reply) });
    expect(offline.stdout).toMatch(/by the offline rules/);
  });

  it("a folder that is not empty, a corpus without text and bad flags are one line and exit 2, with nothing written", async () => {
    const full = join(scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "keep.txt"), "mine");
    const refused = await draft([join(ROOT, "fixtures"), full]);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toMatch(/^eval:draft: [^\n]+ is not empty; eval:draft writes only into a new or empty folder[^\n]*\n$/);
    expect(readdirSync(full)).toEqual(["keep.txt"]);

    const empty = join(scratch, "empty-corpus");
    mkdirSync(empty);
    writeFileSync(join(empty, "a.md"), "");
    writeFileSync(join(empty, "b.md"), "   \n");
    const out = join(scratch, "never");
    const noText = await draft([empty, out]);
    expect(noText.code).toBe(2);
    expect(noText.stderr).toMatch(
      /^eval:draft: [^\n]*empty-corpus: none of its 2 document\(s\) has any text: there is nothing to draft from\n$/,
    );
    expect(existsSync(out)).toBe(false);

    expect((await draft([join(ROOT, "fixtures"), out, "--n", "0"])).stderr).toBe('eval:draft: --n must be a positive integer, got "0"\n');
    expect((await draft([join(ROOT, "fixtures"), out, "--languages", "english"])).stderr).toBe(
      'eval:draft: --languages takes language codes such as en,de, got "english"\n',
    );
    expect((await draft([join(ROOT, "fixtures")])).stderr).toMatch(
      /^eval:draft: a dataset \(or corpus\) and a new folder are needed, got 1 argument\(s\); Usage: /,
    );
    expect((await draft([join(scratch, "nope"), out])).stderr).toMatch(/^eval:draft: [^\n]*nope: cannot read: no such folder or file\n$/);
    expect(existsSync(out)).toBe(false);
  });
});
