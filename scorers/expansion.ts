/**
 * Scorers for a query expander's output (`{ lexicalQueries, vectorQueries, hyde?, language? }`).
 * Each returns 0 or 1 (or a share) with the facts it checked in metadata. When the expander failed
 * and the query ran unexpanded, the score is 0 with `status: "failed"`, never a pass.
 */
import type { ExpansionResult } from "@hybrid-search/engine";
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { lettersAndDigits } from "./ask-case.js";

/** What the expansion scorers read: the engine's expansion result for a query. */
export interface ExpansionOutput extends ExpansionResult {
  query: string;
}

type ExpansionScorer<TInput> = Evalite.Scorer<TInput, ExpansionOutput, unknown>;

const same = (a: string, b: string): boolean => lettersAndDigits(a) === lettersAndDigits(b);

/**
 * What an expansion must keep: identifiers (words mixing letters and digits, or joined by
 * `-_./@`) and quoted phrases, exactly as the user wrote them.
 */
export function queryAnchors(query: string): string[] {
  const quoted = [...query.matchAll(/"([^"]+)"|“([^”]+)”|„([^“”]+)[“”]|«([^»]+)»/gu)]
    .map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4]!).trim())
    .filter(Boolean);
  const outside = query.replace(/"[^"]+"|“[^”]+”|„[^“”]+[“”]|«[^»]+»/gu, " ");
  const identifiers = [
    ...outside.matchAll(/[\p{L}\p{N}]+(?:[-_./@][\p{L}\p{N}]+)+|[\p{L}]+\p{N}[\p{L}\p{N}]*|\p{N}+\p{L}[\p{L}\p{N}]*/gu),
  ].map((m) => m[0]);
  return [...new Set([...quoted, ...identifiers])];
}

type Score = { score: number; metadata: Record<string, unknown> };

/**
 * The expander produced no expansion at all (its call failed or threw; `fallback` without
 * `errors`) and the query ran unexpanded. Then no expansion score measures anything: each is 0
 * with `status: "failed"` (not scored, docs/gate.md) — never the 1 that the unexpanded query
 * would earn by passing the schema and keeping every identifier.
 */
function expanderFailed(output: ExpansionOutput): Score | null {
  if (!output.fallback || output.fallback.errors !== undefined) return null;
  return {
    score: 0,
    metadata: {
      status: "failed",
      expander: output.expander,
      fallback: output.fallback.reason,
      rule: "the expander failed: scored 0, never a pass",
    },
  };
}

export function schemaValidScore(
  output: ExpansionOutput,
  validate: (value: unknown) => Array<{ instancePath: string; message?: string }>,
): Score {
  const failed = expanderFailed(output);
  if (failed) return failed;
  const rejected = output.fallback?.errors;
  if (rejected !== undefined) {
    return {
      score: 0,
      metadata: {
        expander: output.expander,
        valid: false,
        errors: rejected,
        note: "the model's output failed the schema; the query ran unexpanded",
      },
    };
  }
  const errors = validate(output.expansion);
  return {
    score: errors.length === 0 ? 1 : 0,
    metadata: {
      expander: output.expander,
      valid: errors.length === 0,
      errors: errors.map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim()),
    },
  };
}

/**
 * Output matches the expansion JSON Schema (AJV). A model output rejected by the engine's own
 * validation scores 0 with AJV's errors, even though the query then ran unexpanded.
 */
export function expansionSchemaValid<TInput>(
  validate: (value: unknown) => Array<{ instancePath: string; message?: string }>,
): ExpansionScorer<TInput> {
  return createScorer<TInput, ExpansionOutput, unknown>({
    name: "Schema valid",
    description: "expansion output validates against fixtures/schemas/expansion.schema.json",
    scorer: ({ output }) => schemaValidScore(output, validate),
  });
}

export function variantScore(output: ExpansionOutput, kind: "lexical" | "vector"): Score {
  const failed = expanderFailed(output);
  if (failed) return failed;
  const list =
    kind === "lexical"
      ? output.expansion.lexicalQueries
      : [...output.expansion.vectorQueries, ...(output.expansion.hyde ? [output.expansion.hyde] : [])];
  const variants = list.filter((q) => !same(q, output.query));
  return {
    score: variants.length > 0 ? 1 : 0,
    metadata: { expander: output.expander, variants, ...(output.fallback ? { fallback: output.fallback.reason } : {}) },
  };
}

/**
 * At least one lexical query that differs from the query (beyond case and punctuation).
 *
 * **When to use:** to see how often the expander gives BM25 anything new to search for.
 * **When NOT to use:** as a quality measure: a variant can be useless; retrieval evals judge that.
 */
export function hasLexicalVariants<TInput>(): ExpansionScorer<TInput> {
  return createScorer<TInput, ExpansionOutput, unknown>({
    name: "Has lexical variants",
    description: "≥ 1 lexical query that differs from the query",
    scorer: ({ output }) => variantScore(output, "lexical"),
  });
}

/** At least one vector query (or HyDE passage) that differs from the query. */
export function hasVectorVariants<TInput>(): ExpansionScorer<TInput> {
  return createScorer<TInput, ExpansionOutput, unknown>({
    name: "Has vector variants",
    description: "≥ 1 vector query or HyDE passage that differs from the query",
    scorer: ({ output }) => variantScore(output, "vector"),
  });
}

export function anchorsKeptScore(output: ExpansionOutput): Score {
  const anchors = queryAnchors(output.query);
  const queries = [...output.expansion.lexicalQueries, ...output.expansion.vectorQueries];
  if (anchors.length === 0)
    throw new Error(`query ${JSON.stringify(output.query)} has no identifier or quoted phrase to keep; leave it out of this eval`);
  // Rejected output ran unexpanded: nothing was expanded, so nothing was kept or lost.
  if (output.fallback)
    return (
      expanderFailed(output) ?? {
        score: 0,
        metadata: {
          status: "failed",
          expander: output.expander,
          fallback: output.fallback.reason,
          rule: "the expansion was rejected; the unexpanded query says nothing about keeping identifiers",
        },
      }
    );
  const lost: string[] = [];
  for (const q of queries)
    for (const a of anchors)
      if (!lettersAndDigits(q).includes(lettersAndDigits(a))) lost.push(`${JSON.stringify(a)} missing from ${JSON.stringify(q)}`);
  const checks = anchors.length * queries.length;
  return { score: (checks - lost.length) / checks, metadata: { anchors, checked: queries.length, lost } };
}

/**
 * Every lexical and vector query keeps each identifier and quoted phrase of the query (compared
 * on letters and digits, so `DEC0054` keeps `DEC-0054`). Score = kept / (anchors × queries).
 * Only for queries that have an anchor: use `queryAnchors` to select them.
 */
export function keepsAnchors<TInput>(): ExpansionScorer<TInput> {
  return createScorer<TInput, ExpansionOutput, unknown>({
    name: "Keeps identifiers and quotes",
    description: "every expanded query keeps the query's identifiers and quoted phrases",
    scorer: ({ output }) => anchorsKeptScore(output),
  });
}
