/**
 * `pnpm bench:judge-items`: writes the constructed labelled items that measure the judged metrics'
 * heuristics (bench/lib/judge-items.ts says which answers and labels), in two halves kept apart:
 *
 * - `fixtures/labels/items-cisi.jsonl`: over CISI (a public English test collection of
 *   information-science abstracts; `--cisi <folder>`, BEIR layout, default ../shared/datasets/cisi):
 *   one base per judged query (its question, the first relevant abstract with a sentence that
 *   states a number or a name), 30 bases. The half the heuristic was developed on.
 * - `fixtures/labels/items-fixtures.jsonl`: over the fixture corpus (fixtures/corpus, four
 *   languages): one base per answer case of fixtures/ask-cases.json that expects an answer and
 *   names its facts and documents (its question; the section of the cited document that states
 *   the first fact; that fact as the short answer). The held-out half: measured, never tuned on.
 *
 * Usage: pnpm bench:judge-items [--cisi <folder>] [--seed 41]
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "../bin/lib/cli-args.js";
import { REPO_ROOT } from "../helpers/fixture-files/paths.js";
import { cisiItems, fixtureItems } from "./lib/judge-items.js";

const USAGE = "Usage: pnpm bench:judge-items [--cisi <folder>] [--seed 41]";

const options = argumentsOrExit("bench:judge-items", () => {
  const { values, positionals } = parseCommandLine(
    { options: { cisi: { type: "string" }, seed: { type: "string" } }, allowPositionals: true },
    USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`no positional arguments; ${USAGE}`);
  const cisi = resolve(values.cisi ?? join(REPO_ROOT, "../shared/datasets/cisi"));
  for (const file of ["corpus.jsonl", "queries.jsonl", "qrels/test.tsv"])
    if (!existsSync(join(cisi, file))) throw new UsageError(`--cisi ${cisi}: no ${file} there (CISI in the BEIR layout); ${USAGE}`);
  return { cisi, seed: positiveInteger("seed", values.seed, 41) };
});

for (const [file, items] of [
  ["fixtures/labels/items-cisi.jsonl", cisiItems(options.cisi, options.seed)],
  ["fixtures/labels/items-fixtures.jsonl", fixtureItems(join(REPO_ROOT, "fixtures"), options.seed)],
] as const) {
  writeFileSync(join(REPO_ROOT, file), `${items.map((x) => JSON.stringify(x)).join("\n")}\n`);
  const kinds = new Map<string, number>();
  for (const x of items) kinds.set(x.note.split(":")[0]!, (kinds.get(x.note.split(":")[0]!) ?? 0) + 1);
  const faithful = items.filter((x) => x.labels.faithfulness === 1).length;
  console.log(
    `bench:judge-items: wrote ${file}: ${items.length} items (${faithful} faithful, ${items.length - faithful} not), ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`,
  );
}
