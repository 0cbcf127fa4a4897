/**
 * A labelled items file (JSONL, `items.schema.json`): external (question, contexts, answer,
 * reference?) items with people's grades, read for `pnpm eval:calibrate --items`. The items a team
 * brings from ragas or DeepEval, or writes itself: nothing in them has to be an answer of the
 * engine or a case of the fixtures.
 *
 * Each line is checked against the published schema (Ajv); the first problem is one line naming
 * the file, the line and the field (`items.jsonl:7: /labels/faithfulness: must be an integer from
 * 0 to 3 (got 4)`). Beyond the schema:
 * - each field once under one name: `question` or ragas' `user_input`, `contexts` or
 *   `retrieved_contexts`, `answer` or `response`;
 * - answer-correctness is graded against a reference: an item labelled for it needs `reference`;
 * - an id is graded once per labeller; two labellers' lines of one id must hold the same texts;
 * - **scale**, per metric over the file: pass-fail when every grade is 0 or 1, else 0-3.
 *
 * The grades become `Label`s (labels.ts) of the item's answer — case = the item's id, preset
 * `item`, the answer's hash — so the calibration (calibration.ts) measures items and fixture
 * answers with the same statistics.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { ConfigError, quoteInput } from "./errors.js";
import { answerSha, type Label, type LabelScale, type LabelsLine, pointer } from "./labels.js";
import { compileValidator } from "./standalone-validators.js";

export const ITEMS_SCHEMA_PATH = fileURLToPath(new URL("../items.schema.json", import.meta.url));

/** The metrics an item can be labelled for. */
export const ITEM_METRICS = ["faithfulness", "answer-relevance", "context-relevance", "answer-correctness"] as const;
export type ItemMetric = (typeof ITEM_METRICS)[number];

/** The preset a label of an item names: items are nobody's preset. */
export const ITEM_PRESET = "item";
/** The labeller of items that name none. */
export const UNNAMED_LABELLER = "unnamed";

export interface LabelledItem {
  id: string;
  question: string;
  contexts: string[];
  answer: string;
  reference?: string;
  language?: string;
  labeller: string;
  /** The grades as given: 0/1 or 0–3 per metric. */
  labels: Partial<Record<ItemMetric, number>>;
  /** The line of the file it was read from (1-based). */
  line: number;
}

export interface ItemsFile {
  /** Every line, in file order (an id graded by two labellers is two items). */
  items: LabelledItem[];
  labels: Label[];
  /** Each metric's scale, as read from its grades. */
  scales: Partial<Record<ItemMetric, LabelScale>>;
  labellers: string[];
  /** sha256 of the file's bytes. */
  sha256: string;
}

let validate: ValidateFunction | undefined;

/** The names of one field: ours first, then ragas'. */
const ALIASES: ReadonlyArray<[keyof LabelledItem & string, string, string]> = [
  ["question", "user_input", "a string"],
  ["contexts", "retrieved_contexts", "an array of strings"],
  ["answer", "response", "a string"],
];

/**
 * An items file's lines, checked: the caller reads the file (the suite's one reader of a person's
 * files: encoding, then each line's JSON, as for labels: labels.ts `labelsFrom`) and passes its
 * lines and the sha256 of its bytes; a problem is a ConfigError of one line naming the file, line
 * and field.
 */
