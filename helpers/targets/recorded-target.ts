/**
 * Recorded runs as a target (`EVAL_RUN_DIR=<folder>`): the outputs of a system the suite cannot
 * call — a cluster behind a firewall, last week's release — scored by the same evals and floors.
 *
 *   <folder>/search.run, vsearch.run, fast.run, balanced.run, thorough.run
 *       TREC runs (`qid Q0 docid rank score tag`, as `pnpm engine run` writes them), one per mode;
 *       a mode without its file is not served: its evals are skipped and say so.
 *   <folder>/answers.jsonl
 *       one answer per line as `pnpm engine ask --batch` writes it (`id`, `answer`, `citations`,
 *       `refused`, `sources`, …); without it the answer evals are skipped.
 *
 * Rankings are read as trec_eval reads them: by score, ties by document id descending (UTF-8
 * bytes), which is the engine's own order. A query the run has no line for retrieved nothing (as
 * `engine run` writes a query without results); a run that holds none of the dataset's queries is
 * the wrong run: a ConfigError. An answer missing from answers.jsonl fails its case.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { AskResult } from "@hybrid-search/engine";
import { readJsonlObjects } from "@hybrid-search/engine/formats";
import { ConfigError } from "@hybrid-search/eval-gate";
import { CONTRACT_MODES, contractProblems } from "@hybrid-search/target-contract";
import { FormatError, readTrecRun } from "@hybrid-search/trec-eval/formats";
import { toAskResult, type ContractAnswer } from "./ask-result.js";
import { type Target, TargetError, type TargetHit, type TargetMode } from "./target.js";

export const RUN_FILE = (mode: TargetMode): string => `${mode}.run`;
export const ANSWERS_FILE = "answers.jsonl";

const utf8 = (s: string) => Buffer.from(s, "utf8");

/** trec_eval's order: score descending, ties by document id descending (bytes). */
function trecOrder(a: TargetHit, b: TargetHit): number {
  return b.score - a.score || Buffer.compare(utf8(b.docId), utf8(a.docId));
}

function readRun(file: string): Map<string, TargetHit[]> {
  const topics = new Map<string, TargetHit[]>();
  try {
    readTrecRun(file, {
      onTopic: (t) => {
        const hits: TargetHit[] = [];
        for (let i = 0; i < t.count; i++) hits.push({ docId: t.docIds[i]!, score: t.scores[i]! });
        topics.set(t.id, hits.sort(trecOrder));
      },
      onRestart: () => topics.clear(),
    });
  } catch (error) {
    if (error instanceof FormatError) throw new ConfigError(`EVAL_RUN_DIR: ${error.message.split("\n")[0]}`);
    throw error;
  }
  return topics;
}

function readAnswers(file: string): Map<string, ContractAnswer & { question?: string }> {
  const answers = new Map<string, ContractAnswer & { question?: string }>();
  let lines: ReturnType<typeof readJsonlObjects>;
  try {
    lines = readJsonlObjects(file);
  } catch (error) {
    throw new ConfigError(`EVAL_RUN_DIR: ${(error as Error).message.split("\n")[0]}`);
  }
  for (const { line, value } of lines) {
    const id = value.id;
    if (typeof id !== "string" && typeof id !== "number") throw new ConfigError(`EVAL_RUN_DIR: ${file}:${line}: missing "id"`);
    const problems = contractProblems("AskResponse", value);
    if (problems.length > 0) throw new ConfigError(`EVAL_RUN_DIR: ${file}:${line}: not an answer: ${problems[0]}`);
    if (answers.has(String(id))) throw new ConfigError(`EVAL_RUN_DIR: ${file}:${line}: id ${JSON.stringify(String(id))} repeats`);
    answers.set(String(id), value as unknown as ContractAnswer);
  }
  return answers;
}

/**
 * The recorded runs in `folder`. `queryIds` are the dataset's query ids: a run that holds none of
 * them was recorded on other queries.
 */
export function openRecordedTarget(folder: string, queryIds: ReadonlySet<string>, name?: string): Target & { folder: string } {
  const dir = resolve(folder);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`EVAL_RUN_DIR: ${folder} is not a folder`);
  const runs = new Map<TargetMode, Map<string, TargetHit[]>>();
  for (const mode of CONTRACT_MODES) {
    const file = join(dir, RUN_FILE(mode));
    if (!existsSync(file)) continue;
    const run = readRun(file);
    if (![...run.keys()].some((id) => queryIds.has(id)))
      throw new ConfigError(
        `EVAL_RUN_DIR: ${file} holds none of the dataset's ${queryIds.size} query ids; was it recorded on another dataset?`,
      );
    runs.set(mode, run);
  }
  const answersFile = join(dir, ANSWERS_FILE);
  const answers = existsSync(answersFile) ? readAnswers(answersFile) : null;
  if (runs.size === 0 && answers === null)
    throw new ConfigError(`EVAL_RUN_DIR: ${folder} holds no run file (${CONTRACT_MODES.map(RUN_FILE).join(", ")}) and no ${ANSWERS_FILE}`);
  const targetName = name ?? basename(dir);
  return {
    name: targetName,
    kind: "recorded",
    folder: dir,
    capabilities: { modes: CONTRACT_MODES.filter((m) => runs.has(m)), ask: answers !== null, expand: false, trace: false },
    async search({ id, mode, limit }) {
      const run = runs.get(mode);
      if (!run) throw new TargetError("unsupported", `no ${RUN_FILE(mode)} in ${folder}`);
      return { results: (run.get(id) ?? []).slice(0, limit), trace: null, serverMs: null, clientMs: null };
    },
    async ask({ id, question }): Promise<AskResult> {
      const answer = answers?.get(id);
      if (!answer) throw new TargetError("not recorded", `no answer for ${JSON.stringify(id)} in ${join(folder, ANSWERS_FILE)}`);
      return toAskResult(question, answer, targetName);
    },
  };
}
