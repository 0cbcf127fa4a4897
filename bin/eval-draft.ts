/**
 * `pnpm eval:draft <dataset> <out-folder> [--n N] [--languages en,de] [--offline] [--format f]`:
 * drafts new cases for a golden set (helpers/drafting/, docs/evals.md "Growing the golden set")
 * from any dataset `EVAL_DATASET` reads, or from a bare corpus (a folder of documents, a
 * corpus.jsonl), and writes the dataset with its drafts into a new or empty folder in the suite's
 * fixture format: every drafted case carries `status: "draft"` and its provenance (method,
 * document, quote, date). Offline the drafts come from the documents' structure; with a model
 * configured (ENGINE_PROVIDER, …; docs/engine.md#models) the answer cases come from the model,
 * each checked the same way (`--offline` keeps the rules). It says what it drafted per category
 * and language, what it dropped and why, then reads the written folder back as a run does and
 * checks every drafted answer case again: each expected fact in its quote, each quote in its
 * document as written.
 *
 * Exit status: 0 written and checked; 1 a written draft failed the check (nothing is left); 2 bad
 * arguments, a source the checks reject, a corpus with no text, or a target folder that is not
 * empty (one line; nothing written).
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { selectModels } from "@hybrid-search/engine/models";
import { type CommandIo, parseCommandLine, positiveInteger, processIo, UsageError } from "./lib/cli-args.js";
import { type AnswerCase, type Dataset, DatasetError, formatTitle, isDraft, isoDate, loadDataset } from "../helpers/dataset.js";
import { writeFixtureFormat } from "../helpers/datasets/write.js";
import { draftProblem } from "../helpers/drafting/check.js";
import { countLines, type DraftReport, draftCases } from "../helpers/drafting/draft.js";
import { modelDrafter } from "../helpers/drafting/model-drafter.js";
import { draftSource, sourceDocuments, sourceTexts } from "../helpers/drafting/sources.js";
import { formatFixtureError, isFixtureError } from "../helpers/fixture-files.js";
import { newFolder, writeNewFolder } from "./lib/new-folder.js";

const USAGE = "Usage: pnpm eval:draft <dataset-or-corpus> <new-folder> [--n N] [--languages en,de,…] [--offline] [--format <format>]";
const DEFAULT_N = 50;
/** Per model call, when the model was given rather than selected (ENGINE_TIMEOUT_MS's default). */
const DEFAULT_TIMEOUT_MS = 60_000;

