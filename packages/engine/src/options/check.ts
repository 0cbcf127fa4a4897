/**
 * The one check every options object of the engine goes through: unknown option names throw a
 * TypeError that suggests the closest known one (`limt` → `limit`, `rrfk` → `rrfK`), so a typo
 * never silently falls back to a default (better-sqlite3's `readOnly` → `readonly`).
 */

/** Rejects unknown option names, suggesting the closest known one (catches `limt`, `tiers`). */
export function checkOptions(options: object, allowed: readonly string[], where: string): void {
  if (options === null || typeof options !== "object") throw new TypeError(`Expected ${where} options to be an object`);
  for (const key of Object.keys(options)) {
    if (allowed.includes(key)) continue;
    const close = allowed.find((a) => a.toLowerCase() === key.toLowerCase() || levenshtein(a, key) <= 2);
    throw new TypeError(`Unknown ${where} option "${key}"${close ? `; did you mean "${close}"?` : ""} (known: ${allowed.join(", ")})`);
  }
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
