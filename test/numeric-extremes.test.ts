/**
 * Numeric extremes in every reader of grades and scores: the class of input behind a BEIR grade of
 * 2^31 that gave Recall 1 and nDCG@10 = 0 for a perfect ranking, silently. Each reader takes the
 * same values, and each either reads the number the file means or refuses it in one line naming
 * the file, the line (or record) and the rule, never another number:
 *
 * - grades: TREC qrels (`pnpm trec-eval`), BEIR qrels (`readBeirDataset`, `EVAL_DATASET`), the
 *   fixture queries' judgments (queries.json, the CJK and lexical lanes; JSON);
 * - scores and ranks: TREC runs (`pnpm trec-eval`, and recorded runs as a target: `EVAL_RUN_DIR`).
 *
 * The bound is one module (`@hybrid-search/trec-eval/formats`: `parseGrade`, `gradeValueProblem`),
 * so every reader refuses the same grades with the same words.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { main as trecEvalMain } from "@hybrid-search/trec-eval/cli";
import { FormatError, gradeValueProblem, parseGrade, readBeirDataset, readTrecQrels, readTrecRun } from "@hybrid-search/trec-eval/formats";
import { afterAll, describe, expect, it } from "vitest";
import { DatasetError, loadDataset } from "../helpers/dataset.js";
import { loadCjkQueries } from "../helpers/fixture-files/cjk-lane.js";
import { FixtureError } from "../helpers/fixture-files/errors.js";
import { loadLexicalCases } from "../helpers/fixture-files/lexical-lane.js";
import { CJK_DIR, FIXTURES_DIR, LEXICAL_DIR } from "../helpers/fixture-files/paths.js";
import { loadQueries } from "../helpers/fixture-files/queries.js";
import { openRecordedTarget } from "../helpers/targets/recorded-target.js";

const scratch = mkdtempSync(join(tmpdir(), "numeric-extremes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
/** A fresh folder under the scratch folder. */
function folder(): string {
  const dir = join(scratch, String(++files));
  mkdirSync(dir, { recursive: true });
  return dir;
}

