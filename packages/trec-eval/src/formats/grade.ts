/**
 * A relevance grade as every reader of judgments reads it: TREC qrels, BEIR qrels, and the suite's
 * dataset readers through this module. A grade is an integer whose absolute value is at most
 * MAX_GRADE (2^31 − 1: C's int, which any trec_eval build reads, and the largest -l); a negative
 * grade means "in the pool but not judged" (trec_eval's convention). Past that bound the gain
 * arithmetic stops being exact (a grade of 2^31 gave nDCG@10 = 0 for a perfect ranking), so a
 * larger grade is an error, never read as some other number.
 *
 * In a text file a grade is written in decimal digits with an optional sign ("+2", "-1", "007");
 * anything else ("1.5", "1e3", "0x1", "inf") is not an integer. In JSON it is a number that is an
 * integer (a JSON text "9007199254740993" is already 2^53 when parsed: over the bound either way).
 */
import { MAX_GRADE } from "../types.js";
import { quote } from "./format-error.js";

export { MAX_GRADE };

const INTEGER = /^[+-]?\d+$/;

/** Why a grade is refused, worded the same by every reader: `field` names the column, `shown` is the text quoted. */
function problemOf(kind: "integer" | "range", field: string, shown: string): string {
  return kind === "integer"
    ? `${field} '${shown}' is not an integer (a judged grade like 0, 1, 2; negative = unjudged)`
    : `${field} '${shown}' is out of range: a grade is an integer from -${MAX_GRADE} to ${MAX_GRADE} (C's int, as trec_eval reads it)`;
}

/**
 * The grade a field of a text file holds, or the problem (one line) when it holds none. `shown` is
 * the field as the message quotes it (default: the text, at most MAX_QUOTED characters); `field`
 * is the column's name in the file's format ("grade" in TREC qrels, "score" in BEIR's TSV).
 */
export function parseGrade(text: string, shown: string = quote(text), field = "grade"): { grade: number } | { problem: string } {
  if (!INTEGER.test(text)) return { problem: problemOf("integer", field, shown) };
  const grade = Number(text);
  if (Math.abs(grade) > MAX_GRADE) return { problem: problemOf("range", field, shown) };
  // Number("-0") is -0: a grade of zero is 0 whichever way it was written.
  return { grade: grade === 0 ? 0 : grade };
}

/**
 * The problem with a grade read from JSON (a fixture's judgment, an imported golden set), or null
 * when `value` is one: a number that is an integer within ±MAX_GRADE. `field` names it in the message.
 */
export function gradeValueProblem(value: unknown, field = "grade"): string | null {
  const shown = typeof value === "string" ? quote(value) : quote(JSON.stringify(value) ?? String(value));
  if (typeof value !== "number" || !Number.isInteger(value)) return problemOf("integer", field, shown);
  if (Math.abs(value) > MAX_GRADE) return problemOf("range", field, shown);
  return null;
}
