/**
 * A run configuration the user got wrong (a flag, a baseline file, a report to compare, an
 * environment variable): reported on one line, exit status 2, never a stack trace.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** What an error message quotes of the input, at most: a 100 MB value never becomes a 100 MB message. */
export const QUOTED_INPUT_LIMIT = 200;

/**
 * A value of the input for an error message: a string in double quotes (JSON-escaped, so it stays
 * on one line; `bare`: as it is, for a flag or a number as typed), anything else as JSON; cut after
 * `QUOTED_INPUT_LIMIT` characters, with the length.
 */
export function quoteInput(value: unknown, options: { bare?: boolean } = {}): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const cut = text.length > QUOTED_INPUT_LIMIT ? text.slice(0, QUOTED_INPUT_LIMIT) : text;
  const shown = typeof value === "string" && !options.bare ? JSON.stringify(cut) : cut;
  return text.length > QUOTED_INPUT_LIMIT ? `${shown}… (${text.length} characters)` : shown;
}
