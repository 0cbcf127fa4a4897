/**
 * `pnpm bench:draft [--dataset <folder>] [--n N] [--runs R]`: how long the offline drafter takes to
 * draft N cases (default 1,000) from a dataset (default: CISI, `../shared/datasets/cisi`, 1,460
 * abstracts; `--dataset` names another, any format `EVAL_DATASET` reads), R runs (default 3), and
 * the whole command once: `pnpm eval:draft` as its package.json script runs it (the compiled CLI),
 * which also writes the folder, reads it back and checks every draft again.
 *
 * Per run: reading the documents (the dataset's readers), then drafting (structure, rules, checks,
 * de-duplication, the balanced pick), wall time; the median and the slowest. The bar is 30 s for
 * 1,000 drafts (docs/benchmarks.md); exit 1 when the slowest drafting run is over it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { argumentsOrExit, parseCommandLine, positiveInteger } from "../bin/lib/cli-args.js";
import { countLines, draftCases } from "../helpers/drafting/draft.js";
import { draftSource, sourceDocuments } from "../helpers/drafting/sources.js";

const USAGE = "Usage: pnpm bench:draft [--dataset <folder>] [--n N] [--runs R]";
const root = resolve(import.meta.dirname, "..");
const args = argumentsOrExit("bench:draft", () => {
  const { values } = parseCommandLine({ options: { dataset: { type: "string" }, n: { type: "string" }, runs: { type: "string" } } }, USAGE);
  return {
    dataset: resolve(values.dataset ?? join(root, "../shared/datasets/cisi")),
    n: positiveInteger("n", values.n, 1000),
    runs: positiveInteger("runs", values.runs, 3),
  };
});
const BAR_MS = 30_000;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

const reads: number[] = [];
const drafts: number[] = [];
let lines: string[] = [];
for (let run = 0; run < args.runs; run++) {
  const t0 = performance.now();
  const { dataset } = draftSource(args.dataset);
  const documents = await sourceDocuments(dataset);
  const t1 = performance.now();
  const set = await draftCases(documents, {
    n: args.n,
    languages: null,
    date: "2026-01-01",
    existingQuestions: [...dataset.askCases.map((c) => c.question), ...dataset.cases.map((c) => c.query)],
    existingIds: new Set([...dataset.askCases.map((c) => c.id), ...dataset.cases.map((c) => c.id)]),
  });
  const t2 = performance.now();
  reads.push(t1 - t0);
  drafts.push(t2 - t1);
  if (run === 0)
    lines = [
      `${documents.length} documents; drafted ${set.answerCases.length + set.retrievalCases.length}: ${countLines(set.report.drafted).join("; ")}`,
    ];
}
console.log(`bench:draft: ${args.dataset}, ${args.n} drafts asked, offline rules, ${args.runs} run(s)`);
for (const line of lines) console.log(`  ${line}`);
console.log(`  read the documents: median ${seconds(median(reads))}`);
console.log(`  draft: median ${seconds(median(drafts))}, slowest ${seconds(Math.max(...drafts))} (bar ${seconds(BAR_MS)})`);

// The whole command once, as pnpm runs it: read, draft, write, read back and check.
const scratch = mkdtempSync(join(tmpdir(), "bench-draft-"));
const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const [, ...nodeArgs] = scripts["eval:draft"]!.split(" ");
const t = performance.now();
const whole = spawnSync(process.execPath, [...nodeArgs, args.dataset, join(scratch, "out"), "--n", String(args.n), "--offline"], {
  cwd: root,
  encoding: "utf8",
});
const wholeMs = performance.now() - t;
rmSync(scratch, { recursive: true, force: true });
if (whole.status !== 0) {
  console.log(`  pnpm eval:draft: exit ${whole.status}: ${(whole.stderr || whole.stdout).trim().split("\n")[0]}`);
  process.exit(1);
}
console.log(
  `  pnpm eval:draft (compiled; reads, drafts, writes ${args.n} drafts and the corpus, reads back and checks): ${seconds(wholeMs)}`,
);
if (Math.max(...drafts) > BAR_MS) {
  console.log(`bench:draft: FAIL: drafting took longer than ${seconds(BAR_MS)}`);
  process.exit(1);
}
