/**
 * Edge cases of the trec_eval conventions: through `trecEval` for the numbers, and through the
 * command line's `main` (in process; the compiled CLI is spawned in test/compiled-clis.test.ts) for
 * exit codes and one-line errors. Expected values are worked out by hand in the comments.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCommandLine } from "../test/command-line.js";
import { trecEval, type TrecEvalOptions } from "./trec-eval.js";
import { parseMeasureArg } from "./measure-spec.js";

const dir = mkdtempSync(join(tmpdir(), "trec-eval-edge-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string): string {
  const path = join(dir, `f${n++}.txt`);
  writeFileSync(path, text);
  return path;
}

/** Runs trecEval and returns "name topic" → value text. */
function evaluate(qrels: string, run: string, measures: string[], extra: Partial<TrecEvalOptions> = {}): Map<string, string> {
  const out = trecEval({ qrelsFile: file(qrels), runFile: file(run), measures: measures.map(parseMeasureArg), perTopic: true, ...extra });
  return new Map(
    out
      .trimEnd()
      .split("\n")
      .map((line) => {
        const [name, topic, value] = line.split("\t");
        return [`${name!.trim()} ${topic}`, value!] as [string, string];
      }),
  );
}

const cli = runCommandLine;

const QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 0\n2 0 y 0\n";