/** A written draft that does not hold: a bug of the drafter, reported as such (exit 1). */
class DraftCheckError extends Error {}

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-draft.ts does). */
export async function main(
  argv: string[],
  io: CommandIo = processIo(),
  env: NodeJS.ProcessEnv = process.env,
  /** The model to draft with instead of the environment's (tests: the AI SDK's mock models). */
  given: { model?: LanguageModelV3 } = {},
): Promise<number> {
  const say = (line: string): void => io.stdout(`eval:draft: ${line}\n`);
  try {
    const { values, positionals } = parseCommandLine(
      {
        args: argv,
        options: {
          help: { type: "boolean", short: "h" },
          n: { type: "string" },
          languages: { type: "string" },
          offline: { type: "boolean" },
          format: { type: "string" },
        },
        allowPositionals: true,
      },
      USAGE,
    );
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 2)
      throw new UsageError(`a dataset (or corpus) and a new folder are needed, got ${positionals.length} argument(s); ${USAGE}`);
    const [source, target] = positionals as [string, string];
    const n = positiveInteger("n", values.n, DEFAULT_N);
    const languages = values.languages === undefined ? null : languageList(values.languages);
    const folder = newFolder("eval:draft", target, say);
    const { dataset, bare } = draftSource(source, values.format);
    const documents = await sourceDocuments(dataset);
    if (!documents.some((d) => d.text.trim() !== ""))
      throw new DatasetError(
        `${source}: ${documents.length === 0 ? "holds no documents" : `none of its ${documents.length} document(s) has any text`}: there is nothing to draft from`,
      );
    say(
      `read ${source} as ${bare ? `a bare corpus (${dataset.corpusSource.kind === "folder" ? "a folder of documents" : "a corpus.jsonl"}, no cases)` : formatTitle(dataset.format)}: ` +
        `${documents.length} documents (${languageCounts(documents.map((d) => d.language))}), ${dataset.derivedCases ? 0 : dataset.cases.length} judged queries, ${dataset.askCases.length} answer cases`,
    );
    const selection = values.offline || given.model ? null : selectModels(env);
    const model = values.offline
      ? undefined
      : (given.model ?? (selection && selection.mode !== "offline" ? selection.languageModel("quality") : undefined));
    const translations = new Map<string, string[]>();
    for (const g of dataset.translations)
      for (const doc of g.docs) translations.set(doc, [...(translations.get(doc) ?? []), ...g.docs.filter((d) => d !== doc)]);
    const drafted = await draftCases(documents, {
      n,
      languages,
      date: isoDate(),
      existingQuestions: [...dataset.askCases.map((c) => c.question), ...dataset.cases.map((c) => c.query)],
      existingIds: new Set([...dataset.askCases.map((c) => c.id), ...dataset.cases.map((c) => c.id)]),
      translationsOf: (doc) => translations.get(doc) ?? [],
      model: model ? modelDrafter(model, { timeoutMs: selection?.limits.timeoutMs ?? DEFAULT_TIMEOUT_MS }) : null,
    });
    for (const line of reportLines(drafted.report, n)) say(line);
    const total = drafted.answerCases.length + drafted.retrievalCases.length;
    if (total === 0) throw new DatasetError(`${source}: no draft passed the checks (above): nothing to write`);
    // The written dataset: the source's own cases as they are, and the drafts after them. A source whose
    // queries were derived from its answer cases keeps them, written out, beside the drafted queries.
    const grown: Dataset = {
      ...dataset,
      cases: [...dataset.cases, ...drafted.retrievalCases],
      derivedCases: drafted.retrievalCases.length === 0 && dataset.derivedCases,
      askCases: [...dataset.askCases, ...drafted.answerCases],
    };
    const written = writeNewFolder(
      folder,
      (staging) => {
        const w = writeFixtureFormat(grown, staging);
        checkWritten(staging);
        return w;
      },
      "eval:draft",
    );
    const back = loadDataset({ EVAL_DATASET: folder });
    const answers = back.askCases.filter((c) => isDraft(c) && !c.expectedRefusal).length;
    say(
      `wrote ${target} in the suite's fixture format: corpus/ (${written.documents} documents), ${written.files.join(", ")}, schemas/; ` +
        `${total} drafts carry status "draft" and their provenance. It loads back through the same checks, and every drafted answer case holds ` +
        `(${answers} of ${answers}: each expected fact in its quote, each quote in its document as written). ` +
        `Next: pnpm eval:review ${target}, or EVAL_DATASET=${target} pnpm eval to see how the system does on them (drafts are scored apart, never gated)`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`eval:draft: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DatasetError) {
      io.stderr(`eval:draft: ${error.message.replace(/^EVAL_DATASET: /, "").replaceAll("EVAL_DATASET_FORMAT", "--format")}\n`);
      return 2;
    }
    if (isFixtureError(error)) {
      io.stderr(`eval:draft: ${formatFixtureError(error)}\n`);
      return 2;
    }
    if ((error as { name?: string }).name === "EngineError") {
      io.stderr(`eval:draft: ${(error as Error).message.split("\n")[0]}\n`);
      return 2;
    }
    if (error instanceof DraftCheckError) {
      io.stderr(`eval:draft: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** `--languages en,de fr`: base language tags. */
function languageList(value: string): string[] {
  const list = value
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((l) => l.toLowerCase());
  const bad = list.find((l) => !/^[a-z]{2,3}$/.test(l));
  if (list.length === 0 || bad !== undefined) throw new UsageError(`--languages takes language codes such as en,de, got "${value}"`);
  return list;
}

function languageCounts(languages: ReadonlyArray<string | undefined>): string {
  const counts = new Map<string, number>();
  for (const l of languages) counts.set(l ?? "unknown", (counts.get(l ?? "unknown") ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([l, k]) => `${l} ${k}`)
    .join(", ");
}

/** What was drafted, found and dropped, one line each. */
export function reportLines(report: DraftReport, n: number): string[] {
  const drafted = countLines(report.drafted);
  const lines = [
    `drafted ${drafted.at(-1)!.replace("total ", "")} of ${n} asked, by ${report.method === "offline rules" ? "the offline rules (the documents' structure)" : `the ${report.method} (answer cases; queries and off-corpus questions by the offline rules)`}: ${drafted.slice(0, -1).join("; ") || "none"}`,
    `found after the checks and de-duplication: ${countLines(report.available).join("; ")}`,
  ];
  const failed = report.dropped.failed.reduce((k, f) => k + f.count, 0);
  lines.push(
    `dropped: ${report.dropped.duplicates} near-duplicate(s), ${report.dropped.existing} already in the dataset, ${failed} that failed the checks${
      failed > 0
        ? ` (${report.dropped.failed
            .slice(0, 4)
            .map((f) => `${f.reason} ×${f.count}`)
            .join("; ")}${report.dropped.failed.length > 4 ? "; …" : ""})`
        : ""
    }`,
  );
  const unphrased = Object.entries(report.unphrased);
  if (unphrased.length > 0)
    lines.push(
      `${unphrased.reduce((k, [, c]) => k + c, 0)} document(s) in a language the offline rules do not ask in (${unphrased.map(([l, c]) => `${l} ${c}`).join(", ")}): retrieval drafts only`,
    );
  if (report.leftOut > 0) lines.push(`${report.leftOut} document(s) left out by --languages`);
  return lines;
}

/** Reads the written folder back as a run does and holds every drafted answer case to the checks again (helpers/drafting/check.ts). */
function checkWritten(folder: string): void {
  const back = loadDataset({ EVAL_DATASET: folder });
  const texts = new Map(sourceTexts(back).map((d) => [d.id, d.text]));
  for (const c of back.askCases.filter(isDraft) as AnswerCase[]) {
    if (c.expectedRefusal || !c.provenance?.docId || !c.provenance.quote) continue;
    const sources = [{ docId: c.provenance.docId, quote: c.provenance.quote }, ...(c.provenance.also ?? [])];
    const problem = draftProblem({ question: c.question, expected: c.expectedSubstrings ?? [], sources }, (id) => texts.get(id));
    if (problem !== null)
      throw new DraftCheckError(
        `the written draft ${c.id} does not hold: ${problem}; nothing was written (a bug of the drafter: please report it)`,
      );
  }
}
