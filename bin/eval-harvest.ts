/**
 * `pnpm eval:harvest <feedback.jsonl> <out-folder> [--dataset <dataset>] [--format <format>]`:
 * production feedback in, golden-set candidates out (bin/lib/harvest/candidates.ts; docs/evals.md
 * "Growing the golden set"). Each line of the feedback file is one record — a search with the
 * documents a person opened or graded, an answer (the target contract's AskResponse) or an agent
 * turn (its TurnResponse) with a rating — checked by fixtures/schemas/feedback.schema.json and the
 * contract's own schemas. The candidates, scrubbed of e-mail addresses, phone numbers, tokens and
 * keys (bin/lib/harvest/scrub.ts, counted), are written with the dataset they grow (`--dataset`,
 * else `EVAL_DATASET`, else the project's fixtures) into a new or empty folder in the suite's fixture
 * format: queries.json and ask-cases.json with the candidates as drafts beside the dataset's own
 * cases, turn-cases.json with the turn candidates (the agent eval's format), and incomplete.json
 * with the rated-down answers and turns from which no expectation follows. Every candidate keeps
 * its feedback record's id (`provenance.feedbackId`).
 *
 * Exit status: 0 written (or nothing to write, said so); 2 bad arguments, a feedback line that is
 * not a record (one line naming the file, the line and the field), a dataset the checks reject, or a
 * target folder that is not empty — nothing written.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import { type CommandIo, parseCommandLine, processIo, UsageError } from "./lib/cli-args.js";
import { type Dataset, DatasetError, formatTitle, isoDate, loadDataset } from "../helpers/dataset.js";
import { checkSchema, fail, named, readJsonlFile } from "../helpers/datasets/read.js";
import { writeFixtureFormat } from "../helpers/datasets/write.js";
import { sourceTexts } from "../helpers/drafting/sources.js";
import { formatFixtureError, isFixtureError, loadTurnCases } from "../helpers/fixture-files.js";
import { schemaIssues } from "../helpers/fixture-files/loader.js";
import { FIXTURES_DIR } from "../helpers/fixture-files/paths.js";
import { type FeedbackRecord, harvest } from "./lib/harvest/candidates.js";
import { SCRUB_KINDS, Scrubber } from "./lib/harvest/scrub.js";
import { newFolder, writeNewFolder } from "./lib/new-folder.js";

const USAGE = "Usage: pnpm eval:harvest <feedback.jsonl> <new-folder> [--dataset <dataset>] [--format <format>]";

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-harvest.ts does). */
export function main(argv: string[], io: CommandIo = processIo(), env: NodeJS.ProcessEnv = process.env): number {
  const say = (line: string): void => io.stdout(`eval:harvest: ${line}\n`);
  try {
    const { values, positionals } = parseCommandLine(
      {
        args: argv,
        options: { help: { type: "boolean", short: "h" }, dataset: { type: "string" }, format: { type: "string" } },
        allowPositionals: true,
      },
      USAGE,
    );
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 2)
      throw new UsageError(`a feedback file and a new folder are needed, got ${positionals.length} argument(s); ${USAGE}`);
    const [feedbackPath, target] = positionals as [string, string];
    const folder = newFolder("eval:harvest", target, say);
    const records = readFeedback(feedbackPath);
    const source = values.dataset ?? env.EVAL_DATASET;
    const dataset = loadDataset({
      ...(source ? { EVAL_DATASET: source } : {}),
      ...(values.format ? { EVAL_DATASET_FORMAT: values.format } : {}),
    });
    const texts = new Map(sourceTexts(dataset).map((d) => [d.id, `${d.title ?? ""}\n${d.text}`]));
    // The turn cases ask about the demo corpus; another dataset has none (helpers/datasets/needs.ts).
    const turnFile = dataset.demo ? loadTurnCasesFile() : { surfaces: {}, cases: [] };
    const scrubber = new Scrubber();
    const found = harvest(
      records,
      {
        corpusIds: new Set(dataset.corpusIds),
        text: (id) => texts.get(id) ?? "",
        questions: dataset.askCases.map((c) => c.question),
        queries: dataset.cases.map((c) => c.query),
        turnCases: turnFile.cases,
        surfaces: turnFile.surfaces,
        ids: new Set([...dataset.askCases.map((c) => c.id), ...dataset.cases.map((c) => c.id)]),
        date: isoDate(),
      },
      scrubber,
    );
    const r = found.report;
    say(
      `read ${records.length} feedback record(s) from ${feedbackPath} (${Object.entries(r.records)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ")}), against dataset ${dataset.name} (${formatTitle(dataset.format)}, ${dataset.corpusIds.length} documents)`,
    );
    say(
      `scrubbed ${scrubber.total}: ${SCRUB_KINDS.map((k) => `${scrubber.counts[k]} ${k === "key" ? "key(s)" : k === "token" ? "token(s)" : k === "email" ? "e-mail address(es)" : "phone number(s)"}`).join(", ")}`,
    );
    const candidates = found.retrievalCases.length + found.answerCases.length + found.turnCases.length + found.incomplete.length;
    say(
      `candidates: ${candidates} — ${found.retrievalCases.length} retrieval case(s) from searches, ${found.answerCases.length} answer case(s) and ${found.turnCases.length} turn case(s) from ratings down, ${found.incomplete.length} that need an expectation (incomplete.json)`,
    );
    say(
      `not candidates: ${r.ratedUp} rated up, ${r.inDataset} already in the dataset, ${r.merged} asked again in the feedback (merged), ${r.unjudged} search(es) judging no document of the dataset; ${r.unknownDocuments} document(s) not in the dataset and ${r.factsNotFound} corrected fact(s) found in no document left out`,
    );
    if (candidates === 0) {
      say(`nothing to write: no candidate; ${target} was not created`);
      return 0;
    }
    const grown: Dataset = {
      ...dataset,
      cases: [...dataset.cases, ...found.retrievalCases],
      derivedCases: dataset.derivedCases && found.retrievalCases.length === 0,
      askCases: [...dataset.askCases, ...found.answerCases],
    };
    const written = writeNewFolder(
      folder,
      (staging) => {
        const w = writeFixtureFormat(grown, staging);
        if (found.turnCases.length > 0) {
          const used = new Set(found.turnCases.map((c) => c.surface));
          const file = {
            $schema: "./schemas/turn-cases.schema.json",
            version: 1,
            surfaces: Object.fromEntries(Object.entries(found.surfaces).filter(([name]) => used.has(name))),
            cases: found.turnCases,
          };
          const issues = schemaIssues("turn-cases.schema.json", file);
          if (issues.length > 0) fail(join(staging, "turn-cases.json"), issues);
          writeFileSync(join(staging, "turn-cases.json"), `${JSON.stringify(file, null, 2)}\n`);
          copyFileSync(join(FIXTURES_DIR, "schemas", "turn-cases.schema.json"), join(staging, "schemas", "turn-cases.schema.json"));
          w.files.push("turn-cases.json");
        }
        if (found.incomplete.length > 0) {
          writeFileSync(
            join(staging, "incomplete.json"),
            `${JSON.stringify({ $schema: "./schemas/incomplete-cases.schema.json", version: 1, cases: found.incomplete }, null, 2)}\n`,
          );
          copyFileSync(
            join(FIXTURES_DIR, "schemas", "incomplete-cases.schema.json"),
            join(staging, "schemas", "incomplete-cases.schema.json"),
          );
          w.files.push("incomplete.json");
        }
        loadDataset({ EVAL_DATASET: staging });
        return w;
      },
      "eval:harvest",
    );
    say(
      `wrote ${target}: corpus/ (${written.documents} documents), ${written.files.join(", ")}, schemas/; every candidate is a draft with its feedback record's id, and the folder loads back through the same checks. Next: pnpm eval:review ${target}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`eval:harvest: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DatasetError) {
      io.stderr(`eval:harvest: ${error.message.replace(/^EVAL_DATASET: /, "--dataset ").replaceAll("EVAL_DATASET_FORMAT", "--format")}\n`);
      return 2;
    }
    if (isFixtureError(error)) {
      io.stderr(`eval:harvest: ${formatFixtureError(error)}\n`);
      return 2;
    }
    throw error;
  }
}

