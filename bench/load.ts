/**
 * `pnpm bench:load [--sizes 1000,10000,100000] [--runs R] [--no-cli]`: how loading a dataset grows
 * with its number of questions — detection, reading, the schema and the lint (helpers/datasets/,
 * `readDataset`), the whole of what `pnpm eval` does with a dataset before anything runs — for
 * synthetic datasets of each size in two formats:
 *
 * - **qa-jsonl**: a question/reference JSONL file, one question a line with its reference answer
 *   and one reference context (the corpus: one passage per question);
 * - **golden-qa**: a golden Q&A set, one document per question, each question with an expected
 *   fact; half of them cite their document, half cite none (their fact is looked for in the whole
 *   corpus).
 *
 * Per size: the load in this process (median of R runs, default 3), its time per 1,000 questions,
 * and — unless `--no-cli` — the compiled commands as a person runs them, once: `pnpm eval
 * --explain-target` on the qa-jsonl file (start-up, the load and the header; no eval) and `pnpm
 * eval:import` of it (the load, writing the folder, loading it back). Linear growth shows as a
 * flat time per 1,000 questions. docs/benchmarks.md records the numbers.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "../bin/lib/cli-args.js";
import { readDataset } from "../helpers/datasets/load.js";

const USAGE = "Usage: pnpm bench:load [--sizes 1000,10000,100000] [--runs R] [--no-cli]";
const root = resolve(import.meta.dirname, "..");
const args = argumentsOrExit("bench:load", () => {
  const { values } = parseCommandLine(
    { options: { sizes: { type: "string" }, runs: { type: "string" }, "no-cli": { type: "boolean" } } },
    USAGE,
  );
  const sizes = (values.sizes ?? "1000,3000,10000,30000,100000").split(",").map((s) => {
    const n = Number(s.trim());
    if (!/^\d+$/.test(s.trim()) || n < 1) throw new UsageError(`--sizes must be whole numbers ≥ 1 separated by commas, got "${s}"`);
    return n;
  });
  return { sizes, runs: positiveInteger("runs", values.runs, 3), cli: !values["no-cli"] };
});

const WORDS = "refund policy certificate enrolment course lesson offline backup settings share project invoice account".split(" ");
/** A passage of about 60 words, with a fact only it holds (`code <i>`). */
const passage = (i: number): string =>
  Array.from({ length: 60 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(" ") + ` code ${i} applies within ${i % 30} days.`;

function qaJsonl(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++)
    lines.push(
      JSON.stringify({
        id: `q${i}`,
        user_input: `What does code ${i} say about ${WORDS[i % WORDS.length]}?`,
        reference: `Code ${i} applies within ${i % 30} days.`,
        reference_contexts: [passage(i)],
        reference_context_ids: [`ctx-${i}`],
      }),
    );
  return `${lines.join("\n")}\n`;
}

function goldenQa(n: number): string {
  return JSON.stringify({
    corpus: Array.from({ length: n }, (_, i) => ({ title: `Doc ${i}`, content: passage(i) })),
    questions: Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      question: `What does code ${i} say?`,
      expectedSubstrings: [`code ${i} applies`],
      ...(i % 2 === 0 ? { expectedDocumentTitle: `Doc ${i}` } : {}),
    })),
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const ms = (t: number): string => (t < 10_000 ? `${t.toFixed(0)} ms` : `${(t / 1000).toFixed(1)} s`);

const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
/** A compiled command as its package.json script runs it, timed once; its first line of output when it fails. */
function command(script: string, argv: string[], env: NodeJS.ProcessEnv = {}): { ms: number; failed: string | null } {
  const [, ...nodeArgs] = scripts[script]!.split(" ");
  const t = performance.now();
  const run = spawnSync(process.execPath, [...nodeArgs, ...argv], { cwd: root, encoding: "utf8", env: { ...process.env, ...env } });
  const elapsed = performance.now() - t;
  return { ms: elapsed, failed: run.status === 0 ? null : `exit ${run.status}: ${(run.stderr || run.stdout).trim().split("\n")[0]}` };
}

const scratch = mkdtempSync(join(tmpdir(), "bench-load-"));
let failed = false;
try {
  console.log(`bench:load: synthetic datasets of ${args.sizes.join(", ")} questions, ${args.runs} run(s) of each load`);
  for (const [format, write, ext] of [
    ["qa-jsonl", qaJsonl, "jsonl"],
    ["golden-qa", goldenQa, "json"],
  ] as const) {
    console.log(`  ${format}:`);
    for (const n of args.sizes) {
      const file = join(scratch, `${format}-${n}.${ext}`);
      writeFileSync(file, write(n));
      const times: number[] = [];
      for (let run = 0; run < args.runs; run++) {
        const t = performance.now();
        const { dataset } = readDataset({ EVAL_DATASET: file });
        times.push(performance.now() - t);
        if (dataset.askCases.length !== n) throw new Error(`${file}: read ${dataset.askCases.length} questions, expected ${n}`);
      }
      const load = median(times);
      const parts = [`load ${ms(load)} (${(load / (n / 1000)).toFixed(1)} ms per 1,000 questions)`];
      if (args.cli && format === "qa-jsonl") {
        const explain = command("eval", ["--explain-target"], { EVAL_DATASET: file });
        const imported = command("eval:import", [file, join(scratch, `imported-${n}`)]);
        for (const [what, r] of [
          ["pnpm eval --explain-target", explain],
          ["pnpm eval:import", imported],
        ] as const) {
          parts.push(`${what} ${r.failed ?? ms(r.ms)}`);
          failed ||= r.failed !== null;
        }
      }
      console.log(`    ${String(n).padStart(7)} questions: ${parts.join("; ")}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
