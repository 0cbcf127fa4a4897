/**
 * `pnpm eval:init <folder>`: writes a small starter dataset (documents, judged queries, answer
 * cases, translations, refusal markers; the fixture format and the BEIR format) into a new or empty
 * folder, then loads it back as `EVAL_DATASET` reads it and says what it found
 * (bin/lib/starter-dataset.ts).
 *
 * Exit status: 0 written and checked; 2 bad arguments, a folder that is not empty, or a starter
 * dataset the checks reject (one line naming the file and record).
 */
import { resolve } from "node:path";
import { type CommandIo, parseCommandLine, processIo, UsageError } from "./lib/cli-args.js";
import { DatasetError } from "../helpers/dataset.js";
import { formatFixtureError, isFixtureError } from "../helpers/fixture-files.js";
import { StarterFolderError, writeStarterDataset } from "./lib/starter-dataset.js";

const USAGE = "Usage: pnpm eval:init <folder>";

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-init.ts does). */
export function main(argv: string[], io: CommandIo = processIo()): number {
  try {
    const { values, positionals } = parseCommandLine(
      { args: argv, options: { help: { type: "boolean", short: "h" } }, allowPositionals: true },
      USAGE,
    );
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`one folder is needed, got ${positionals.length}; ${USAGE}`);
    const folder = resolve(positionals[0]!);
    const found = writeStarterDataset(folder);
    io.stdout(
      `eval:init: wrote a starter dataset to ${folder}: ${found.documents} documents, ${found.queries} judged queries, ` +
        `${found.askCases} answer cases, ${found.translationGroups} translation group, refusal markers in ${found.refusalLanguages} languages; ` +
        `every file passes the dataset checks. Next: EVAL_DATASET=${positionals[0]} pnpm eval (every eval it feeds, answers and cross-language included; see its README.md)\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof StarterFolderError) {
      io.stderr(`eval:init: ${error.message}\n`);
      return 2;
    }
    if (isFixtureError(error) || error instanceof DatasetError) {
      io.stderr(`eval:init: ${isFixtureError(error) ? formatFixtureError(error) : (error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}
