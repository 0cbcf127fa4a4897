/**
 * Parses trec_eval measure arguments: `-m name[.params]`. Everything after the first '.' is the
 * parameter text, read according to the measure's kind:
 *   cutoffs  `P.5,10`, `ndcg_cut.10,20,23.4`: integers (a fraction is truncated, 23.4 → 23, as
 *            trec_eval's atol does), sorted ascending, each from 1 to 2^53 − 1; duplicates
 *            (after truncation) are rejected.
 *   levels   `iprec_at_recall..10,.20`, `Rprec_mult.0.2,2`: numbers, sorted, duplicates rejected.
 *   numbers  `utility.2,-1,0,0`, `11pt_avg..25,.5`, `relstring.20`: numbers kept in order.
 *   gains    `ndcg.1=3,2=9,4=4.5`, `rbp.p=0.95`: name=number pairs kept in order.
 * Each value must also lie in its measure's range (a `ParamSpec`, declared in the registry):
 * trec_eval accepts any number and prints nonsense for some (rbp.p=2 gives -3.25), we refuse.
 * Every problem is a `MeasureSpecError` with a one-line message naming the measure, the value
 * and, for a value out of range, the range.
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

/** An interval of allowed values; the ends are included unless said otherwise. Always finite. */
export interface ValueRange {
  readonly min: number;
  readonly max: number;
  /** min itself is not allowed. */
  readonly aboveMin?: boolean;
  /** max itself is not allowed. */
  readonly belowMax?: boolean;
}

/** What one numeric parameter of a measure stands for and may be. */
export interface ParamSpec {
  /** The parameter in messages and docs: "cut-off", "recall level", "persistence p", … */
  readonly what: string;
  readonly range: ValueRange;
  /** The measure takes exactly this many values (relstring and set_F 1, utility 4). */
  readonly count?: number;
}

/** Cut-offs are ranks: from 1 up to the largest integer a double holds exactly (P_k prints k). */
export const CUTOFF: ParamSpec = { what: "cut-off", range: { min: 1, max: Number.MAX_SAFE_INTEGER } };

export function inRange(value: number, range: ValueRange): boolean {
  if (!Number.isFinite(value)) return false;
  if (range.aboveMin ? value <= range.min : value < range.min) return false;
  return range.belowMax ? value < range.max : value <= range.max;
}

/** The range in words: "from 0 to 1", "at least 0 and below 1", "any finite number". */
export function describeRange(range: ValueRange): string {
  const { min, max, aboveMin, belowMax } = range;
  if (min === -Infinity && max === Infinity) return "any finite number";
  const low = min === -Infinity ? null : `${aboveMin ? "greater than" : "at least"} ${min}`;
  const high = max === Infinity ? null : `${belowMax ? "below" : "at most"} ${max}`;
  if (low && high && !aboveMin && !belowMax) return `from ${min} to ${max}`;
  return [low, high].filter((part) => part !== null).join(" and ");
}

/** Throws unless `value` (read from `text`) lies in the parameter's range. */
export function checkParam(measure: string, spec: ParamSpec, text: string, value: number): void {
  if (!inRange(value, spec.range)) {
    throw new MeasureSpecError(`${measure}: ${spec.what} '${quote(text.trim())}' is out of range; it must be ${describeRange(spec.range)}`);
  }
}

/** Throws unless the measure got as many values as it takes. */
export function checkCount(measure: string, spec: ParamSpec, values: readonly unknown[], text: string): void {
  if (spec.count !== undefined && values.length !== spec.count) {
    throw new MeasureSpecError(
      `${measure} takes exactly ${spec.count} ${spec.what}${spec.count === 1 ? "" : "s"}, got ${values.length}: '${quote(text)}'`,
    );
  }
}

function parseNumber(text: string, what: string): number {
  const t = text.trim();
  if (!DECIMAL.test(t)) throw new MeasureSpecError(`${what}: '${quote(text)}' is not a number`);
  return Number(t);
}

function splitList(text: string): string[] {
  return text.split(",");
}

/** Integer cut-offs (`P.5,10`): truncated toward zero, each in CUTOFF's range, sorted, no duplicates. */
export function parseCutoffs(text: string, measure: string): number[] {
  const values = splitList(text).map((part) => {
    if (!/^\s*[+-]?\d+(\.\d*)?\s*$/.test(part)) throw new MeasureSpecError(`${measure}: cut-off '${quote(part)}' is not a number`);
    const value = Math.trunc(Number(part.trim()));
    checkParam(measure, CUTOFF, part, value);
    return value;
  });
  values.sort((a, b) => a - b);
  for (let i = 1; i < values.length; i++) {
    if (values[i] === values[i - 1]) throw new MeasureSpecError(`${measure}: duplicate cut-off ${values[i]} in '${quote(text)}'`);
  }
  return values;
}

/** Fractional levels (`iprec_at_recall..1,.2`): each in `spec`'s range, sorted, no duplicates. */
export function parseLevels(text: string, measure: string, spec: ParamSpec): number[] {
  const values = splitList(text).map((part) => {
    const value = parseNumber(part, `${spec.what} of ${measure}`);
    checkParam(measure, spec, part, value);
    return value;
  });
  values.sort((a, b) => a - b);
  for (let i = 1; i < values.length; i++) {
    if (values[i] === values[i - 1]) throw new MeasureSpecError(`${measure}: duplicate ${spec.what} ${values[i]} in '${quote(text)}'`);
  }
  return values;
}

/** Plain numeric parameters (`utility.2,-1,0,0`), each in `spec`'s range, kept in the order given. */
export function parseNumbers(text: string, measure: string, spec: ParamSpec): number[] {
  const parts = splitList(text);
  checkCount(measure, spec, parts, text);
  return parts.map((part) => {
    const value = parseNumber(part, `${spec.what} of ${measure}`);
    checkParam(measure, spec, part, value);
    return value;
  });
}

/** Which `name=value` parameters a measure reads. */
export interface PairRules {
  /** The value's spec for a parameter name, or null when the measure has no such parameter. */
  readonly specFor: (name: string) => ParamSpec | null;
  /** The names it accepts, in words, for messages: "grades 0 to 2147483647 or p". */
  readonly names: string;
}

/** `name=value` pairs (`ndcg.1=3,2=9`), kept in the order given; each name and value checked against `rules`. */
export function parsePairs(text: string, measure: string, rules: PairRules): ParamPair[] {
  return splitList(text).map((part) => {
    const eq = part.indexOf("=");
    if (eq <= 0 || eq !== part.lastIndexOf("=")) {
      throw new MeasureSpecError(
        `${measure}: malformed parameter '${quote(part)}' in '${quote(text)}', expected name=value (e.g. ${measure}.1=3,2=9)`,
      );
    }
    const name = part.slice(0, eq);
    const spec = rules.specFor(name);
    if (spec === null) {
      throw new MeasureSpecError(`${measure}: no parameter '${quote(name)}' (in '${quote(part)}'); its parameters are ${rules.names}`);
    }
    const value = parseNumber(part.slice(eq + 1), `value of ${quote(part)} in ${measure}`);
    checkParam(measure, spec, part, value);
    return { name, value };
  });
}
