/**
 * `pnpm eval:review <folder> [--by <name>]`: a person walks the drafts of a folder written by
 * `pnpm eval:draft` or `eval:harvest` in the terminal, one at a time — its question or query, what it
 * expects, the passage or feedback it came from — and decides: **a**ccept, **e**dit the expectation,
 * **r**eject, **s**kip (or Enter), **q**uit. Each decision is written at once, atomically
 * (bin/lib/review-files.ts), so an interrupted review loses nothing; an accepted case loses `status:
 * "draft"` and records `reviewed: { by, date }`, and from then on it gates like any other case.
 * An edit is checked before it is written: an expected fact must occur in a document the case cites
 * (in some document when it cites none), a judged document must be in the corpus, a turn case's
 * expectations must fit the turn-case schema.
 *
 * Reads lines, so it runs in any terminal and from a script alike. `--by` names the reviewer
 * (default: EVAL_REVIEWER, else the user's login name).
 *
 * Exit status: 0 the review ended (every draft seen, `q`, or the end of the input); 2 bad arguments,
 * or a folder that is not a dataset with drafts the checks accept (one line).
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { type CommandIo, parseCommandLine, processIo, UsageError } from "./lib/cli-args.js";
import { DatasetError, isoDate, loadDataset, type Reviewed } from "../helpers/dataset.js";
import { sourceTexts } from "../helpers/drafting/sources.js";
import { formatFixtureError, isFixtureError, normalizeForMatch } from "../helpers/fixture-files.js";
import { schemaIssues } from "../helpers/fixture-files/loader.js";
import { FIXTURES_DIR } from "../helpers/fixture-files/paths.js";
import { isWhereQuestion } from "./lib/harvest/candidates.js";
import { type CaseRecord, type Draft, ReviewFolder } from "./lib/review-files.js";

const USAGE = "Usage: pnpm eval:review <folder> [--by <name>]";

/** What the review reads its decisions from, besides where it writes. */
export interface ReviewIo extends CommandIo {
  input: NodeJS.ReadableStream;
}

/** The running process's streams (bin/entry/eval-review.ts). */
export function processReviewIo(): ReviewIo {
  return { ...processIo(), input: process.stdin };
}

/** Lines of the input, one per `next()`; null at its end. */
function lineReader(input: NodeJS.ReadableStream): { next(): Promise<string | null>; close(): void } {
  const lines: string[] = [];
  const waiting: Array<(line: string | null) => void> = [];
  let ended = false;
  const rl = createInterface({ input, terminal: false });
  rl.on("line", (line) => {
    const wake = waiting.shift();
    if (wake) wake(line);
    else lines.push(line);
  });
  rl.on("close", () => {
    ended = true;
    for (const wake of waiting.splice(0)) wake(null);
  });
  return {
    next: () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : ended ? Promise.resolve(null) : new Promise((r) => waiting.push(r))),
    close: () => rl.close(),
  };
}