/** The feedback records, each checked by its schema and the contract's; the first problem stops it (one line). */
function readFeedback(path: string): FeedbackRecord[] {
  const lines = readJsonlFile(path);
  if (lines.length === 0) fail(path, [{ pointer: "", problem: named("no-expectation", "the file holds no feedback record") }]);
  return lines.map(({ line, value }) => {
    const record = `line ${line}`;
    checkSchema(path, "feedback.schema.json", value, (pointer) => ({ record, pointer }));
    const r = value as FeedbackRecord;
    const [field, message] =
      r.kind === "answer" ? ["response", "AskResponse"] : r.kind === "turn" ? ["turn", "TurnResponse"] : [null, null];
    if (field !== null) {
      const problems = contractProblems(message as "AskResponse" | "TurnResponse", (r as unknown as Record<string, unknown>)[field]);
      if (problems.length > 0) {
        const [where, ...rest] = problems[0]!.split(": ");
        const pointer = where === "(the body)" ? `/${field}` : `/${field}${where}`;
        fail(path, [{ record, pointer, problem: named("schema", `not the target contract's ${message}: ${rest.join(": ")}`) }]);
      }
    }
    return r;
  });
}

/** fixtures/turn-cases.json's surfaces and cases, as stored. */
function loadTurnCasesFile(): { surfaces: Record<string, string[]>; cases: Array<{ id: string; question: string }> } {
  const cases = loadTurnCases();
  const surfaces: Record<string, string[]> = {};
  for (const c of cases) surfaces[c.surface] = c.tools;
  return { surfaces, cases };
}
