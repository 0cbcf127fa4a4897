/**
 * Reads a BEIR dataset folder: `corpus.jsonl`, `queries.jsonl` and `qrels/<split>.tsv`.
 * The JSONL files are read by `beir-jsonl.ts` (ids and query texts); the qrels TSV starts with the
 * header `query-id<TAB>corpus-id<TAB>score` and holds one integer judgment per line.
 *
 * Errors are FormatErrors naming file and line: a split that is not a name (`../outside`:
 * `splitNameProblem`), a missing file or folder (the message lists the splits that exist), files
 * that are not UTF-8 (utf8-text.ts), a bad header, a line without 3 tab-separated fields, a score that is not an
 * integer grade within ±MAX_GRADE (grade.ts: the limit and wording of the TREC qrels reader),
 * a query-id absent from queries.jsonl (an unknown topic), a corpus-id absent from corpus.jsonl
 * (unless `allowUnknownDocs`), a repeated (query, doc) pair, a last line without its line break
 * (the file cut off: `CUT_OFF`).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compareUtf8, topicQrels } from "../judged-ranking.js";
import { type BeirQuery, readBeirQueries, readCorpusIds } from "./beir-jsonl.js";
import { FormatError, quote } from "./format-error.js";
import { parseGrade } from "./grade.js";
import { readUtf8Text } from "./utf8-text.js";
import type { Qrels, QrelsTopic } from "./trec-qrels.js";
import { CUT_OFF } from "./trec-run.js";

export interface BeirDataset {
  readonly folder: string;
  readonly split: string;
  /** Document ids of corpus.jsonl, in file order. */
  readonly corpusIds: string[];
  readonly queries: BeirQuery[];
  /** Judgments of the split, in the same shape as TREC qrels. */
  readonly qrels: Qrels;
}

export interface BeirReadOptions {
  /** Which qrels/<split>.tsv to read. @default "test" */
  readonly split?: string;
  /** Accept judgments of documents that corpus.jsonl does not contain. @default false */
  readonly allowUnknownDocs?: boolean;
}

/**
 * Why `split` cannot name a split, or null: a split is a file name in `qrels/` without `.tsv`
 * (letters, digits, '.', '_', '-'; not starting with '.'), so it can never reach outside that
 * folder (`../outside`) or name a hidden file.
 */
export function splitNameProblem(split: string): string | null {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(split)) return null;
  return `split ${JSON.stringify(quote(split))} is not a split name (up to 100 letters, digits, '.', '_' and '-', not starting with '.': the file qrels/<split>.tsv of the dataset folder)`;
}

/** The splits `qrels/` holds (its `.tsv` files), for messages; empty when there is no such folder. */
function splitsIn(folder: string): string[] {
  try {
    return readdirSync(join(folder, "qrels"))
      .filter((f) => f.endsWith(".tsv"))
      .map((f) => f.slice(0, -4));
  } catch {
    return [];
  }
}

export function readBeirDataset(folder: string, options: BeirReadOptions = {}): BeirDataset {
  const split = options.split ?? "test";
  if (!existsSync(folder)) throw new FormatError(folder, null, "cannot read: no such folder (expected a BEIR dataset folder)");
  const badSplit = splitNameProblem(split);
  if (badSplit !== null) {
    const splits = splitsIn(folder);
    throw new FormatError(folder, null, `${badSplit}; splits here: ${splits.length > 0 ? splits.join(", ") : "none"}`);
  }
  const corpusIds = readCorpusIds(join(folder, "corpus.jsonl"));
  const queries = readBeirQueries(join(folder, "queries.jsonl"));
  const qrelsFile = join(folder, "qrels", `${split}.tsv`);
  if (!existsSync(qrelsFile)) {
    const splits = splitsIn(folder);
    throw new FormatError(qrelsFile, null, `cannot read: no such file (splits here: ${splits.length > 0 ? splits.join(", ") : "none"})`);
  }
  const qrels = readBeirQrels(qrelsFile, {
    queryIds: new Set(queries.map((q) => q.id)),
    docIds: options.allowUnknownDocs ? undefined : new Set(corpusIds),
  });
  return { folder, split, corpusIds, queries, qrels };
}

/** Reads a BEIR qrels TSV; ids not in `queryIds`/`docIds` (when given) are errors. */
export function readBeirQrels(file: string, known: { queryIds?: ReadonlySet<string>; docIds?: ReadonlySet<string> } = {}): Qrels {
  const text = readUtf8Text(file);
  const lines = text.split("\n");
  // A qrels file cut off mid-line would otherwise be read as a shorter file, or a last judgment cut short.
  if (!text.endsWith("\n") && lines.at(-1)!.trim() !== "" && lines.length > 1) throw new FormatError(file, lines.length, CUT_OFF);
  const header = (lines[0] ?? "").replace(/\r$/, "").replace(/^\uFEFF/, "");
  if (header.trim() === "") throw new FormatError(file, 1, "empty file, expected the header 'query-id<TAB>corpus-id<TAB>score'");
  if (
    header
      .split("\t")
      .map((f) => f.trim())
      .join("\t") !== "query-id\tcorpus-id\tscore"
  ) {
    throw new FormatError(file, 1, `expected the header 'query-id<TAB>corpus-id<TAB>score', found '${quote(header)}'`);
  }
  const grades = new Map<string, Map<string, number>>();
  const firstLine = new Map<string, number>();
  const seenAt = new Map<string, number>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (line.trim() === "") continue;
    const lineNo = i + 1;
    const fields = line.split("\t");
    if (fields.length !== 3)
      throw new FormatError(file, lineNo, `expected 3 tab-separated fields (query-id corpus-id score), found ${fields.length}`);
    const [queryId, docId, scoreText] = fields.map((f) => f.trim()) as [string, string, string];
    if (queryId === "" || docId === "") throw new FormatError(file, lineNo, "empty query-id or corpus-id");
    const read = parseGrade(scoreText, quote(scoreText), "score");
    if ("problem" in read) throw new FormatError(file, lineNo, read.problem);
    if (known.queryIds && !known.queryIds.has(queryId))
      throw new FormatError(file, lineNo, `unknown topic: query-id "${quote(queryId)}" is not in queries.jsonl`);
    if (known.docIds && !known.docIds.has(docId))
      throw new FormatError(file, lineNo, `unknown document: corpus-id "${quote(docId)}" is not in corpus.jsonl`);
    const key = `${queryId}\0${docId}`;
    const first = seenAt.get(key);
    if (first !== undefined)
      throw new FormatError(
        file,
        lineNo,
        `document "${quote(docId)}" is judged twice for query "${quote(queryId)}" (first on line ${first})`,
      );
    seenAt.set(key, lineNo);
    let topic = grades.get(queryId);
    if (!topic) {
      topic = new Map();
      grades.set(queryId, topic);
      firstLine.set(queryId, lineNo);
    }
    topic.set(docId, read.grade);
  }
  if (grades.size === 0) throw new FormatError(file, null, "no judgment lines after the header");
  const topics = new Map<string, QrelsTopic>();
  for (const [id, g] of grades) topics.set(id, { id, line: firstLine.get(id)!, ...topicQrels(g) });
  return { file, topics, topicOrder: [...topics.keys()].sort(compareUtf8) };
}
