/**
 * A human labels file (JSONL, `labels.schema.json`): people's grades of judged metrics on answers,
 * read for `pnpm eval:calibrate`. Each line is checked against the published schema (Ajv); the
 * first problem is one line naming the file, the line and the field
 * (`labels.jsonl:7: /grade: must be at most 3 (got 4)`). Beyond the schema: the header (who
 * labelled and how) must come first and name every labeller used; a person grades a case's metric
 * once; one metric has one scale throughout the file.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { ConfigError, quoteInput } from "./errors.js";
import { compileValidator } from "./standalone-validators.js";

export const LABELS_SCHEMA_PATH = fileURLToPath(new URL("../labels.schema.json", import.meta.url));

export type LabelScale = "pass-fail" | "0-3";

export interface LabelsHeader {
  about: string;
  labellers: Record<string, string>;
}

export interface Label {
  case: string;
  metric: string;
  scale: LabelScale;
  grade: "pass" | "fail" | number;
  labeller: string;
  preset: string;
  answerSha256: string;
  note?: string;
  /** The line of the file it was read from (1-based). */
  line: number;
}

export interface LabelsFile {
  header: LabelsHeader;
  labels: Label[];
  /** sha256 of the file's bytes: the calibration names the labels it was measured on. */
  sha256: string;
}

/** The first 16 hex digits of the SHA-256 of an answer's text: what a label names the answer it graded by. */
export function answerSha(answer: string): string {
  return createHash("sha256").update(answer).digest("hex").slice(0, 16);
}

let validate: ValidateFunction | undefined;

/** A labels file's line as the caller read it: its number (1-based) and its parsed JSON. */
export interface LabelsLine {
  line: number;
  value: unknown;
}

/**
 * A labels file's lines, checked: the caller reads the file (the suite's one reader of a person's
 * files: encoding, then each line's JSON) and passes its lines and the sha256 of its bytes; a
 * problem is a ConfigError of one line naming the file, line and field.
 */
export function labelsFrom(lines: readonly LabelsLine[], shown: string, sha256: string): LabelsFile {
  validate ??= compileValidator({
    options: { allErrors: false, strict: false },
    schema: JSON.parse(readFileSync(LABELS_SCHEMA_PATH, "utf8")) as object,
  });
  let header: LabelsHeader | null = null;
  const labels: Label[] = [];
  const seen = new Map<string, number>();
  const scales = new Map<string, { scale: LabelScale; line: number }>();
  for (const { line, value } of lines) {
    const at = `${shown}:${line}`;
    const isHeader = typeof value === "object" && value !== null && "about" in value;
    if (!validate!(value)) throw new ConfigError(`${at}: ${problem(value, isHeader)}`);
    if (isHeader) {
      if (header !== null || labels.length > 0)
        throw new ConfigError(`${at}: the header (about, labellers) must be the file's first line, once`);
      header = value as LabelsHeader;
      continue;
    }
    if (header === null)
      throw new ConfigError(`${at}: the file must start with its header: {"about": "who labelled what and how", "labellers": {...}}`);
    const label = { ...(value as Omit<Label, "line">), line };
    if (!Object.hasOwn(header.labellers, label.labeller))
      throw new ConfigError(
        `${at}: /labeller: ${quoteInput(label.labeller)} is not described in the header's labellers (${Object.keys(header.labellers).join(", ")})`,
      );
    const key = `${label.case}\u0000${label.metric}\u0000${label.labeller}\u0000${label.preset}`;
    const before = seen.get(key);
    if (before !== undefined)
      throw new ConfigError(
        `${at}: ${label.labeller} already graded ${label.metric} of case ${label.case} (${label.preset}) on line ${before}`,
      );
    seen.set(key, line);
    const scale = scales.get(label.metric);
    if (scale && scale.scale !== label.scale)
      throw new ConfigError(
        `${at}: /scale: ${label.metric} is graded on the ${scale.scale} scale on line ${scale.line}; one metric has one scale (got ${quoteInput(label.scale)})`,
      );
    if (!scale) scales.set(label.metric, { scale: label.scale, line });
    labels.push(label);
  }
  if (header === null) throw new ConfigError(`${shown}: empty: no header and no label`);
  return { header, labels, sha256 };
}

/** The first schema problem in words, at its field: Ajv's errors under `oneOf` name both branches, so the branch is chosen by the record's kind. */
function problem(value: unknown, isHeader: boolean): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be a JSON object (a header or a label)";
  const errors = (validate!.errors ?? []).filter((e) => e.keyword !== "oneOf" && e.keyword !== "if");
  const branch = errors.filter((e) => (isHeader ? e.schemaPath.startsWith("#/oneOf/0") : !e.schemaPath.startsWith("#/oneOf/0")));
  const e = branch.find((x) => !x.schemaPath.includes("/grade/oneOf/")) ?? branch[0] ?? errors[0];
  if (!e) return "does not match the labels schema";
  const where = e.instancePath || "/";
  const v = e.instancePath === "" ? undefined : pointer(value, e.instancePath);
  if (e.keyword === "required") return `${where}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
  if (e.keyword === "additionalProperties")
    return `${where}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.instancePath === "/grade")
    return `/grade: must be "pass" or "fail" on the pass-fail scale, an integer from 0 to 3 on the 0-3 scale (got ${quoteInput(JSON.stringify(v))})`;
  return `${where}: ${e.message ?? e.keyword} (got ${quoteInput(JSON.stringify(v) ?? "nothing")})`;
}

/** The value at a JSON Pointer (RFC 6901) in `value`; undefined when nothing is there. */
export function pointer(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const part of path.split("/").slice(1))
    v = (v as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return v;
}