/** Runs one review and returns its exit status; never exits the process (bin/entry/eval-review.ts does). */
export async function main(
  argv: string[],
  io: ReviewIo = processReviewIo(),
  env: NodeJS.ProcessEnv = process.env,
  now: () => Date = () => new Date(),
): Promise<number> {
  const out = (text: string): void => io.stdout(text);
  let reader: ReturnType<typeof lineReader> | null = null;
  try {
    const { values, positionals } = parseCommandLine(
      { args: argv, options: { help: { type: "boolean", short: "h" }, by: { type: "string" } }, allowPositionals: true },
      USAGE,
    );
    if (values.help) {
      out(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(`one folder is needed, got ${positionals.length}; ${USAGE}`);
    const folder = resolve(positionals[0]!);
    const by = values.by?.trim() || env.EVAL_REVIEWER?.trim() || userInfo().username;
    if (!existsSync(folder)) throw new UsageError(`${positionals[0]}: no such folder`);
    // The folder must load as a run reads it: a review never starts on data a run would refuse.
    const dataset = loadDataset({ EVAL_DATASET: folder });
    const texts = new Map(sourceTexts(dataset).map((d) => [d.id, normalizeForMatch(`${d.title ?? ""}\n${d.text}`)]));
    const files = new ReviewFolder(folder);
    const drafts = files.drafts();
    if (drafts.length === 0) {
      out(`eval:review: ${positionals[0]} holds no drafts: nothing to review\n`);
      return 0;
    }
    out(`eval:review: ${drafts.length} draft(s) in ${positionals[0]}, reviewed by ${by}; each decision is written at once\n`);
    reader = lineReader(io.input);
    const ask = async (prompt: string): Promise<string | null> => {
      out(prompt);
      const line = await reader!.next();
      return line === null ? null : line.trim();
    };
    const reviewed = (edited: boolean): Reviewed => ({ by, date: isoDate(now()), ...(edited ? { edited: true } : {}) });
    const tally = { accepted: 0, edited: 0, rejected: 0, skipped: 0 };
    const editedIds = new Set<string>();
    let stopped = false;
    review: for (let i = 0; i < drafts.length; i++) {
      let draft = drafts[i]!;
      for (;;) {
        const record = files.record(draft);
        if (!record) continue review;
        out(`\n${show(draft, record, i + 1, drafts.length)}`);
        const incomplete = draft.kind === "incomplete";
        const answer = await ask(`${incomplete ? "" : "[a]ccept  "}[e]dit expectation  [r]eject  [s]kip  [q]uit › `);
        if (answer === null || answer === "q") {
          stopped = true;
          break review;
        }
        if (answer === "a" && !incomplete) {
          files.accept(draft, reviewed(editedIds.has(draft.id)));
          tally.accepted++;
          out(`  accepted ${draft.id}\n`);
          continue review;
        }
        if (answer === "r") {
          files.reject(draft, reviewed(false));
          tally.rejected++;
          out(`  rejected ${draft.id} (kept in review.jsonl)\n`);
          continue review;
        }
        if (answer === "s" || answer === "") {
          tally.skipped++;
          continue review;
        }
        if (answer === "e") {
          const edit = await editOf(draft, record, ask, { texts, surfaces: files.surfaces() });
          if (edit === null) {
            stopped = true;
            break review;
          }
          if (typeof edit === "string") {
            out(`  not changed: ${edit}\n`);
            continue;
          }
          draft = files.edit(draft, edit.changes, reviewed(true), edit.into);
          if (edit.into?.file === "turn-cases.json") ensureSchema(folder, "turn-cases.schema.json");
          if (edit.into?.file === "ask-cases.json") ensureSchema(folder, "dataset-ask-cases.schema.json", "ask-cases.schema.json");
          editedIds.add(draft.id);
          tally.edited++;
          out(`  edited ${draft.id}: it stays a draft until accepted\n`);
          continue;
        }
        out(`  "${answer}" is none of a, e, r, s, q\n`);
      }
    }
    const left = new ReviewFolder(folder).drafts().length;
    out(
      `\neval:review: ${stopped ? "stopped" : "done"}: ${tally.accepted} accepted, ${tally.edited} edit(s), ${tally.rejected} rejected, ${tally.skipped} skipped; ${left} draft(s) left. ` +
        `Next: EVAL_DATASET=${positionals[0]} pnpm eval (accepted cases gate from now on; drafts are scored apart)\n`,
    );
    return 0;
  } catch (error) {
    const line = (message: string): number => {
      io.stderr(`eval:review: ${message}\n`);
      return 2;
    };
    if (error instanceof UsageError) return line(error.message);
    if (error instanceof DatasetError) return line(error.message.replace(/^EVAL_DATASET: /, ""));
    if (isFixtureError(error)) return line(formatFixtureError(error));
    throw error;
  } finally {
    reader?.close();
  }
}

const quoted = (items: readonly unknown[]): string => items.map((x) => JSON.stringify(x)).join(", ");
const clip = (text: string, n = 300): string => (text.length > n ? `${text.slice(0, n - 1)}…` : text).replace(/\s+/g, " ");

/** A draft as the reviewer sees it. */
export function show(draft: Draft, r: CaseRecord, n: number, of: number): string {
  const p = r.provenance;
  const lines = [
    `[${n}/${of}] ${draft.file} · ${r.id}${r.category ? ` · ${String(r.category)}` : ""}${r.language ? ` · ${String(r.language)}` : ""}`,
  ];
  const row = (label: string, value: string): void => void lines.push(`  ${label.padEnd(9)} ${value}`);
  if (draft.kind === "query") {
    row("query", String(r.query));
    row(
      "judged",
      Object.entries(r.judgments as Record<string, number>)
        .map(([d, g]) => `${d}=${g}`)
        .join(", "),
    );
  } else {
    row("question", String(r.question));
    if (draft.kind === "answer") {
      if (r.expectedRefusal) row("expects", "a refusal (the corpus does not answer it)");
      if (Array.isArray(r.expectedSubstrings)) row("expects", quoted(r.expectedSubstrings));
      if (Array.isArray(r.mustCite)) row("cites", (r.mustCite as string[]).join(", "));
      for (const f of ["forbiddenSubstrings", "expectedTopics"])
        if (Array.isArray(r[f])) row(f === "forbiddenSubstrings" ? "forbids" : "topics", quoted(r[f] as unknown[]));
    }
    if (draft.kind === "turn") {
      row("surface", String(r.surface));
      row("expects", JSON.stringify(r.expect));
      row("guards", clip(String(r.guards)));
    }
    if (draft.kind === "incomplete")
      row(
        "needs",
        `an expectation (${r.kind === "answer" ? "an answer" : "a turn"} case${r.surface ? ` on surface ${String(r.surface)}` : ""})`,
      );
  }
  if (p?.quote) row("quote", `“${clip(p.quote)}” (${p.docId})`);
  for (const a of p?.also ?? []) row("and", `“${clip(a.quote)}” (${a.docId})`);
  if (typeof r.note === "string") row("note", clip(r.note));
  if (p) row("drafted", `${p.method}${p.feedbackId ? `, feedback ${p.feedbackId}` : ""}, ${p.drafted}`);
  return `${lines.join("\n")}\n`;
}

interface EditContext {
  texts: ReadonlyMap<string, string>;
  surfaces: Record<string, string[]>;
}

type Edit = { changes: Record<string, unknown>; into?: Parameters<ReviewFolder["edit"]>[3] };

/** Asks for the draft's new expectation; the edit, why the input is refused (a string), or null at the end of the input. */
async function editOf(
  draft: Draft,
  r: CaseRecord,
  ask: (prompt: string) => Promise<string | null>,
  context: EditContext,
): Promise<Edit | string | null> {
  const kind = draft.kind === "incomplete" ? (r.kind as "answer" | "turn") : draft.kind;
  if (kind === "query") {
    const now = Object.entries(r.judgments as Record<string, number>)
      .map(([d, g]) => `${d}=${g}`)
      .join(" ");
    const line = await ask(`  judgments, doc=grade (0–3) separated by spaces (now: ${now}) › `);
    if (line === null) return null;
    const judgments: Record<string, number> = {};
    for (const part of line.split(/[\s,]+/).filter(Boolean)) {
      const m = /^(.+)=([0-3])$/.exec(part);
      if (!m) return `"${part}" is not doc=grade with a grade 0–3`;
      if (!context.texts.has(m[1]!)) return `${m[1]} is not a document of the corpus`;
      judgments[m[1]!] = Number(m[2]);
    }
    if (!Object.values(judgments).some((g) => g >= 1)) return "a query needs at least one document judged 1 or more";
    const relevant = Object.entries(judgments)
      .filter(([, g]) => g >= 1)
      .map(([d]) => d);
    return { changes: { judgments, ...(r.relevantDocs !== undefined ? { relevantDocs: relevant } : {}) } };
  }
  if (kind === "turn") {
    const line = await ask(`  expectations as JSON (now: ${JSON.stringify(r.expect ?? [])}) › `);
    if (line === null) return null;
    let expect: unknown;
    try {
      expect = JSON.parse(line);
    } catch {
      return "not JSON";
    }
    const surface = String(r.surface ?? "");
    const tools = (r.tools as string[] | undefined) ?? context.surfaces[surface] ?? [];
    const record =
      draft.kind === "incomplete"
        ? {
            id: r.id,
            question: r.question,
            language: r.language,
            category: isWhereQuestion(String(r.question)) ? "where" : "answer",
            surface,
            guards: String(r.note).slice(0, 500),
            expect,
            status: "draft",
            provenance: r.provenance,
          }
        : { ...r, expect };
    const issues = schemaIssues("turn-cases.schema.json", {
      version: 1,
      surfaces: { ...context.surfaces, [surface]: tools },
      cases: [record],
    });
    if (issues.length > 0) return `${issues[0]!.pointer.replace(/^\/cases\/0/, "")}: ${issues[0]!.problem}`.replace(/^: /, "");
    return draft.kind === "incomplete"
      ? { changes: {}, into: { file: "turn-cases.json", record: record as CaseRecord, surface: { name: surface, tools } } }
      : { changes: { expect } };
  }
  // An answer case.
  const now = r.expectedRefusal ? "refuse" : quoted((r.expectedSubstrings as string[] | undefined) ?? []);
  const line = await ask(`  expected facts separated by " | ", or "refuse" (now: ${now || "none"}) › `);
  if (line === null) return null;
  let cite = (r.mustCite as string[] | undefined) ?? [];
  if (draft.kind === "incomplete" && line !== "refuse") {
    const docs = await ask("  documents to cite, separated by spaces (may be none) › ");
    if (docs === null) return null;
    cite = docs.split(/\s+/).filter(Boolean);
    const unknown = cite.find((d) => !context.texts.has(d));
    if (unknown) return `${unknown} is not a document of the corpus`;
  }
  const refusal = line === "refuse";
  const facts = refusal
    ? []
    : line
        .split("|")
        .map((f) => f.trim())
        .filter(Boolean);
  if (!refusal && facts.length === 0 && cite.length === 0) return "no expectation given";
  const where = cite.length > 0 ? cite : [...context.texts.keys()];
  const missing = facts.find((f) => !where.some((d) => context.texts.get(d)!.includes(normalizeForMatch(f))));
  if (missing !== undefined)
    return `"${missing}" does not occur in ${cite.length > 0 ? `the cited document(s) (${cite.join(", ")})` : "any document"}`;
  const changes = refusal
    ? { expectedRefusal: true, expectedSubstrings: undefined, mustCite: undefined }
    : {
        expectedRefusal: undefined,
        ...(facts.length > 0 ? { expectedSubstrings: facts } : { expectedSubstrings: undefined }),
        ...(cite.length > 0 ? { mustCite: cite } : {}),
      };
  if (draft.kind !== "incomplete") return { changes };
  const record: CaseRecord = {
    id: r.id,
    question: r.question,
    ...(r.language ? { language: r.language } : {}),
    category: refusal ? "off-corpus" : "answer-feedback",
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    note: r.note,
    status: "draft",
    ...(r.provenance ? { provenance: r.provenance } : {}),
  };
  return { changes: {}, into: { file: "ask-cases.json", record } };
}

/** Copies a schema a file of the folder names into its schemas/, when it is not there yet. */
function ensureSchema(folder: string, source: string, as = source): void {
  const to = join(folder, "schemas", as);
  if (existsSync(to)) return;
  mkdirSync(join(folder, "schemas"), { recursive: true });
  copyFileSync(join(FIXTURES_DIR, "schemas", source), to);
}