describe("trec_eval edge cases", () => {
  it("breaks score ties by docId descending, across relevant and non-relevant docs", () => {
    // Topic 1: a (rel) and b (non-rel) tie at 5: b ranks first, so the first relevant doc is rank 2.
    const r = evaluate("1 0 a 1\n1 0 b 0\n", "1 Q0 a 1 5 r\n1 Q0 b 2 5 r\n", ["recip_rank", "P.1"]);
    expect(r.get("recip_rank 1")).toBe("0.5000");
    expect(r.get("P_1 1")).toBe("0.0000");
    // Swap the judgments: now the relevant doc (b) wins the tie.
    const s = evaluate("1 0 a 0\n1 0 b 1\n", "1 Q0 a 1 5 r\n1 Q0 b 2 5 r\n", ["recip_rank"]);
    expect(s.get("recip_rank 1")).toBe("1.0000");
  });

  it("ignores the rank column: the score decides", () => {
    const r = evaluate("1 0 a 1\n1 0 b 0\n", "1 Q0 a 1 1 r\n1 Q0 b 2 9 r\n", ["recip_rank"]);
    expect(r.get("recip_rank 1")).toBe("0.5000");
  });

  it("scores a judged topic with no relevant document 0 on every measure (never 1), and averages it in", () => {
    const r = evaluate(QRELS, "1 Q0 c 1 3 r\n2 Q0 x 1 3 r\n2 Q0 y 2 2 r\n", [
      "map",
      "P.1",
      "recall.5",
      "ndcg_cut.5",
      "ndcg",
      "recip_rank",
      "num_q",
      "bpref",
      "Rprec",
    ]);
    for (const m of ["map", "P_1", "recall_5", "ndcg_cut_5", "ndcg", "recip_rank", "bpref", "Rprec"])
      expect(r.get(`${m} 2`), m).toBe("0.0000");
    expect(r.get("num_q all")).toBe("2");
    // Topic 1: c (grade 2) at rank 1, a never retrieved: AP = (1/1)/2; the mean over 2 topics halves it.
    expect(r.get("map 1")).toBe("0.5000");
    expect(r.get("map all")).toBe("0.2500");
    expect(r.get("recip_rank all")).toBe("0.5000");
  });

  it("divides P@k by k and recall@k by R when k exceeds the ranking", () => {
    const r = evaluate(QRELS, "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n2 Q0 x 1 1 r\n", ["P.1000", "recall.1000", "ndcg_cut.1000"]);
    expect(r.get("P_1000 1")).toBe("0.0010"); // 1 relevant retrieved / 1000
    expect(r.get("recall_1000 1")).toBe("0.5000"); // a of {a, c}
    // DCG = 1/log2(2) = 1; IDCG = 2/log2(2) + 1/log2(3)
    expect(r.get("ndcg_cut_1000 1")).toBe((1 / (2 + 1 / Math.log2(3))).toFixed(4));
  });

  it("-l 2 changes what is relevant (P, AP, R) but not nDCG's gains", () => {
    const run = "1 Q0 a 1 3 r\n1 Q0 c 2 2 r\n2 Q0 x 1 1 r\n";
    const l1 = evaluate(QRELS, run, ["P.2", "map", "num_rel", "ndcg"]);
    const l2 = evaluate(QRELS, run, ["P.2", "map", "num_rel", "ndcg"], { relevanceLevel: 2 });
    expect(l1.get("P_2 1")).toBe("1.0000");
    expect(l2.get("P_2 1")).toBe("0.5000"); // only c (grade 2) is relevant
    expect(l1.get("num_rel 1")).toBe("2");
    expect(l2.get("num_rel 1")).toBe("1");
    expect(l2.get("map 1")).toBe("0.5000"); // c at rank 2: (1/2)/1
    expect(l2.get("ndcg 1")).toBe(l1.get("ndcg 1"));
  });

  it("-c scores a judged topic missing from the run as 0 and averages over every judged topic", () => {
    const run = "1 Q0 c 1 3 r\n";
    const r = evaluate(QRELS, run, ["map", "num_q", "num_ret", "num_rel", "relstring", "utility", "unj.5", "rbp_resid"], {
      complete: true,
    });
    expect(r.get("num_q all")).toBe("2");
    expect(r.get("map 2")).toBe("0.0000");
    expect(r.get("map all")).toBe("0.2500");
    // trec_eval 10.0 evaluates a one-document placeholder, then zeroes these:
    expect(r.get("num_ret 2")).toBe("0");
    expect(r.get("relstring 2")).toBe("''");
    expect(r.get("utility 2")).toBe("0.0000");
    expect(r.get("unj_5 2")).toBe("0.0000");
    expect(r.get("rbp_resid 2")).toBe("0.0000");
    expect(r.get("num_rel 2")).toBe("0");
  });

  it("-c makes num_rel's summary count grade > 0 over every judged topic, ignoring -l (trec_eval's te_calc_avg_num_rel)", () => {
    // QRELS: topic 1 holds a (1), b (0), c (2); topic 2 only grade 0. Grade > 0: a, c = 2.
    const run = "1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n";
    const at = (level: number, complete: boolean) => evaluate(QRELS, run, ["num_rel"], { relevanceLevel: level, complete });
    // Per topic, -l decides (topic 1: grade >= 2 is c alone; grade >= 0 is all three) ...
    expect(at(2, true).get("num_rel 1")).toBe("1");
    expect(at(0, true).get("num_rel 1")).toBe("3");
    // ... but with -c the summary is recounted from the qrels with rel > 0, whatever -l.
    expect(at(2, true).get("num_rel all")).toBe("2");
    expect(at(0, true).get("num_rel all")).toBe("2");
    // Without -c it stays the sum of the per-topic values.
    expect(at(2, false).get("num_rel all")).toBe("1");
    expect(at(0, false).get("num_rel all")).toBe("5");
  });

  it("without -c a judged topic missing from the run is an error naming the qrels line", () => {
    expect(() => evaluate(QRELS, "1 Q0 c 1 3 r\n", ["map"])).toThrow(/f\d+\.txt:4: topic "2" is judged but has no results in .*; pass -c/);
  });

  it("ignores run topics without judgments", () => {
    const r = evaluate(QRELS, "1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n99 Q0 z 1 9 r\n", ["num_q", "num_ret"]);
    expect(r.get("num_q all")).toBe("2");
    expect(r.get("num_ret all")).toBe("2");
    expect(r.has("num_ret 99")).toBe(false);
  });

  it("checks duplicate documents only in judged topics, as trec_eval (its check is part of scoring a topic)", () => {
    // trec_eval finds duplicates in te_form_res_rels, which only runs for judged topics; a run
    // topic without judgments is never scored, so nothing is reported for it (and nothing here).
    const run = "1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n99 Q0 z 1 9 r\n99 Q0 z 2 8 r\n";
    expect(evaluate(QRELS, run, ["num_q", "num_ret"])).toEqual(evaluate(QRELS, "1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n", ["num_q", "num_ret"]));
    // In a judged topic the same repetition is an error, whatever the depth (-M 1 included).
    expect(() => evaluate(QRELS, "1 Q0 c 1 3 r\n1 Q0 a 2 2 r\n1 Q0 a 3 1 r\n2 Q0 x 1 1 r\n", ["num_q"], { maxDepth: 1 })).toThrow(
      /:3: document "a" appears twice for topic "1" \(first on line 2\)/,
    );
  });

  it("-M caps the depth after sorting", () => {
    const r = evaluate(QRELS, "1 Q0 a 1 1 r\n1 Q0 c 2 3 r\n2 Q0 x 1 1 r\n", ["num_ret", "num_rel_ret", "P.2"], { maxDepth: 1 });
    expect(r.get("num_ret 1")).toBe("1");
    expect(r.get("num_rel_ret 1")).toBe("1"); // c (score 3) survives, a does not
    expect(r.get("P_2 1")).toBe("0.5000");
  });

  it("reads qrels and a run that start with a UTF-8 byte-order mark as if it were absent", () => {
    // With the mark kept, the first topic id would be "\uFEFF1": -c would count 3 topics, and
    // without -c topic 1 would be "judged but has no results".
    const run = "1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n";
    const plain = evaluate(QRELS, run, ["num_q", "map"], { complete: true });
    expect(evaluate(`\uFEFF${QRELS}`, `\uFEFF${run}`, ["num_q", "map"], { complete: true })).toEqual(plain);
    expect(plain.get("num_q all")).toBe("2");
  });

  it("gives the same numbers for a run whose topics are interleaved", () => {
    const grouped = evaluate(QRELS, "1 Q0 c 1 3 r\n1 Q0 a 2 1 r\n2 Q0 x 1 1 r\n", ["all_trec"]);
    const interleaved = evaluate(QRELS, "1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n1 Q0 a 2 1 r\n", ["all_trec"]);
    expect(interleaved).toEqual(grouped);
  });
});

