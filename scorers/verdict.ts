/**
 * One verdict per question: an answer passes only when **every expectation its case declares
 * holds** — refuses exactly when the case expects it, carries no citation iff it refuses, cites
 * only retrieved sources, states every expected substring, none of the forbidden ones, cites every
 * required document (or a translation), and covers every expected topic. A grader's share is not
 * a pass: citing 1 of 2 required documents, or stating half the facts, fails the question. Each
 * failed expectation is named as a fact, one a line: `missing "30 giorni"`,
 * `did not cite it/file/cestino-e-file-eliminati.md (not retrieved: lost at fusion)`,
 * `does not cover the topic "ripristino dal cestino"`. A required document that retrieval never
 * surfaced fails the question with diagnosis `retrieval` (diagnosis.ts, the same rule as the
 * Diagnosis column); the verdict also carries the golden-set warning.
 *
 * The score is 1 (pass) or 0 (fail); its metadata's `verdict` (`{ pass, failed, diagnosis,
 * warnings }`) is what the gate reads as the question's verdict (packages/eval-gate: a case with a
 * verdict score is judged by it, not by per-metric pass marks). A failed answer (the model failed)
 * scores 0 with `status: "failed"`: not a verdict on quality, and not a pass.
 *
 * Topics are graded like the "Topic coverage" scorer (completeness.ts: the judge when configured,
 * else the lexical heuristic); a topic is held when covered. Whether the answer refused is the
 * eval's recognition (`refusalCheck`, refusal.ts).
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createScorer } from "evalite";
import type { ObservedAnswer } from "./observed.js";
import type { AskCase } from "./ask-case.js";
import { type AskScorer, type CitesOptions, type Grade, GRADERS, type GraderId, translationsUnder } from "./answer/index.js";
import { completenessScore } from "./completeness.js";
import { type Diagnosis, diagnose, evidenceLine, goldenSetWarning } from "./diagnosis.js";
import { isRefused, type RecognizedAnswer, type RefusalRecognition } from "./refusal-check.js";
import type { RelevantDocPath } from "./stage-loss.js";

export interface ExpectationCheck {
  expectation: GraderId;
  held: boolean;
  /** What failed, one fact each (empty when held). */
  failures: string[];
  method: "heuristic" | "llm-judge";
}

export interface QuestionVerdict {
  caseId: string;
  pass: boolean;
  /** Every failed expectation, one fact a line; or why there is no verdict on quality (the answerer failed). */
  failed: string[];
  expectations: ExpectationCheck[];
  diagnosis: { verdict: Diagnosis["verdict"]; reasons: string[] };
  /** Golden-set warnings (the expected answer shares almost no vocabulary with what was retrieved). */
  warnings: string[];
  refusal: RefusalRecognition | null;
}

export interface VerdictOptions extends CitesOptions {
  /** Grades the topics (and nothing else); undefined uses the lexical heuristic. */
  judge?: LanguageModelV3;
  headers?: Record<string, string> | ((c: AskCase) => Record<string, string> | undefined);
  timeoutMs?: number;
}

/** The expectations in the order a verdict lists them: whether to answer at all first, then what the answer holds. */
const ORDER: readonly GraderId[] = [
  "refusal",
  "no-citations",
  "cites-only-surfaced",
  "answer-includes",
  "answer-excludes",
  "cites",
  "topic-coverage",
];

export async function questionVerdict(c: AskCase, result: RecognizedAnswer, options: VerdictOptions = {}): Promise<QuestionVerdict> {
  const warning = goldenSetWarning(c, result);
  const base = { caseId: c.id, warnings: warning ? [warning.message] : [], refusal: result.refusalCheck ?? null };
  const diagnosis = diagnose(c, result, options);
  if (result.error !== undefined) {
    const failed = [`the answerer failed: ${result.error}`];
    return { ...base, pass: false, failed, expectations: [], diagnosis: { verdict: "error", reasons: failed } };
  }
  const expectations: ExpectationCheck[] = [];
  for (const id of ORDER.filter((g) => GRADERS[g].appliesTo(c))) {
    const grade = id === "topic-coverage" ? await completenessScore(c, result, options) : GRADERS[id].score(c, result, options);
    const failures = grade.score >= 1 ? [] : failuresOf(id, grade, c, result, diagnosis.paths, options);
    expectations.push({ expectation: id, held: failures.length === 0, failures, method: grade.metadata.method });
  }
  const failed = expectations.flatMap((e) => e.failures);
  const pass = failed.length === 0;
  // Topic coverage is not among the diagnosis's checks: a question failing only on topics is generation's.
  const verdict = pass ? "pass" : diagnosis.verdict === "pass" ? "generation" : diagnosis.verdict;
  return {
    ...base,
    pass,
    failed,
    expectations,
    diagnosis: { verdict, reasons: diagnosis.verdict === "pass" ? failed : diagnosis.reasons },
  };
}

