/**
 * `pnpm bench:beir <folder>`: writes a synthetic BEIR-format dataset of a given size
 * (helpers/synthetic-beir.ts: four languages, graded judgments, seeded), the input of the
 * dataset-scale benchmark, `pnpm bench:eval --dataset <folder>`; with `--answers N`, answer cases
 * beside it (ask-cases.json, one per query for the first N queries), for its answer side.
 *
 * Usage: pnpm bench:beir <folder> [--documents 20000] [--queries 500] [--answers 0] [--seed 42]
 */
import { resolve } from "node:path";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "../bin/lib/cli-args.js";
import { generateAnswerCases, generateBeir, writeAnswerCases, writeBeir } from "./lib/synthetic-beir.js";

const USAGE = "Usage: pnpm bench:beir <folder> [--documents 20000] [--queries 500] [--answers 0] [--seed 42]";

const options = argumentsOrExit("bench:beir", () => {
  const { values, positionals } = parseCommandLine(
    {
      options: { documents: { type: "string" }, queries: { type: "string" }, answers: { type: "string" }, seed: { type: "string" } },
      allowPositionals: true,
    },
    USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`name one output folder; ${USAGE}`);
  return {
    folder: resolve(positionals[0]!),
    documents: positiveInteger("documents", values.documents, 20_000),
    queries: positiveInteger("queries", values.queries, 500),
    seed: positiveInteger("seed", values.seed, 42),
    answers: values.answers === "0" ? 0 : positiveInteger("answers", values.answers, 0),
  };
});
const beir = argumentsOrExit("bench:beir", () => generateBeir(options.documents, options.queries, options.seed));
const answers = argumentsOrExit("bench:beir", () => (options.answers > 0 ? generateAnswerCases(beir, options.answers) : []));
writeBeir(options.folder, beir);
if (answers.length > 0) writeAnswerCases(options.folder, answers);
const grades = [0, 1, 2].map((g) => beir.qrels.filter((r) => r.grade === g).length);
console.log(
  `bench:beir: wrote ${options.folder}: ${beir.corpus.length} documents, ${beir.queries.length} queries, ${beir.qrels.length} judgments (grade 2: ${grades[2]}, 1: ${grades[1]}, 0: ${grades[0]})${answers.length > 0 ? `, ${answers.length} answer cases (ask-cases.json)` : ""}, seed ${options.seed}`,
);
