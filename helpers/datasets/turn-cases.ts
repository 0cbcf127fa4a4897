/**
 * A dataset's own agent turn cases, in a folder dataset's folder (whatever its format: load.ts reads
 * them for every folder): a `turn-cases.json` in the suite's
 * turn-case format (fixtures/schemas/dataset-turn-cases.schema.json: the demo's format without the
 * demo corpus's own rules), or a v10r-style `golden-cases.json` (seed 004: cases with a surface, a
 * question, the regression each guards and expectations of ten kinds), mapped to the suite's turn
 * cases with every field it cannot map named (`unmapped`). Both are linted as the demo's turn cases
 * are (helpers/fixture-files/turn-cases.ts, `turnCaseIssues`) against the DATASET's corpus: a cited
 * document the corpus lacks stops the run with one line naming file, record and field (exit 2).
 *
 * Rules of the demo corpus that a user's set need not follow: ids, languages and categories of its
 * own; tools of its own service (any name the target contract allows); no rule that every kind of
 * expectation is used; and which tools need approval is the trace's word (`needsApproval`), so a
 * stop at approval is not checked against the surface.
 */
import { join } from "node:path";
import type { Expectation, TurnCase } from "../../scorers/agent/turn-case.js";
import type { FixtureIssue } from "../fixture-files/errors.js";
import { show } from "../fixture-files/errors.js";
import { displayPath } from "../fixture-files/paths.js";
import { type StoredCase, turnCaseIssues } from "../fixture-files/turn-cases.js";
import { unmappedFields } from "./formats/common.js";
import type { CorpusView } from "./lint.js";
import type { DatasetTurns, UnmappedField } from "./model.js";
import { checkSchema, fail, isFile, named, readJsonFile, recordNamer } from "./read.js";

/** The suite's turn-case file of a dataset. */
export const TURN_CASES_FILE = "turn-cases.json";
/** A v10r-style golden set of turn cases. */
export const GOLDEN_CASES_FILE = "golden-cases.json";

/** Whether `folder` holds turn cases of either kind (what detection counts as a case file). */
export function hasTurnCaseFile(folder: string): boolean {
  return isFile(join(folder, TURN_CASES_FILE)) || isFile(join(folder, GOLDEN_CASES_FILE));
}

/**
 * The turn cases of `folder`, when it has a turn-cases.json or a golden-cases.json (both: one line,
 * exit 2, since two sets of the same cases would be run twice); null when it has neither. The files
 * read go to `files`, fields not mapped to `unmapped`.
 */
export function readTurnCaseFiles(
  folder: string,
  corpus: CorpusView,
  into: { files: string[]; unmapped: UnmappedField[]; warnings: string[] },
): DatasetTurns | null {
  const own = join(folder, TURN_CASES_FILE);
  const golden = join(folder, GOLDEN_CASES_FILE);
  if (isFile(own) && isFile(golden))
    fail(golden, [
      {
        pointer: "",
        problem: `${displayPath(own)} holds the dataset's turn cases already: keep one of the two files (eval:import-style curation writes ${TURN_CASES_FILE})`,
      },
    ]);
  if (isFile(own)) {
    into.files.push(own);
    return readOwnTurnCases(own, corpus);
  }
  if (isFile(golden)) {
    into.files.push(golden);
    return readGoldenCases(golden, corpus, into);
  }
  return null;
}

/** How the lint checks a cited document against the dataset's corpus, in the dataset lint's words. */
function corpusRules(corpus: CorpusView) {
  return {
    missingDocs: (ids: readonly string[], pointer: string): FixtureIssue[] => {
      const missing = [...new Set(ids.filter((id) => !corpus.ids.has(id)))];
      if (missing.length === 0) return [];
      return [
        {
          pointer,
          problem: named(
            "unknown-document",
            `cites ${missing.map((m) => show(m)).join(", ")}, which ${missing.length === 1 ? "is" : "are"} not a document of ${corpus.where}`,
          ),
        },
      ];
    },
    needsApproval: null,
  };
}

/** The lint's problems of every case, each named by its record, and ids used twice. */
function lintCases(
  cases: readonly StoredCase[],
  surfaces: Readonly<Record<string, readonly string[] | null>>,
  corpus: CorpusView,
  pointerOf: (index: number, pointer: string) => string,
): FixtureIssue[] {
  const rules = corpusRules(corpus);
  const issues: FixtureIssue[] = [];
  const first = new Map<string, number>();
  cases.forEach((c, i) => {
    const record = `case ${c.id}`;
    const earlier = first.get(c.id);
    if (earlier === undefined) first.set(c.id, i);
    else
      issues.push({
        record,
        pointer: pointerOf(i, "/id"),
        problem: named("duplicate-id", `case id ${show(c.id)} is already used by the case at ${pointerOf(earlier, "")}`),
      });
    for (const issue of turnCaseIssues(c, "", surfaces, rules)) issues.push({ ...issue, record, pointer: pointerOf(i, issue.pointer) });
  });
  return issues;
}

interface OwnFile {
  version: 1;
  surfaces: Record<string, string[]>;
  cases: StoredCase[];
}

