/**
 * The "Claims" column of the answer evals: a judged score's statements and what became of each,
 * from its metadata, one line each, so the UI's table shows why faithfulness or correctness is what
 * it is without opening the score:
 *
 * - faithfulness, llm-judge: `supported [1]: <statement> — <the judge's reason>` (contradicted,
 *   not-found likewise);
 * - faithfulness, heuristic: `0.57 <claim> (not in the sources: 12)`, the claim's weighted support;
 * - answer correctness, llm-judge: `in-reference: <statement>` per statement, then
 *   `missing: <statement>` per statement of the reference the answer lacks;
 * - answer correctness, heuristic: its precision and recall, and the terms each lacks.
 * A score without claims says why (`vacuous`, not scored).
 */

interface JudgedClaim {
  statement?: string;
  claim?: string;
  verdict?: string;
  class?: string;
  refs?: number[];
  reason?: string;
  support?: number;
  missingKeys?: string[];
  missing?: string[];
}

/** The column's text for one score's metadata (module comment); "" when there is no score. */
export function claimsColumn(metadata: unknown): string {
  if (metadata === undefined || metadata === null || typeof metadata !== "object") return "";
  const m = metadata as Record<string, unknown>;
  if (m.status !== undefined && m.status !== "scored") return `not scored (${String(m.status)})`;
  if (m.vacuous === true) return "no claims (vacuous: 1)";
  const lines: string[] = [];
  for (const x of (m.perClaim as JudgedClaim[] | undefined) ?? []) {
    const text = x.statement ?? x.claim ?? "";
    if (x.verdict !== undefined) {
      const refs = x.refs && x.refs.length > 0 ? ` [${x.refs.join(", ")}]` : "";
      lines.push(`${x.verdict}${refs}: ${text}${x.reason ? ` — ${x.reason}` : ""}`);
    } else if (x.class !== undefined) lines.push(`${x.class}: ${text}`);
    else if (x.support !== undefined) {
      const missing = x.missing && x.missing.length > 0 ? ` (not in the sources: ${x.missing.join(", ")})` : "";
      lines.push(`${x.support.toFixed(2)} ${text}${missing}`);
    }
  }
  for (const missing of (m.missing as string[] | undefined) ?? []) if (typeof missing === "string") lines.push(`missing: ${missing}`);
  if (lines.length === 0 && typeof m.precision === "number" && typeof m.recall === "number") {
    const notIn = (m.notInReference as string[] | undefined) ?? [];
    const lacks = (m.missingFromAnswer as string[] | undefined) ?? [];
    lines.push(`precision ${m.precision.toFixed(2)}${notIn.length > 0 ? ` (not in the reference: ${notIn.join(", ")})` : ""}`);
    lines.push(`recall ${m.recall.toFixed(2)}${lacks.length > 0 ? ` (not in the answer: ${lacks.join(", ")})` : ""}`);
  }
  return lines.join("\n");
}
