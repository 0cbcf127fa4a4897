/**
 * The one place that times a stage and writes its trace entry. A stage is a function of a context
 * that reports what it was given, what it produced and, when a reader should know something, a
 * note; `stage(name, fn)` wraps it so that every call appends `{ stage, input, output, start, end,
 * note? }` to the context's trace and returns the stage's value. A stage that throws leaves no
 * entry. Stage code never reads the clock or touches the trace itself.
 */
import type { TraceItem, TraceStage } from "../types.js";

/** Epoch milliseconds, fractional: the clock of every trace entry and of `elapsedMs`. */
export const now = (): number => performance.timeOrigin + performance.now();

/** What a stage reports: its value for the next stage, and what its trace entry shows. */
export interface StageReport<T> {
  value: T;
  /** What the stage was given (query text, MATCH expression, list sizes, parameters). */
  input: Record<string, unknown>;
  /** A compact ranked list, or for stages that do not rank, what they produced. */
  output: TraceItem[] | Record<string, unknown>;
  /** A fallback, a truncation, a skipped list: anything a reader should know. */
  note?: string | undefined;
}

/** The stage entries of one call, in the order the stages ran. */
export class TraceRecorder {
  constructor(readonly stages: TraceStage[] = []) {}

  record(name: TraceStage["stage"], start: number, report: StageReport<unknown>): void {
    this.stages.push({
      stage: name,
      input: report.input,
      output: report.output,
      start,
      end: now(),
      ...(report.note !== undefined ? { note: report.note } : {}),
    });
  }
}

/** Anything a stage runs in: a query's context, or an orchestration's over it (`ask`). */
export interface Traced {
  readonly trace: TraceRecorder;
}

/** A traced stage: `fn` timed, its report recorded under `name`, its value returned. Synchronous stages stay synchronous. */
export function stage<C extends Traced, A extends unknown[], T>(
  name: TraceStage["stage"],
  fn: (ctx: C, ...args: A) => StageReport<T>,
): (ctx: C, ...args: A) => T;
export function stage<C extends Traced, A extends unknown[], T>(
  name: TraceStage["stage"],
  fn: (ctx: C, ...args: A) => Promise<StageReport<T>>,
): (ctx: C, ...args: A) => Promise<T>;
export function stage<C extends Traced, A extends unknown[], T>(
  name: TraceStage["stage"],
  fn: (ctx: C, ...args: A) => StageReport<T> | Promise<StageReport<T>>,
): (ctx: C, ...args: A) => T | Promise<T> {
  return (ctx, ...args) => {
    const start = now();
    const report = fn(ctx, ...args);
    const finish = (r: StageReport<T>): T => {
      ctx.trace.record(name, start, r);
      return r.value;
    };
    return report instanceof Promise ? report.then(finish) : finish(report);
  };
}
