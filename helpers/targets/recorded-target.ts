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
 *   <folder>/turns.jsonl
 *       one agent turn per line as `pnpm engine turn --batch` writes it: the turn trace (the
 *       contract's `TurnResponse`) with the turn case's `id`; without it the agent eval is skipped.
 *
 * Rankings are read as trec_eval reads them: by score, ties by document id descending (UTF-8
 * bytes), which is the engine's own order. A query the run has no line for retrieved nothing (as
 * `engine run` writes a query without results); a run that holds none of the dataset's queries is
 * the wrong run: a ConfigError. An answer missing from answers.jsonl, or a turn from turns.jsonl,
 * fails its case. A recording's times are the ones it carries (an answer's or a turn's
 * `elapsedMs`): the suite made no call to time, so a metric of the time of a record that holds
 * none is not scored (helpers/targets/observe.ts).
 */
import { existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { CONTRACT_MODES, contractProblems } from "@hybrid-search/target-contract";
import { FormatError, readTrecRun } from "@hybrid-search/trec-eval/formats";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type { AskResponse, Hit } from "@hybrid-search/target-contract/types";
import { FixtureError } from "../fixture-files/errors.js";
import { type JsonlRecord, readJsonlFile } from "../input-files/read.js";
import { type Reply, type Target, TargetError, type TargetMode } from "./target.js";

export const RUN_FILE = (mode: TargetMode): string => `${mode}.run`;
export const ANSWERS_FILE = "answers.jsonl";
export const TURNS_FILE = "turns.jsonl";

const utf8 = (s: string) => Buffer.from(s, "utf8");

/** trec_eval's order: score descending, ties by document id descending (bytes). */
function trecOrder(a: Hit, b: Hit): number {
  return b.score - a.score || Buffer.compare(utf8(b.docId), utf8(a.docId));
}

function readRun(file: string): Map<string, Hit[]> {
  const topics = new Map<string, Hit[]>();
  try {
    readTrecRun(file, {
      requireLineBreaks: true,
      onTopic: (t) => {
        const hits: Hit[] = [];
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

/**
 * Each recorded line `{id, …}` of a JSONL file, read by the suite's one reader of a person's files
 * (UTF-8, each line a JSON object, a line cut off named by its line), then checked as the
 * contract's `message`, by id; a ConfigError names the file, line and problem.
 */
function readRecords<T>(file: string, message: "AskResponse" | "TurnResponse", what: string): Map<string, T> {
  const records = new Map<string, T>();
  let lines: JsonlRecord[];
  try {
    lines = readJsonlFile(file, { shown: file, records: "object" });
  } catch (error) {
    if (error instanceof FixtureError) throw new ConfigError(`EVAL_RUN_DIR: ${error.message}`);
    throw error;
  }
  for (const { line, value: record } of lines) {
    const value = record as Record<string, unknown>;
    const id = value.id;
    if (typeof id !== "string" && typeof id !== "number") throw new ConfigError(`EVAL_RUN_DIR: ${file}:${line}: missing "id"`);
    const problems = contractProblems(message, value);
    if (problems.length > 0) throw new ConfigError(`EVAL_RUN_DIR: ${file}:${line}: not ${what}: ${problems[0]}`);
    if (records.has(String(id))) throw new ConfigError(`EVAL_RUN_DIR: ${file}:${line}: id ${JSON.stringify(String(id))} repeats`);
    records.set(String(id), value as unknown as T);
  }
  return records;
}

/**
 * The recorded runs in `folder`. `queryIds` are the dataset's query ids: a run that holds none of
 * them was recorded on other queries.
 */
export function openRecordedTarget(
  folder: string,
  queryIds: ReadonlySet<string>,
  name: string | undefined,
  labelOf: (name: string) => string,
): Target & { folder: string } {
  const dir = resolve(folder);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConfigError(`EVAL_RUN_DIR: ${folder} is not a folder`);
  const runs = new Map<TargetMode, Map<string, Hit[]>>();
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
  const answers = existsSync(answersFile) ? readRecords<AskResponse>(answersFile, "AskResponse", "an answer") : null;
  const turnsFile = join(dir, TURNS_FILE);
  const turns = existsSync(turnsFile) ? readRecords<TurnResponse>(turnsFile, "TurnResponse", "a turn") : null;
  if (runs.size === 0 && answers === null && turns === null)
    throw new ConfigError(
      `EVAL_RUN_DIR: ${folder} holds no run file (${CONTRACT_MODES.map(RUN_FILE).join(", ")}), no ${ANSWERS_FILE} and no ${TURNS_FILE}`,
    );
  const targetName = name ?? basename(dir);
  const recorded = <M>(message: M): Reply<M> => ({ message, clientMs: null, serverMs: null });
  return {
    name: targetName,
    kind: "recorded",
    label: labelOf(targetName),
    reach: "recorded",
    folder: dir,
    capabilities: {
      modes: CONTRACT_MODES.filter((m) => runs.has(m)),
      ask: answers !== null,
      expand: false,
      trace: false,
      turn: turns !== null,
    },
    async search({ id, mode, limit }) {
      const run = runs.get(mode);
      if (!run) throw new TargetError("unsupported", `no ${RUN_FILE(mode)} in ${folder}`);
      return recorded({ results: (run.get(id) ?? []).slice(0, limit) });
    },
    async ask({ id }) {
      const answer = answers?.get(id);
      if (!answer) throw new TargetError("not recorded", `no answer for ${JSON.stringify(id)} in ${join(folder, ANSWERS_FILE)}`);
      return recorded(answer);
    },
    async turn({ id }) {
      const turn = turns?.get(id);
      if (!turn) throw new TargetError("not recorded", `no turn for ${JSON.stringify(id)} in ${join(folder, TURNS_FILE)}`);
      return recorded(turn);
    },
  };
}
