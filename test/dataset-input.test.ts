/**
 * The user's own dataset (`EVAL_DATASET`, a BEIR folder) at its edges: a split that is a path, a
 * file that is not UTF-8, an id that is not text, judgments that hold nothing relevant. Each is an
 * input error of one line naming the variable, the file (and line) and the rule, so `pnpm eval`
 * exits 2 before Evalite starts, and never reads outside the folder or changes an id.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readBeirDataset } from "@hybrid-search/trec-eval/formats";
import { afterAll, describe, expect, it } from "vitest";
import { DatasetError, loadDataset } from "../helpers/dataset.js";
import { evalInProcess } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "dataset-input-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let made = 0;

const CORPUS =
  '{"_id":"d1","title":"Cancel","text":"How to cancel a subscription."}\n{"_id":"d2","title":"Export","text":"Export your data."}\n';
const QUERIES = '{"_id":"q1","text":"cancel subscription"}\n{"_id":"q2","text":"export data"}\n';
const QRELS = "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\n";

/** A BEIR folder (`<scratch>/<n>/beir`) with the given files, the rest as above. */
function beir(files: { corpus?: string | Buffer; queries?: string | Buffer; qrels?: string | Buffer } = {}): string {
  const dir = join(scratch, String(++made), "beir");
  mkdirSync(join(dir, "qrels"), { recursive: true });
  writeFileSync(join(dir, "corpus.jsonl"), files.corpus ?? CORPUS);
  writeFileSync(join(dir, "queries.jsonl"), files.queries ?? QUERIES);
  writeFileSync(join(dir, "qrels", "test.tsv"), files.qrels ?? QRELS);
  return dir;
}

/** loadDataset's DatasetError message for `env`; fails the test when it loads. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadDataset(env);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error(`loadDataset(${JSON.stringify(env)}) loaded`);
}

describe("EVAL_DATASET_SPLIT is a name, never a path", () => {
  it("../outside is refused and the file beside qrels/ is not read", async () => {
    const dir = beir();
    // What the split would have read on main: <dir>/qrels/../outside.tsv, a qrels file outside qrels/.
    writeFileSync(join(dir, "outside.tsv"), QRELS);
    expect(refusal({ EVAL_DATASET: dir, EVAL_DATASET_SPLIT: "../outside" })).toBe(
      `EVAL_DATASET_SPLIT: split "../outside" is not a split name (up to 100 letters, digits, '.', '_' and '-', not starting with '.': the file qrels/<split>.tsv of the dataset folder)`,
    );
    for (const split of ["..", ".hidden", "a/b", "/etc/passwd", "a\\b", "x".repeat(101)])
      expect(refusal({ EVAL_DATASET: dir, EVAL_DATASET_SPLIT: split }), split).toMatch(/^EVAL_DATASET_SPLIT: split .* is not a split name/);
    expect(() => readBeirDataset(dir, { split: "../outside" })).toThrow(`${dir}: split "../outside" is not a split name`);
    expect(loadDataset({ EVAL_DATASET: dir, EVAL_DATASET_SPLIT: "test" }).cases).toHaveLength(2);
    const r = await evalInProcess(["search"], { EVAL_DATASET: dir, EVAL_DATASET_SPLIT: "../outside" });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(/^eval: EVAL_DATASET_SPLIT: split "\.\.\/outside" is not a split name/);
  });
});

describe("files that are not UTF-8", () => {
  it("a UTF-16 queries.jsonl is named UTF-16, not garbage JSON and not something to index", () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(QUERIES, "utf16le")]);
    const dir = beir({ queries: utf16 });
    expect(refusal({ EVAL_DATASET: dir })).toBe(
      `EVAL_DATASET: ${join(dir, "queries.jsonl")}: the file is UTF-16LE (byte-order mark FF FE) text, not UTF-8: convert it to UTF-8`,
    );
  });

  it("a qrels id that is not UTF-8 is refused, never read as U+FFFD (which would change the id)", () => {
    const qrels = Buffer.concat([Buffer.from("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td"), Buffer.from([0xff]), Buffer.from("2\t1\n")]);
    const dir = beir({ qrels });
    expect(refusal({ EVAL_DATASET: dir })).toBe(
      `EVAL_DATASET: ${join(dir, "qrels", "test.tsv")}:3: invalid UTF-8; ids and texts must be UTF-8 text (read as is, never replaced)`,
    );
  });
});

describe("ids that are not text", () => {
  it.each([
    ["corpus.jsonl", { corpus: `${CORPUS}{"_id":"\\udc00x","text":"b"}\n` }, 3, "_id"],
    ["queries.jsonl", { queries: `{"id":"\\udc00x","text":"b"}\n${QUERIES}` }, 1, "id"],
  ] as const)("a lone-surrogate id in %s is refused, naming the line and the field", (file, files, line, field) => {
    const dir = beir(files);
    expect(refusal({ EVAL_DATASET: dir })).toBe(
      `EVAL_DATASET: ${join(dir, file)}:${line}: "${field}" "\\udc00x" holds a lone surrogate (U+DC00 at character 0), which is not Unicode text; ids are read exactly, never changed`,
    );
  });
});

describe("judgments with nothing relevant", () => {
  it("qrels whose grades are all 0 are an input error (exit 2) saying no query has a relevant document", async () => {
    const dir = beir({ qrels: "query-id\tcorpus-id\tscore\nq1\td1\t0\nq2\td2\t0\nq2\td1\t-1\n" });
    const expected = `EVAL_DATASET: ${join(dir, "qrels", "test.tsv")}: no query has a relevant document (a grade of 1 or more): every judgment is 0 or negative, so nothing can be scored`;
    expect(refusal({ EVAL_DATASET: dir })).toBe(expected);
    const r = await evalInProcess(["search"], { EVAL_DATASET: dir });
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe(`eval: ${expected}\n`);
    expect(r.stderr).not.toContain("Evalite recorded no run");
  });
});
