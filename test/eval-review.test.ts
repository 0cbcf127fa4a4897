/**
 * `pnpm eval:review`: in process (bin/eval-review.ts's main, its decisions read from a stream) —
 * accept, edit, reject, skip and quit on drafted and harvested folders, what each writes, the edits
 * it refuses, an incomplete candidate completed into ask-cases.json — and once through a
 * pseudo-terminal (`script` of util-linux), the compiled CLI as a person runs it, stopped in the
 * middle: every decision made before is on disk, nothing half written.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { main as draft } from "../bin/eval-draft.js";
import { main as harvestMain } from "../bin/eval-harvest.js";
import { main } from "../bin/eval-review.js";
import { type AnswerCase, isDraft, loadDataset } from "../helpers/dataset.js";
import { ROOT, scriptCommand } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "eval-review-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const quiet = { stdout: () => {}, stderr: () => {} };
const TODAY = new Date("2026-03-04T10:00:00Z");

/** A folder of drafts from the starter: its first drafts are answer cases (off-corpus first), then queries. */
async function drafted(name: string): Promise<string> {
  const out = join(scratch, name);
  expect(await draft([join(ROOT, "templates/starter"), out, "--n", "8"], quiet, {})).toBe(0);
  return out;
}

async function review(folder: string, lines: string[], by = "ada") {
  const input = new PassThrough();
  input.end(lines.map((l) => `${l}\n`).join(""));
  let stdout = "";
  let stderr = "";
  const code = await main(
    [folder, "--by", by],
    { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), input },
    {},
    () => TODAY,
  );
  return { code, stdout, stderr };
}

const askCases = (folder: string): AnswerCase[] =>
  (JSON.parse(readFileSync(join(folder, "ask-cases.json"), "utf8")) as { cases: AnswerCase[] }).cases;
