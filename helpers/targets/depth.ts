/**
 * How deep a reply's data may nest: a tool's output in a turn is any JSON a target sends, and one
 * nested 5,000 levels deep overflows the stack of everything that walks it recursively — a
 * structured clone out of a module's thread, `JSON.stringify` into Evalite's storage and the
 * report, the trace view. Past `MAX_DEPTH` levels a value is cut, said in its place; walking and
 * cutting are loops, never recursion, so any depth is handled.
 */

/** The deepest a reply's value is kept; deeper levels are replaced by `CUT`. */
export const MAX_DEPTH = 32;

/** What stands where a value was cut. */
export const CUT = `[cut: nested deeper than ${MAX_DEPTH} levels]`;

const isNested = (value: unknown): value is object => value !== null && typeof value === "object";

/** Whether `value` nests at most `max` levels deep (a loop over its values). */
export function nestsWithin(value: unknown, max: number = MAX_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (!isNested(v)) continue;
    if (depth >= max) return false;
    for (const child of Object.values(v)) if (isNested(child)) stack.push([child, depth + 1]);
  }
  return true;
}

/** `value` as it is when it nests within `max` levels; else a copy with every deeper value replaced by `CUT`. */
export function cutDeep<T>(value: T, max: number = MAX_DEPTH): T {
  if (nestsWithin(value, max)) return value;
  const root: Record<string, unknown> = {};
  const stack: Array<[Record<string, unknown> | unknown[], string | number, unknown, number]> = [[root, "value", value, 0]];
  const put = (parent: Record<string, unknown> | unknown[], key: string | number, v: unknown) =>
    Object.defineProperty(parent, key, { value: v, enumerable: true, writable: true, configurable: true });
  while (stack.length > 0) {
    const [parent, key, v, depth] = stack.pop()!;
    if (!isNested(v)) {
      put(parent, key, v);
      continue;
    }
    if (depth >= max) {
      put(parent, key, CUT);
      continue;
    }
    const copy: Record<string, unknown> | unknown[] = Array.isArray(v) ? [] : {};
    put(parent, key, copy);
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
    // Pushed last first, so the copy's keys come in the original order.
    for (let i = entries.length - 1; i >= 0; i--) stack.push([copy, entries[i]![0], entries[i]![1], depth + 1]);
  }
  return root.value as T;
}
