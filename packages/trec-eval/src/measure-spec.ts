/**
 * Parses trec_eval measure arguments: `-m name[.params]`. Everything after the first '.' is the
 * parameter text, read according to the measure's kind:
 *   cutoffs  `P.5,10`, `ndcg_cut.10,20,23.4`: integers (a fraction is truncated, 23.4 → 23, as
 *            trec_eval's atol does), sorted ascending; ≤ 0 and duplicates (after truncation) are
 *            rejected.
 *   levels   `iprec_at_recall..10,.20`, `Rprec_mult.0.2,2`: numbers, sorted, duplicates rejected.
 *   numbers  `utility.2,-1,0,0`, `11pt_avg..25,.5`, `relstring.20`: numbers kept in order.
 *   gains    `ndcg.1=3,2=9,4=4.5`, `rbp.p=0.95`: name=number pairs kept in order.
 * Every problem is a `MeasureSpecError` with a one-line message.
 */
import { quote } from "./formats/format-error.js";
import type { ParamPair } from "./gain-table.js";

export class MeasureSpecError extends Error {
  override readonly name = "MeasureSpecError";
}

export interface MeasureRequest {
  /** Measure or preset name, e.g. "P". */
  readonly name: string;
  /** Parameter text after the first '.', e.g. "5,10"; undefined when absent. */
  readonly params?: string;
}

export function parseMeasureArg(arg: string): MeasureRequest {
  const dot = arg.indexOf(".");
  if (dot < 0) {
    if (arg === "") throw new MeasureSpecError("empty measure name after -m");
    return { name: arg };
  }
  const name = arg.slice(0, dot);
  const params = arg.slice(dot + 1);
  if (name === "") throw new MeasureSpecError(`measure '${quote(arg)}' has no name before '.'`);
  if (params === "") throw new MeasureSpecError(`measure '${quote(arg)}' has an empty parameter list after '.'`);
  return { name, params };
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function parseNumber(text: string, what: string): number {
  const t = text.trim();
  if (!DECIMAL.test(t)) throw new MeasureSpecError(`${what}: '${quote(text)}' is not a number`);
  return Number(t);
}

function splitList(text: string): string[] {
  return text.split(",");
}

/** Integer cut-offs (`P.5,10`): truncated toward zero, sorted, each ≥ 1, no duplicates. */
export function parseCutoffs(text: string, measure: string): number[] {
  const values = splitList(text).map((part) => {
    if (!/^\s*[+-]?\d+(\.\d*)?\s*$/.test(part)) throw new MeasureSpecError(`${measure}: cut-off '${quote(part)}' is not a number`);
    return Math.trunc(Number(part.trim()));
  });
  values.sort((a, b) => a - b);
  if (values[0]! <= 0) throw new MeasureSpecError(`${measure}: cut-offs must be >= 1, got '${quote(text)}'`);
  for (let i = 1; i < values.length; i++) {
    if (values[i] === values[i - 1]) throw new MeasureSpecError(`${measure}: duplicate cut-off ${values[i]} in '${quote(text)}'`);
  }
  return values;
}

/** Fractional levels (`iprec_at_recall..1,.2`): sorted, no duplicates. */
export function parseLevels(text: string, measure: string): number[] {
  const values = splitList(text).map((part) => parseNumber(part, `level of ${measure}`));
  values.sort((a, b) => a - b);
  for (let i = 1; i < values.length; i++) {
    if (values[i] === values[i - 1]) throw new MeasureSpecError(`${measure}: duplicate level ${values[i]} in '${quote(text)}'`);
  }
  return values;
}

/** Plain numeric parameters (`utility.2,-1,0,0`), kept in the order given. */
export function parseNumbers(text: string, measure: string): number[] {
  return splitList(text).map((part) => parseNumber(part, `parameter of ${measure}`));
}

/** `name=value` pairs (`ndcg.1=3,2=9`), kept in the order given. */
export function parsePairs(text: string, measure: string): ParamPair[] {
  return splitList(text).map((part) => {
    const eq = part.indexOf("=");
    if (eq <= 0 || eq !== part.lastIndexOf("=")) {
      throw new MeasureSpecError(
        `${measure}: malformed parameter '${quote(part)}' in '${quote(text)}', expected name=value (e.g. ${measure}.1=3,2=9)`,
      );
    }
    return { name: part.slice(0, eq), value: parseNumber(part.slice(eq + 1), `value of ${quote(part)} in ${measure}`) };
  });
}