const OUT_OF_RANGE = /is out of range: a grade is an integer from -2147483647 to 2147483647 \(C's int, as trec_eval reads it\)$/;
const NOT_INTEGER = /is not an integer \(a judged grade like 0, 1, 2; negative = unjudged\)$/;

/**
 * Grades as a text file spells them, and what every text reader makes of each: the grade read,
 * or the rule it breaks. A leading space is the field separator's in either format (TREC splits on
 * whitespace, BEIR trims its tab-separated fields), so " 1" is 1.
 */
const TEXT_GRADES: ReadonlyArray<[text: string, expected: number | RegExp]> = [
  ["2147483648", OUT_OF_RANGE],
  ["9007199254740993", OUT_OF_RANGE],
  ["-2147483648", OUT_OF_RANGE],
  ["1e20", NOT_INTEGER],
  ["1.5", NOT_INTEGER],
  ["NaN", NOT_INTEGER],
  ["0x1", NOT_INTEGER],
  ["-1", -1],
  [" 1", 1],
  ["2147483647", 2147483647],
  ["-2147483647", -2147483647],
  ["+2", 2],
  ["-0", 0],
  ["007", 7],
];

describe("grades: one bound, one message (parseGrade, gradeValueProblem)", () => {
  it.each(TEXT_GRADES)("text %j", (text, expected) => {
    const read = parseGrade(text.trim());
    if (typeof expected === "number") expect(read).toEqual({ grade: expected });
    else expect("problem" in read && read.problem).toMatch(expected);
  });

  it("JSON values: an integer within ±2147483647, nothing else", () => {
    for (const value of [0, 3, -1, 2147483647, -2147483647]) expect(gradeValueProblem(value), String(value)).toBeNull();
    // 9007199254740993 in a JSON file is 2^53 once parsed: over the bound either way.
    for (const value of [2147483648, JSON.parse("9007199254740993"), 1e20, -2147483648])
      expect(gradeValueProblem(value), String(value)).toMatch(OUT_OF_RANGE);
    for (const value of [1.5, " 1", "1", null, Number.NaN, Number.POSITIVE_INFINITY, true])
      expect(gradeValueProblem(value), String(value)).toMatch(NOT_INTEGER);
    expect(gradeValueProblem(1.5, "judgments.d1")).toBe(
      "judgments.d1 '1.5' is not an integer (a judged grade like 0, 1, 2; negative = unjudged)",
    );
  });
});

describe("TREC qrels (pnpm trec-eval)", () => {
  const RUN = "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n";

  it.each(TEXT_GRADES)("grade %j", (text, expected) => {
    const dir = folder();
    const qrels = join(dir, "qrels");
    writeFileSync(qrels, `q1 0 d1 ${text}\nq1 0 d2 1\n`);
    writeFileSync(join(dir, "run"), RUN);
    let stderr = "";
    const code = trecEvalMain(["-m", "num_rel", qrels, join(dir, "run")], { stdout: () => undefined, stderr: (t) => (stderr += t) });
    if (typeof expected === "number") {
      expect(readTrecQrels(qrels).topics.get("q1")!.grades.get("d1")).toBe(expected);
      expect(code, stderr).toBe(0);
    } else {
      expect(() => readTrecQrels(qrels)).toThrow(FormatError);
      expect(() => readTrecQrels(qrels)).toThrow(expected);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^trec-eval: ${qrels}:1: grade '${literal(text.trim())}' `));
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });
});

/** A BEIR folder whose qrels judge q1's d1 with `grade` (and d2 with 1). */
function beirFolder(grade: string): string {
  const dir = folder();
  writeFileSync(join(dir, "corpus.jsonl"), '{"_id":"d1","text":"alpha"}\n{"_id":"d2","text":"beta"}\n');
  writeFileSync(join(dir, "queries.jsonl"), '{"_id":"q1","text":"alpha"}\n');
  mkdirSync(join(dir, "qrels"));
  writeFileSync(join(dir, "qrels", "test.tsv"), `query-id\tcorpus-id\tscore\nq1\td1\t${grade}\nq1\td2\t1\n`);
  return dir;
}

describe("BEIR qrels (readBeirDataset, EVAL_DATASET)", () => {
  it.each(TEXT_GRADES)("score %j", (text, expected) => {
    const dir = beirFolder(text);
    if (typeof expected === "number") {
      expect(readBeirDataset(dir).qrels.topics.get("q1")!.grades.get("d1")).toBe(expected);
      expect(loadDataset({ EVAL_DATASET: dir }).cases[0]!.judgments.d1).toBe(expected);
    } else {
      const file = join(dir, "qrels", "test.tsv");
      expect(() => readBeirDataset(dir)).toThrow(expected);
      let error: unknown;
      try {
        loadDataset({ EVAL_DATASET: dir });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DatasetError);
      expect((error as Error).message).toMatch(new RegExp(`^EVAL_DATASET: ${literal(file)}:2: score '${literal(text.trim())}' `));
      expect((error as Error).message).toMatch(expected);
      expect((error as Error).message).not.toContain("\n");
    }
  });
});

/** Grades as JSON spells them (raw text: 9007199254740993 and 1e20 must reach the parser as written). */
const JSON_GRADES = ["2147483648", "9007199254740993", "1e20", "-1", "1.5", '" 1"', "-2147483648"];

describe("fixture judgments (JSON, grades 0 to 3 by their schemas)", () => {
  const lanes = [
    {
      name: "queries.json",
      source: join(FIXTURES_DIR, "queries.json"),
      corpusDir: join(FIXTURES_DIR, "corpus"),
      load: loadQueries,
      records: "queries",
    },
    {
      name: "CJK lane",
      source: join(CJK_DIR, "queries.json"),
      corpusDir: join(CJK_DIR, "corpus"),
      load: loadCjkQueries,
      records: "queries",
    },
    {
      name: "lexical lane",
      source: join(LEXICAL_DIR, "queries.json"),
      corpusDir: LEXICAL_DIR,
      load: loadLexicalCases,
      records: "queries",
    },
  ] as const;

  for (const lane of lanes) {
    it.each(JSON_GRADES)(`${lane.name}: grade %s`, (raw) => {
      const data = JSON.parse(readFileSync(lane.source, "utf8")) as Record<
        string,
        Array<{ id: string; judgments: Record<string, number> }>
      >;
      const record = data[lane.records]![0]!;
      const doc = Object.keys(record.judgments)[0]!;
      record.judgments[doc] = 424242;
      const dir = folder();
      writeFileSync(join(dir, "queries.json"), JSON.stringify(data, null, 2).replace("424242", raw));
      let error: unknown;
      try {
        lane.load({ dir, corpusDir: lane.corpusDir });
      } catch (caught) {
        error = caught;
      }
      expect(error, raw).toBeInstanceOf(FixtureError);
      const message = (error as Error).message;
      expect(message).not.toContain("\n");
      // The file, the record and the field (`/<records>/0/judgments`, the document) are named.
      expect(message).toContain(join(dir, "queries.json"));
      expect(message).toContain(record.id);
      expect(message).toContain(`/${lane.records}/0/judgments`);
      expect(message).toContain(doc);
      expect(message).toMatch(/must be (at most 3|at least 0|an integer|integer|number)/);
    });
  }
});

/**
 * Scores and ranks as a run file spells them, and the score read (or the rule broken). The rank
 * column is never read (trec_eval orders by score), so a huge or malformed rank is no error.
 */
const RUN_SCORES: ReadonlyArray<[score: string, expected: number | RegExp]> = [
  ["1e309", /score '1e309' is not a finite decimal number$/],
  ["-1e309", /score '-1e309' is not a finite decimal number$/],
  ["NaN", /score 'NaN' is not a finite decimal number$/],
  ["nan", /score 'nan' is not a finite decimal number$/],
  ["inf", /score 'inf' is not a finite decimal number$/],
  ["Infinity", /score 'Infinity' is not a finite decimal number$/],
  ["0x10", /score '0x10' is not a finite decimal number$/],
  ["1e308", 1e308],
  ["-1e308", -1e308],
  ["4.9e-324", 5e-324],
  ["99999999999999999999", 1e20],
];

/** A run of q1 with d1 scored `score` (rank `rank`) and d2 scored 0.5. */
function runFile(score: string, rank = "1"): string {
  const dir = folder();
  const file = join(dir, "balanced.run");
  writeFileSync(file, `q1 Q0 d1 ${rank} ${score} r\nq1 Q0 d2 2 0.5 r\n`);
  return file;
}

function readScores(file: string): Map<string, number> {
  const scores = new Map<string, number>();
  readTrecRun(file, {
    onTopic: (t) => {
      for (let i = 0; i < t.count; i++) scores.set(t.docIds[i]!, t.scores[i]!);
    },
  });
  return scores;
}

describe("TREC runs (pnpm trec-eval, EVAL_RUN_DIR)", () => {
  it.each(RUN_SCORES)("score %j", async (score, expected) => {
    const file = runFile(score);
    const dir = join(file, "..");
    if (typeof expected === "number") {
      expect(readScores(file).get("d1")).toBe(expected);
      const target = openRecordedTarget(dir, new Set(["q1"]), undefined, (name) => name);
      const { results } = (await target.search({ id: "q1", query: "alpha", mode: "balanced", limit: 10 })).message;
      expect(results.find((r) => r.docId === "d1")?.score).toBe(expected);
    } else {
      expect(() => readScores(file)).toThrow(expected);
      let error: unknown;
      try {
        openRecordedTarget(dir, new Set(["q1"]), undefined, (name) => name);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(new RegExp(`^EVAL_RUN_DIR: ${literal(file)}:1: `));
      expect((error as Error).message).toMatch(expected);
      writeFileSync(join(dir, "qrels"), "q1 0 d1 1\n");
      let stderr = "";
      expect(trecEvalMain([join(dir, "qrels"), file], { stdout: () => undefined, stderr: (t) => (stderr += t) })).toBe(2);
      expect(stderr).toMatch(new RegExp(`^trec-eval: ${literal(file)}:1: score `));
      expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("-0 is a score of 0: it ties with 0 and the tie goes by document id, as trec_eval breaks it", () => {
    const dir = folder();
    writeFileSync(join(dir, "qrels"), "q1 0 a 1\nq1 0 b 0\n");
    const ranked = (scoreA: string, scoreB: string) => {
      writeFileSync(join(dir, "run"), `q1 Q0 a 1 ${scoreA} r\nq1 Q0 b 2 ${scoreB} r\n`);
      let out = "";
      expect(
        trecEvalMain(["-m", "recip_rank", join(dir, "qrels"), join(dir, "run")], {
          stdout: (c) => (out += c.toString()),
          stderr: () => undefined,
        }),
      ).toBe(0);
      return out;
    };
    // b sorts before a on a tie (document id descending): a is at rank 2 whether its 0 is written -0 or 0.
    expect(ranked("0", "0")).toContain("recip_rank            \tall\t0.5000");
    expect(ranked("-0", "0")).toBe(ranked("0", "0"));
    expect(ranked("0", "-0")).toBe(ranked("0", "0"));
  });

  it("ignores the rank column however large or malformed: the score decides", () => {
    for (const rank of ["99999999999999999999999", "1e309", "-5", "NaN"]) expect(readScores(runFile("2.5", rank)).get("d1")).toBe(2.5);
  });
});

/** `text` as a literal in a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