const log = (folder: string) =>
  readFileSync(join(folder, "review.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; decision: string });

describe("pnpm eval:review", () => {
  it("accepts, edits, rejects and skips, each decision written at once; accepted cases lose status and gate", async () => {
    const folder = await drafted("walk");
    const before = askCases(folder).filter(isDraft);
    const numbered = before.findIndex((c) => c.category === "number");
    expect(numbered).toBeGreaterThanOrEqual(0);
    const target = before[numbered]!;
    // A new fact from the number question's own quote (so it is in its document): its first long word.
    const fact = /[A-Za-z]{5,}/.exec(target.provenance!.quote!)![0];
    // Walk the answer drafts in order: accept the first, reject the next, skip the rest up to the number
    // question, edit it (a fact found nowhere is refused, then a good one), accept it, quit.
    const first = before[0]!.id;
    const rejectAt = numbered === 1 ? 2 : 1;
    const moves: string[] = [];
    before.forEach((_, i) => {
      if (i > Math.max(numbered, rejectAt)) return;
      if (i === 0) moves.push("a");
      else if (i === numbered) moves.push("e", "no such fact anywhere", "e", fact, "a");
      else if (i === rejectAt) moves.push("r");
      else moves.push("s");
    });
    moves.push("q");
    const second = before[rejectAt]!.id;
    const r = await review(folder, moves);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^eval:review: \d+ draft\(s\) in .*, reviewed by ada; each decision is written at once\n/);
    expect(r.stdout).toContain(`accepted ${first}`);
    expect(r.stdout).toContain(`rejected ${second} (kept in review.jsonl)`);
    expect(r.stdout).toContain('not changed: "no such fact anywhere" does not occur in the cited document(s)');
    expect(r.stdout).toMatch(/eval:review: stopped: 2 accepted, 1 edit\(s\), 1 rejected, \d+ skipped; \d+ draft\(s\) left/);
    const after = askCases(folder);
    const byId = new Map(after.map((c) => [c.id, c]));
    expect(byId.get(first!)).toMatchObject({ reviewed: { by: "ada", date: "2026-03-04" } });
    expect(byId.get(first!)!.status).toBeUndefined();
    expect(byId.get(first!)!.provenance).toEqual(before[0]!.provenance);
    expect(byId.has(second!)).toBe(false);
    const edited = byId.get(target.id)!;
    expect(edited).toMatchObject({ expectedSubstrings: [fact], reviewed: { by: "ada", date: "2026-03-04", edited: true } });
    expect(edited.status).toBeUndefined();
    // What came after the quit is untouched.
    expect(before.slice(Math.max(numbered, rejectAt) + 1).every((c) => byId.get(c.id)?.status === "draft")).toBe(true);
    expect(
      log(folder)
        .map((l) => l.decision)
        .sort(),
    ).toEqual(["accept", "accept", "edit", "reject"]);
    // The folder still loads as a run reads it; what was accepted is no draft any more.
    const dataset = loadDataset({ EVAL_DATASET: folder });
    expect(dataset.askCases.filter((c) => c.id === first || c.id === edited.id)).toHaveLength(2);
    expect(dataset.askCases.filter((c) => c.id === first || c.id === edited.id).every((c) => !isDraft(c))).toBe(true);
    expect(readdirSync(folder).some((f) => f.includes(".writing-"))).toBe(false);
  });

  it("completes an incomplete candidate into ask-cases.json, judges a harvested query anew, and stops at the end of its input", async () => {
    const folder = join(scratch, "harvested");
    expect(harvestMain([join(ROOT, "test/datasets/feedback/feedback.jsonl"), folder], quiet, {})).toBe(0);
    // Order: the answer candidate, two queries, two turn cases, two incomplete ones (an answer, a turn).
    const r = await review(folder, [
      "s",
      "e",
      "en/billing/cancel-annual-plan.md=3 en/nope.md=1",
      "e",
      "en/billing/cancel-annual-plan.md=3 en/billing/cancel-monthly-plan.md=1",
      "a",
      "r",
      "s",
      "s",
      "e",
      "E-1001",
      "en/troubleshooting/error-codes.md",
      "a",
    ]);
    expect(r.stdout).toContain("not changed: en/nope.md is not a document of the corpus");
    expect(r.stdout).toMatch(/eval:review: stopped: /);
    const queries = (JSON.parse(readFileSync(join(folder, "queries.json"), "utf8")) as { queries: Array<Record<string, unknown>> }).queries;
    expect(queries.find((q) => q.id === "harvest-q-001")).toMatchObject({
      judgments: { "en/billing/cancel-annual-plan.md": 3, "en/billing/cancel-monthly-plan.md": 1 },
      relevantDocs: ["en/billing/cancel-annual-plan.md", "en/billing/cancel-monthly-plan.md"],
      reviewed: { by: "ada", edited: true },
    });
    expect(queries.some((q) => q.id === "harvest-q-002")).toBe(false);
    const completed = askCases(folder).find((c) => c.id === "harvest-a-002")!;
    expect(completed).toMatchObject({
      expectedSubstrings: ["E-1001"],
      mustCite: ["en/troubleshooting/error-codes.md"],
      reviewed: { by: "ada", edited: true },
    });
    expect(completed.provenance?.feedbackId).toBe("fb-2002");
    const incomplete = JSON.parse(readFileSync(join(folder, "incomplete.json"), "utf8")) as { cases: Array<{ id: string }> };
    expect(incomplete.cases.map((c) => c.id)).toEqual(["t-027"]);
    expect(loadDataset({ EVAL_DATASET: folder }).askCases.some((c) => c.id === "harvest-a-002")).toBe(true);
  });

  it("a folder that is not a dataset is one line and exit 2; one without drafts says so", async () => {
    const r = await review(join(scratch, "nothing-here"), []);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(/^eval:review: [^\n]*nothing-here: no such folder\n$/);
    const plain = await review(join(ROOT, "templates/starter"), []);
    expect(plain.stdout).toMatch(/holds no drafts: nothing to review\n$/);
  });

  it("through a pseudo-terminal (script): a person's decisions, each on disk before the next; stopped midway, nothing is lost", async () => {
    if (spawnSync("script", ["--version"]).status !== 0) throw new Error("`script` (util-linux) is needed for the pseudo-terminal test");
    const folder = await drafted("pty");
    const before = askCases(folder).filter(isDraft);
    const { command, args } = scriptCommand("eval:review");
    const line = [command, ...args, folder, "--by", "pty-tester"].map((a) => `'${a}'`).join(" ");
    const child = spawn("script", ["-qfec", line, "/dev/null"], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let seen = "";
    child.stdout.on("data", (chunk: Buffer) => void (seen += chunk.toString()));
    const prompts = (): number => seen.split("[q]uit ›").length - 1;
    const waitFor = async (test: () => boolean): Promise<void> => {
      for (let waited = 0; !test(); waited += 20) {
        if (waited > 20_000) throw new Error(`timed out; the terminal showed:\n${seen}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const type = async (text: string, nextPrompt: number): Promise<void> => {
      child.stdin.write(`${text}\r`);
      await waitFor(() => prompts() >= nextPrompt);
    };
    await waitFor(() => prompts() >= 1);
    await type("a", 2); // accept the first
    await type("r", 3); // reject the second
    // Stopped at the third, as a closed terminal or a Ctrl-C would stop it.
    child.kill("SIGTERM");
    await new Promise((r) => child.on("close", r));
    expect(seen).toContain("reviewed by pty-tester");
    const after = askCases(folder);
    expect(after.find((c) => c.id === before[0]!.id)).toMatchObject({ reviewed: { by: "pty-tester" } });
    expect(after.find((c) => c.id === before[0]!.id)!.status).toBeUndefined();
    expect(after.some((c) => c.id === before[1]!.id)).toBe(false);
    expect(after.filter(isDraft).map((c) => c.id)).toEqual(before.slice(2).map((c) => c.id));
    expect(readdirSync(folder).some((f) => f.includes(".writing-"))).toBe(false);
    expect(existsSync(join(folder, "review.jsonl"))).toBe(true);
    expect(loadDataset({ EVAL_DATASET: folder }).askCases.length).toBe(after.length);
  });
});
