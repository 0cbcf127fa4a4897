/**
 * The files `pnpm eval:review` settles, and its decisions as changes to them: a folder written by
 * `eval:draft` or `eval:harvest` holds drafts in ask-cases.json, queries.json and turn-cases.json
 * (`status: "draft"`), and candidates that need an expectation in incomplete.json.
 *
 * - **accept**: the case loses `status` and gains `reviewed: { by, date }` (`edited: true` when its
 *   expectation was changed); its provenance stays;
 * - **edit**: the case's expectation is replaced (an incomplete candidate, given one, moves into
 *   ask-cases.json or turn-cases.json as a draft); it stays a draft until accepted;
 * - **reject**: the case leaves its file;
 * - **skip**: nothing changes.
 *
 * Each decision is written at once, atomically — the file is written beside itself, flushed to the
 * disk and renamed over the old one, so an interrupted review leaves every file either before or
 * after a decision, never half written — and logged with the case in review.jsonl (a rejected case
 * can be found there again). A file left with no case is removed, as its schema wants at least one.
 */
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { DraftFields, Reviewed } from "../../helpers/dataset.js";

/** The files that can hold drafts, and the key of their records. */
export const DRAFT_FILES = [
  { file: "ask-cases.json", key: "cases", kind: "answer" },
  { file: "queries.json", key: "queries", kind: "query" },
  { file: "turn-cases.json", key: "cases", kind: "turn" },
  { file: "incomplete.json", key: "cases", kind: "incomplete" },
] as const;
export type DraftKind = (typeof DRAFT_FILES)[number]["kind"];

export const REVIEW_LOG = "review.jsonl";

export type CaseRecord = DraftFields & { id: string; [field: string]: unknown };

/** One draft: where it is and what it is. */
export interface Draft {
  file: string;
  kind: DraftKind;
  id: string;
}

type FileValue = { [key: string]: unknown } & { version: 1 };

/** Writes `text` to `path` atomically: beside it, flushed, renamed over it. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.writing-${process.pid}`;
  const fd = openSync(temporary, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** The folder's draft files, read once; every change is written back at once. */
export class ReviewFolder {
  private readonly values = new Map<string, FileValue>();

  constructor(readonly folder: string) {
    for (const { file } of DRAFT_FILES) {
      const path = join(folder, file);
      if (existsSync(path)) this.values.set(file, JSON.parse(readFileSync(path, "utf8")) as FileValue);
    }
  }

  /** Every draft of the folder, file by file, in file order. */
  drafts(): Draft[] {
    return DRAFT_FILES.flatMap(({ file, key, kind }) =>
      this.records(file, key)
        .filter((r) => kind === "incomplete" || r.status === "draft")
        .map((r) => ({ file, kind, id: r.id })),
    );
  }

  /** A draft's record as it is now (undefined once it left its file). */
  record(draft: Draft): CaseRecord | undefined {
    return this.records(draft.file, keyOf(draft.file)).find((r) => r.id === draft.id);
  }

  /** turn-cases.json's surfaces (its tools by surface), or none. */
  surfaces(): Record<string, string[]> {
    return (this.values.get("turn-cases.json")?.surfaces as Record<string, string[]> | undefined) ?? {};
  }

  accept(draft: Draft, reviewed: Reviewed): void {
    const record = this.record(draft);
    if (!record) return;
    if (draft.kind === "incomplete") throw new Error(`${draft.id} needs an expectation before it can be accepted`);
    const { status: _status, ...rest } = record;
    this.replace(draft, { ...rest, reviewed });
    this.log(draft, "accept", reviewed);
  }

  reject(draft: Draft, reviewed: Reviewed): void {
    const record = this.record(draft);
    if (!record) return;
    const file = draft.file;
    const key = keyOf(file);
    const value = this.values.get(file)!;
    value[key] = this.records(file, key).filter((r) => r.id !== draft.id);
    this.save(file);
    this.log(draft, "reject", reviewed, record);
  }

  /**
   * Replaces a draft's expectation fields (`changes`; a field set to undefined is removed). An
   * incomplete candidate given an expectation moves to `into` (ask-cases.json, or turn-cases.json
   * with its surface's tools) and is returned there.
   */
  edit(
    draft: Draft,
    changes: Record<string, unknown>,
    reviewed: Reviewed,
    into?: { file: "ask-cases.json" | "turn-cases.json"; record: CaseRecord; surface?: { name: string; tools: string[] } },
  ): Draft {
    const record = this.record(draft);
    if (!record) return draft;
    if (into) {
      const value = this.values.get(into.file) ?? (this.values.set(into.file, newFile(into.file)).get(into.file) as FileValue);
      value.cases = [...this.records(into.file, "cases"), into.record];
      if (into.surface)
        value.surfaces = { ...((value.surfaces as Record<string, string[]>) ?? {}), [into.surface.name]: into.surface.tools };
      this.save(into.file);
      const rest = this.records(draft.file, "cases").filter((r) => r.id !== draft.id);
      this.values.get(draft.file)!.cases = rest;
      this.save(draft.file);
      this.log(draft, "edit", reviewed, into.record);
      return { file: into.file, kind: into.file === "ask-cases.json" ? "answer" : "turn", id: into.record.id };
    }
    const next: CaseRecord = { ...record };
    for (const [field, v] of Object.entries(changes)) {
      if (v === undefined) delete next[field];
      else next[field] = v;
    }
    this.replace(draft, next);
    this.log(draft, "edit", reviewed, next);
    return draft;
  }

  private records(file: string, key: string): CaseRecord[] {
    return ((this.values.get(file)?.[key] as CaseRecord[] | undefined) ?? []).slice();
  }

  private replace(draft: Draft, record: CaseRecord): void {
    const key = keyOf(draft.file);
    const value = this.values.get(draft.file)!;
    value[key] = this.records(draft.file, key).map((r) => (r.id === draft.id ? record : r));
    this.save(draft.file);
  }

  private save(file: string): void {
    const path = join(this.folder, file);
    const value = this.values.get(file)!;
    if ((value[keyOf(file)] as unknown[]).length === 0) {
      rmSync(path, { force: true });
      this.values.delete(file);
      return;
    }
    writeAtomically(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  private log(draft: Draft, decision: string, reviewed: Reviewed, record?: CaseRecord): void {
    const line = { id: draft.id, file: draft.file, decision, by: reviewed.by, date: reviewed.date, ...(record ? { case: record } : {}) };
    appendFileSync(join(this.folder, REVIEW_LOG), `${JSON.stringify(line)}\n`);
  }
}

function keyOf(file: string): string {
  return DRAFT_FILES.find((f) => f.file === file)!.key;
}

function newFile(file: "ask-cases.json" | "turn-cases.json"): FileValue {
  return file === "ask-cases.json"
    ? { $schema: "./schemas/ask-cases.schema.json", version: 1, cases: [] }
    : { $schema: "./schemas/turn-cases.schema.json", version: 1, surfaces: {}, cases: [] };
}