export function itemsFrom(lines: readonly LabelsLine[], shown: string, sha256: string): ItemsFile {
  validate ??= compileValidator({
    options: { allErrors: false, strict: false },
    schema: JSON.parse(readFileSync(ITEMS_SCHEMA_PATH, "utf8")) as object,
  });
  const items: LabelledItem[] = [];
  const seen = new Map<string, LabelledItem>();
  for (const { line, value } of lines) {
    const at = `${shown}:${line}`;
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new ConfigError(`${at}: must be a JSON object (one item)`);
    if (!validate!(value)) throw new ConfigError(`${at}: ${problem(value)}`);
    const record = value as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    for (const [name, ragas, kind] of ALIASES) {
      const ours = record[name];
      const theirs = record[ragas];
      if (ours !== undefined && theirs !== undefined)
        throw new ConfigError(`${at}: /${ragas}: give ${name} or ${ragas} (ragas' name), not both`);
      if (ours === undefined && theirs === undefined)
        throw new ConfigError(`${at}: /: missing required field "${name}" (${kind}; ragas' name: "${ragas}")`);
      fields[name] = ours ?? theirs;
    }
    const labels = record.labels as LabelledItem["labels"];
    const reference = record.reference as string | undefined;
    if (labels["answer-correctness"] !== undefined && reference === undefined)
      throw new ConfigError(
        `${at}: /labels/answer-correctness: needs the item's reference answer (field "reference") to be graded against`,
      );
    const item: LabelledItem = {
      id: String(record.id),
      question: fields.question as string,
      contexts: fields.contexts as string[],
      answer: fields.answer as string,
      ...(reference !== undefined ? { reference } : {}),
      ...(typeof record.language === "string" ? { language: record.language } : {}),
      labeller: (record.labeller as string | undefined) ?? UNNAMED_LABELLER,
      labels,
      line,
    };
    const key = `${item.id}\u0000${item.labeller}`;
    const before = seen.get(key);
    if (before) throw new ConfigError(`${at}: /id: ${item.labeller} already graded item ${quoteInput(item.id)} on line ${before.line}`);
    const other = items.find((x) => x.id === item.id);
    if (other && !sameTexts(other, item))
      throw new ConfigError(
        `${at}: /id: item ${quoteInput(item.id)} on line ${other.line} has another question, contexts, answer or reference; one id is one item`,
      );
    seen.set(key, item);
    items.push(item);
  }
  if (items.length === 0) throw new ConfigError(`${shown}: empty: no item`);
  const scales: ItemsFile["scales"] = {};
  for (const metric of ITEM_METRICS) {
    const grades = items.flatMap((x) => (x.labels[metric] === undefined ? [] : [x.labels[metric]!]));
    if (grades.length > 0) scales[metric] = grades.every((g) => g <= 1) ? "pass-fail" : "0-3";
  }
  const labels: Label[] = items.flatMap((item) =>
    ITEM_METRICS.flatMap((metric) => {
      const grade = item.labels[metric];
      if (grade === undefined) return [];
      const scale = scales[metric]!;
      return [
        {
          case: item.id,
          metric,
          scale,
          grade: scale === "pass-fail" ? (grade === 1 ? "pass" : "fail") : grade,
          labeller: item.labeller,
          preset: ITEM_PRESET,
          answerSha256: answerSha(item.answer),
          line: item.line,
        } satisfies Label,
      ];
    }),
  );
  return {
    items,
    labels,
    scales,
    labellers: [...new Set(items.map((x) => x.labeller))].sort(),
    sha256,
  };
}

function sameTexts(a: LabelledItem, b: LabelledItem): boolean {
  return (
    a.question === b.question &&
    a.answer === b.answer &&
    a.reference === b.reference &&
    a.contexts.length === b.contexts.length &&
    a.contexts.every((c, i) => c === b.contexts[i])
  );
}

/** The first schema problem in words, at its field. */
function problem(value: object): string {
  const e = (validate!.errors ?? [])[0];
  if (!e) return "does not match the items schema";
  const where = e.instancePath || "/";
  const v = pointer(value, e.instancePath);
  if (e.keyword === "required") return `${where}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
  if (e.keyword === "additionalProperties") {
    const field = (e.params as { additionalProperty: string }).additionalProperty;
    return e.instancePath === "/labels"
      ? `/labels: unknown metric "${field}" (an item is labelled for ${ITEM_METRICS.join(", ")})`
      : `${where}: unknown field "${field}"`;
  }
  if (e.instancePath.startsWith("/labels/"))
    return `${where}: must be an integer from 0 to 3 (0/1: fail/pass; 0-3: ordinal) (got ${quoteInput(JSON.stringify(v) ?? "nothing")})`;
  return `${where}: ${e.message ?? e.keyword} (got ${quoteInput(JSON.stringify(v) ?? "nothing")})`;
}