/** Share of the case's declared expectations that held (0 when the answerer failed): what the preset order compares. */
export function expectationsMet(v: QuestionVerdict): number {
  return v.expectations.length === 0 ? 0 : v.expectations.filter((e) => e.held).length / v.expectations.length;
}

/** The failed facts of one expectation, in words. */
function failuresOf(
  id: GraderId,
  grade: Grade,
  c: AskCase,
  result: RecognizedAnswer,
  paths: readonly RelevantDocPath[],
  options: CitesOptions,
): string[] {
  const m = grade.metadata;
  const list = (key: string): string[] => (Array.isArray(m[key]) ? (m[key] as unknown[]).map(String) : []);
  switch (id) {
    case "refusal":
      return [
        c.expectedRefusal === true
          ? "answered, but the case expects a refusal (the corpus does not hold the answer)"
          : `refused (${refusalWhy(result)}), but the case expects an answer`,
      ];
    case "no-citations": {
      const refs = [...result.citations.map((x) => x.ref), ...result.invalidCitations];
      return [isRefused(result) ? `refuses but cites [${refs.join(", ")}]` : "answers without citing a retrieved source"];
    }
    case "cites-only-surfaced":
      return list("unsurfaced").map((u) => `cites ${u}`);
    case "answer-includes":
      return list("missing").map((s) => `missing ${JSON.stringify(s)}`);
    case "answer-excludes":
      return list("found").map((s) => `contains forbidden ${JSON.stringify(s)}`);
    case "cites":
      return list("missing").map((doc) => `did not cite ${doc} (${whereItWent(doc, result, paths, options)})`);
    case "topic-coverage": {
      const topics = (m.topics as Array<{ topic: string; covered: boolean }> | undefined) ?? [];
      return topics.filter((t) => !t.covered).map((t) => `does not cover the topic ${JSON.stringify(t.topic)}`);
    }
  }
}

function refusalWhy(result: RecognizedAnswer): string {
  if (result.refusal === "insufficient-evidence") return `evidence gate: ${evidenceLine(result)}`;
  const how = result.refusalCheck?.method;
  return how === "markers" || how === "llm-judge"
    ? `recognised by ${how === "markers" ? "a refusal phrase" : "the judge"}`
    : (result.refusal ?? "model");
}

/** Why a required document was not cited: never retrieved (and where retrieval lost it), or retrieved and not cited. */
function whereItWent(doc: string, result: ObservedAnswer, paths: readonly RelevantDocPath[], options: CitesOptions): string {
  const candidates = [doc, ...(translationsUnder(options).get(doc) ?? [])];
  const retrieved = result.sources.find((s) => candidates.includes(s.docId));
  if (retrieved)
    return retrieved.docId === doc
      ? `retrieved as [${retrieved.ref}]`
      : `its translation ${retrieved.docId} was retrieved as [${retrieved.ref}]`;
  const lostAt = paths.find((p) => p.docId === doc)?.lostAt ?? "not retrieved";
  if (lostAt === "not retrieved") return "not retrieved: in no retrieval list";
  if (lostAt === "cut-off") return "not retrieved: ranked below the sources";
  return `not retrieved: lost at ${lostAt}`;
}

/**
 * "Question verdict": 1 when every expectation of the case holds, else 0, with the verdict in
 * metadata for the gate. Every case (each declares at least whether it expects a refusal).
 */
export const questionVerdictScorer = (options: VerdictOptions = {}): AskScorer =>
  createScorer<AskCase, ObservedAnswer, unknown>({
    name: "Question verdict",
    description:
      "1 when every expectation the case declares holds (refusal, citations, facts, forbidden content, required documents, topics), else 0",
    scorer: async ({ input, output }) => {
      const v = await questionVerdict(input, output, options);
      const judged = v.expectations.some((e) => e.method === "llm-judge");
      return {
        score: v.pass ? 1 : 0,
        metadata: {
          grader: "question-verdict",
          method: judged ? "llm-judge" : "heuristic",
          status: output.error === undefined ? "scored" : "failed",
          caseId: input.id,
          definition: "every expectation the case declares holds",
          verdict: { pass: v.pass, failed: v.failed, diagnosis: v.diagnosis, warnings: v.warnings },
          expectations: v.expectations,
          refusal: v.refusal,
        },
      };
    },
  });
