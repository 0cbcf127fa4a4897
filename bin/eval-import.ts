/**
 * `pnpm eval:import <file-or-folder> <new-folder> [--format <format>] [--split <split>]`: reads a
 * dataset in any format the suite reads (helpers/datasets/, detected as `pnpm eval` detects it, or
 * `--format`), checks it as `pnpm eval` does (its schema, then the lint), and writes it into a new
 * or empty folder in the suite's fixture format (helpers/datasets/write.ts), for curation and
 * versioning. Prints what it mapped, every field it could not map and every document it renamed,
 * then loads the written folder back through the same checks. Importing that folder again writes
 * the same files.
 *
 * Exit status: 0 written and checked; 2 bad arguments, a source the checks reject (one line naming
 * the file, the record and the field; nothing is written), or a target that is not a new or empty
 * folder (a file, a path below a file, a symbolic link, a folder with files: bin/lib/new-folder.ts,
 * which never deletes what it did not write).
 */
import { type CommandIo, parseCommandLine, processIo, UsageError } from "./lib/cli-args.js";
import { DatasetError, formatTitle, readDataset } from "../helpers/dataset.js";
import { formatFixtureError, isFixtureError } from "../helpers/fixture-files.js";
import { writeFixtureFormat } from "../helpers/datasets/write.js";
import { newFolder, writeNewFolder } from "./lib/new-folder.js";

const USAGE = "Usage: pnpm eval:import <file-or-folder> <new-folder> [--format <format>] [--split <split>]";

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-import.ts does). */
export function main(argv: string[], io: CommandIo = processIo()): number {
  const say = (line: string): void => io.stdout(`${line}\n`);
  try {
    const { values, positionals } = parseCommandLine(
      {
        args: argv,
        options: { help: { type: "boolean", short: "h" }, format: { type: "string" }, split: { type: "string" } },
        allowPositionals: true,
      },
      USAGE,
    );
    if (values.help) {
      say(USAGE);
      return 0;
    }
    if (positionals.length !== 2)
      throw new UsageError(`a source and a new folder are needed, got ${positionals.length} argument(s); ${USAGE}`);
    const [source, target] = positionals as [string, string];
    const folder = newFolder("eval:import", target, (line) => say(`eval:import: ${line}`));
    const env = {
      EVAL_DATASET: source,
      ...(values.format ? { EVAL_DATASET_FORMAT: values.format } : {}),
      ...(values.split ? { EVAL_DATASET_SPLIT: values.split } : {}),
    };
    const { dataset, detected } = readDataset(env);
    say(
      `eval:import: read ${source} as ${formatTitle(dataset.format)}${detected ? (detected.forced ? " (--format)" : ` (detected: ${detected.found})`) : " (the project's demo corpus)"}: ` +
        `${dataset.corpusIds.length} documents, ${dataset.derivedCases ? "no retrieval judgments" : `${dataset.cases.length} judged queries`}, ` +
        `${dataset.askCases.length} answer cases, ${dataset.translations.length} translation groups${dataset.refusalMarkers ? ", its own refusal markers" : ""}${dataset.gate ? `, its own gate (${dataset.gate.source})` : ""}`,
    );
    const dropped = dataset.cases.filter((c) => c.collection !== undefined).length;
    const notMapped = [
      ...dataset.unmapped.map((u) => `${u.file} ${u.field} (${u.records} record(s)): ${u.why}`),
      ...(dropped > 0
        ? [`queries.json /queries/*/collection (${dropped} record(s)): a dataset is one collection, named after its folder`]
        : []),
    ];
    for (const line of notMapped) say(`eval:import: not mapped: ${line}`);
    for (const warning of dataset.warnings) say(`eval:import: WARNING: ${warning}`);
    // Written beside the target first, then moved into place: a failure leaves nothing half written.
    const written = writeNewFolder(folder, (staging) => writeFixtureFormat(dataset, staging), "eval:import");
    if (written.renamed.length > 0) {
      const shown = written.renamed.slice(0, 5).map(([from, to]) => `${JSON.stringify(from)} → ${to}`);
      say(
        `eval:import: ${written.renamed.length} document id(s) are not file paths and became file names (judgments and citations follow): ${shown.join(", ")}${written.renamed.length > 5 ? ", …" : ""}`,
      );
    }
    const back = readDataset({ EVAL_DATASET: folder }).dataset;
    say(
      `eval:import: wrote ${target} in the suite's fixture format: corpus/ (${written.documents} documents), ${written.files.join(", ")}, schemas/; ` +
        `it loads back through the same checks (${back.cases.length} queries${back.derivedCases ? ", derived from the answer cases" : ""}, ${back.askCases.length} answer cases). Next: EVAL_DATASET=${target} pnpm eval`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`eval:import: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DatasetError) {
      // The dataset's messages name the environment pnpm eval reads; here they are this command's arguments.
      io.stderr(`eval:import: ${error.message.replace(/^EVAL_DATASET: /, "").replaceAll("EVAL_DATASET_FORMAT", "--format")}\n`);
      return 2;
    }
    if (isFixtureError(error)) {
      io.stderr(`eval:import: ${formatFixtureError(error)}\n`);
      return 2;
    }
    throw error;
  }
}