describe("trec-eval CLI errors: one line, exit 2", () => {
  const qrels = file(QRELS);
  const oneLine = (r: { stderr: string }) => expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);

  it("names the duplicate document's line", () => {
    const r = cli([qrels, file("1 Q0 a 1 3 r\n1 Q0 c 2 2 r\n1 Q0 a 3 1 r\n2 Q0 x 1 1 r\n")]);
    expect(r.status).toBe(2);
    oneLine(r);
    expect(r.stderr).toMatch(/^trec-eval: .*f\d+\.txt:3: document "a" appears twice for topic "1" \(first on line 1\)$/m);
  });

  it("rejects an empty run and a malformed line", () => {
    const empty = cli([qrels, file("")]);
    expect(empty.status).toBe(2);
    oneLine(empty);
    expect(empty.stderr).toMatch(/empty file/);
    const bad = cli([qrels, file("1 Q0 a 1 x r\n")]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/:1: score 'x' is not a finite decimal number/);
  });

  it("refuses a directory in one line, the same way for the qrels and the run", () => {
    const folder = mkdtempSync(join(dir, "folder-"));
    const run = file("1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n");
    for (const args of [
      [folder, run],
      [qrels, folder],
    ]) {
      const r = cli(args);
      expect(r.status, args.join(" ")).toBe(2);
      oneLine(r);
      expect(r.stderr).toBe(`trec-eval: ${folder}: cannot read: is a directory, expected a file\n`);
    }
  });

  it("refuses a line over the 1 MiB cap, and quotes at most ~200 characters of any input", () => {
    const long = cli([qrels, file(`1 Q0 c 1 3 r\n2 Q0 ${"x".repeat(3 << 20)} 1 1 r\n`)]);
    expect(long.status).toBe(2);
    oneLine(long);
    expect(long.stderr).toMatch(/:2: line is longer than 1 MiB \(1,048,576 bytes\), the limit for one line; it starts '2 Q0 x+…'$/m);
    const huge = "y".repeat(100_000);
    for (const args of [
      [`--${huge}`, qrels, qrels],
      ["-l", huge, qrels, qrels],
      ["-m", huge, qrels, qrels],
      [qrels, qrels, huge],
    ]) {
      const r = cli(args);
      expect(r.status).toBe(2);
      oneLine(r);
      expect(r.stderr, r.stderr.slice(0, 80)).not.toMatch(/y{201}/);
      expect(r.stderr.length).toBeLessThan(1500); // the supported-measure list takes ~500
    }
  });

  it("lists the supported measures for an unsupported one", () => {
    const r = cli(["-m", "mrr", qrels, file("1 Q0 a 1 1 r\n")]);
    expect(r.status).toBe(2);
    oneLine(r);
    expect(r.stderr).toMatch(/unsupported measure 'mrr'.*supported: runid, num_q, .*recip_rank/);
  });

  it("rejects bad options and a wrong number of files", () => {
    for (const args of [["-l", "x", qrels, qrels], ["-M0", qrels, qrels], [qrels], ["-J", qrels, qrels]]) {
      const r = cli(args);
      expect(r.status, args.join(" ")).toBe(2);
      oneLine(r);
      expect(r.stdout).toBe("");
    }
  });

  it("refuses an absurd -l and out-of-range measure parameters, naming the range", () => {
    const run = file("1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n");
    const cases: Array<[string[], RegExp]> = [
      [["-l", "2147483648"], /-l must be from 0 to 2147483647, got 2147483648 \(usage: /],
      [["-l", "99999999999999999999"], /-l must be from 0 to 2147483647, got 99999999999999999999 /],
      [["-m", "rbp.p=2"], /^trec-eval: rbp: persistence 'p=2' is out of range; it must be at least 0 and below 1$/m],
      [
        ["-m", "P.99999999999999999999"],
        /^trec-eval: P: cut-off '99999999999999999999' is out of range; it must be from 1 to 9007199254740991$/m,
      ],
    ];
    for (const [options, message] of cases) {
      const r = cli([...options, qrels, run]);
      expect(r.status, options.join(" ")).toBe(2);
      oneLine(r);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });

  it("refuses a grade too large for the gain table as an input error on the topic's qrels line", () => {
    const qrelsFile = file("1 0 a 1\n7 0 b 20000000\n");
    const run = file("1 Q0 a 1 3 r\n7 Q0 b 1 1 r\n");
    const r = cli(["-m", "ndcg", qrelsFile, run]);
    expect(r.status).toBe(2);
    oneLine(r);
    expect(r.stderr).toBe(`trec-eval: ${qrelsFile}:2: judged grade 20000000 is too large for gain-based measures (max 10000000)\n`);
    // Measures without gains take any grade.
    expect(cli(["-m", "map", qrelsFile, run]).status).toBe(0);
  });

  it("accepts getopt forms: -l2 and -l 2, -mP.1 and -m P.1, clustered -qc", () => {
    const run = file("1 Q0 c 1 3 r\n2 Q0 x 1 1 r\n");
    const a = cli(["-qc", "-l2", "-mP.1", qrels, run]);
    const b = cli(["-q", "-c", "-l", "2", "-m", "P.1", qrels, run]);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toBe("P_1                   \t1\t1.0000\nP_1                   \t2\t0.0000\nP_1                   \tall\t0.5000\n");
  });

  it("prints help generated from the registry", () => {
    const r = cli(["-h"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/ndcg_cut\s+-m ndcg_cut\.5,10,15,20,30,100,200,500,1000/);
    expect(r.stdout).toMatch(/recip_rank_cut \(ours, not trec_eval\)/);
  });
});
