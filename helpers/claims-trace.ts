/**
 * A judged score's statements and their verdicts, in the case's trace and its "Claims" column.
 *
 * Evalite runs every scorer with a trace store of its own and discards what it reports (evalite
 * 1.0.0-beta.16, `runTask`: "isolate scorer traces"), so the judge's calls never reach the case's
 * trace. The columns are computed after the scorers, in the case's own trace context: the answer
 * evals call `claimsColumn` from their columns, and it reports one trace entry per judged score —
 * its method, model and prompts, and a table of every statement with its verdict and reason (the
 * judge), or every claim with its support and the terms the sources lack (the heuristic) — read
 * from the score's metadata, so the trace shows exactly what the score was computed from.
 */
import type { Evalite } from "evalite";
import { reportTrace } from "evalite/traces";
import { claimsColumn as claimsText } from "../scorers/triad/index.js";
import { inputView, outputView } from "./trace-view.js";

/** The "Claims" column of the score named `name` (scorers/triad/claims-column.ts), its claims reported to the case's trace. */
export function claimsColumn(scores: readonly Evalite.Score[], name: string): { label: string; value: string } {
  const score = scores.find((s) => s.name === name);
  const metadata = (score?.metadata ?? undefined) as Record<string, unknown> | undefined;
  const perClaim = metadata?.perClaim;
  if (score && metadata && Array.isArray(perClaim) && perClaim.length > 0) {
    const now = performance.now();
    const missing = Array.isArray(metadata.missing) ? (metadata.missing as unknown[]) : [];
    reportTrace({
      input: inputView(`${name}: claims`, {
        method: metadata.method,
        ...(metadata.judgeModel ? { model: metadata.judgeModel, prompts: metadata.judgePrompt } : {}),
        score: score.score,
        claims: perClaim.length,
      }),
      output: outputView([...perClaim, ...missing.map((statement) => ({ statement, class: "missing from the answer" }))]),
      start: now,
      end: now,
    });
  }
  return { label: "Claims", value: claimsText(metadata) };
}