function readOwnTurnCases(path: string, corpus: CorpusView): DatasetTurns {
  const value = readJsonFile(path, { top: "object" }) as Partial<OwnFile>;
  checkSchema(path, "dataset-turn-cases.schema.json", value, recordNamer(value.cases ?? [], "case", "/cases"));
  const file = value as OwnFile;
  const issues = lintCases(file.cases, file.surfaces, corpus, (i, p) => `/cases/${i}${p}`);
  if (issues.length > 0) fail(path, issues);
  return {
    file: path,
    format: "turn-cases",
    surfaces: file.surfaces,
    cases: file.cases.map((c): TurnCase => ({ ...c, tools: [...file.surfaces[c.surface]!] })),
  };
}

/** A v10r-style expectation: the ten kinds, a cited document named by its path. */
type GoldenExpectation =
  | { kind: "cites"; path: string }
  | { kind: "outcome"; outcome: Extract<Expectation, { kind: "outcome" }>["is"] }
  | Exclude<Expectation, { kind: "cites" } | { kind: "outcome" } | { kind: "max-steps" } | { kind: "stops-within-budget" }>;

interface GoldenCase {
  id: string;
  surface: string;
  question: string;
  guards: string;
  expect: GoldenExpectation[];
  [field: string]: unknown;
}

/** The fields of a golden case that map to a turn case; the rest are reported as not mapped. */
const GOLDEN_CASE_FIELDS = new Set(["id", "surface", "question", "guards", "expect"]);

/** Why a golden set's fields that the suite knows are not mapped. */
const GOLDEN_WHY: Readonly<Record<string, string>> = {
  _comment: "a note for people (the tool logs each floor raise there); the floor itself is the suite's, keyed by dataset",
  description: "describes the file; in the report's hash only",
  version: "the file's version; in the report's hash only",
  floor: "the tool's pass-rate floor: the suite holds its own floors, keyed by dataset (pnpm eval --update-baseline sets them)",
};

/**
 * Resolves a cited path to a document of the corpus: the id itself, else without a leading `/`,
 * else the one document with that path and any extension (`/guides/export` is `guides/export.md`),
 * as the tool's paths name its documents. A path that names none is left as it is, for the lint to
 * name `[unknown-document]`.
 */
function pathResolver(corpus: CorpusView, path: string): (name: string, at: string) => string {
  const byStem = new Map<string, string[]>();
  for (const id of corpus.ids) {
    const stem = id.replace(/\.[^./]+$/, "");
    byStem.set(stem, [...(byStem.get(stem) ?? []), id]);
  }
  return (name, at) => {
    if (corpus.ids.has(name)) return name;
    const bare = name.replace(/^\.?\/+/, "");
    if (corpus.ids.has(bare)) return bare;
    const matches = byStem.get(bare.replace(/\.[^./]+$/, "")) ?? [];
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1)
      fail(path, [{ pointer: at, problem: `${show(name)} names ${matches.length} documents (${matches.join(", ")}); give the extension` }]);
    return name;
  };
}

function readGoldenCases(
  path: string,
  corpus: CorpusView,
  { unmapped, warnings }: { unmapped: UnmappedField[]; warnings: string[] },
): DatasetTurns {
  const value = readJsonFile(path, { top: "object" }) as { cases?: unknown[]; [field: string]: unknown };
  checkSchema(path, "golden-cases.schema.json", value, recordNamer(value.cases ?? [], "case", "/cases"));
  const golden = value.cases as GoldenCase[];
  unmapped.push(
    ...unmappedFields(path, [value], new Set(["$schema", "cases"]), GOLDEN_WHY),
    ...unmappedFields(path, golden, GOLDEN_CASE_FIELDS, {}, "cases/*/"),
  );
  const resolve = pathResolver(corpus, path);
  const surfaces: Record<string, null> = {};
  const cases = golden.map((g, i): TurnCase => {
    surfaces[g.surface] = null;
    const expect = g.expect.map((e, j): Expectation => {
      if (e.kind === "cites") return { kind: "cites", doc: resolve(e.path, `/cases/${i}/expect/${j}/path`) };
      if (e.kind === "outcome") return { kind: "outcome", is: e.outcome };
      return e;
    });
    return { id: g.id, question: g.question, surface: g.surface, guards: g.guards, expect };
  });
  // The tool's field names in messages: a cited document is its `path`, an outcome its `outcome`.
  const issues = lintCases(cases, surfaces, corpus, (i, p) =>
    `/cases/${i}${p}`.replace(/(\/expect\/\d+)\/doc$/, "$1/path").replace(/(\/expect\/\d+)\/is$/, "$1/outcome"),
  );
  if (issues.length > 0) fail(path, issues);
  warnings.push(
    `${displayPath(path)}: names surfaces (${Object.keys(surfaces).join(", ")}) without their tools, which its tool keeps in code: each turn is asked without a tool list (the target's own surface), and the tools a case names are not checked against its surface`,
  );
  return { file: path, format: "golden-cases", surfaces, cases };
}
