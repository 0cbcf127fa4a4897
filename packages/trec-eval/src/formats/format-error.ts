/**
 * The error every reader throws for bad input: which file, which line (1-based, when one line is
 * to blame) and what is wrong, so the CLI can print `trec-eval: <file>:<line>: <problem>`.
 */
export class FormatError extends Error {
  override readonly name = "FormatError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(line === null ? `${file}: ${problem}` : `${file}:${line}: ${problem}`);
  }
}

/** Turns a Node file-system error into a one-line FormatError. */
export function fileError(file: string, error: unknown): FormatError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "is a directory, expected a file"
        : code === "EACCES"
          ? "permission denied"
          : String((error as Error)?.message ?? error);
  return new FormatError(file, null, `cannot read: ${why}`);
}

/** The UTF-8 byte-order mark, EF BB BF: skipped at the start of a file, as the BEIR reader skips U+FEFF. */
export const UTF8_BOM: readonly number[] = [0xef, 0xbb, 0xbf];

/** Whether bytes[0, length) begins with the UTF-8 byte-order mark. */
export function startsWithBom(bytes: Uint8Array, length: number): boolean {
  return length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** C isspace(): space, \t, \n, \v, \f, \r. */
export const IS_SPACE = new Uint8Array(256);
for (const c of [9, 10, 11, 12, 13, 32]) IS_SPACE[c] = 1;

/**
 * The longest line a TREC qrels or run file may hold, newline excluded: 1 MiB. Real lines are a
 * few dozen bytes; the cap keeps a file without newlines from growing the read buffer (and a
 * string made from it) until V8 gives up minutes later.
 */
export const MAX_LINE_BYTES = 1 << 20;

/** At most this many characters of the input are quoted in a message. */
export const MAX_QUOTED = 200;

/** Input text as a message quotes it: at most MAX_QUOTED characters, then how long it really was. */
export function quote(text: string): string {
  if (text.length <= MAX_QUOTED) return text;
  let cut = MAX_QUOTED;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // do not split a surrogate pair
  return `${text.slice(0, cut)}… (${text.length.toLocaleString("en-US")} characters)`;
}

/** Number of whitespace-separated fields of bytes[start, end), without decoding them. */
export function countFields(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  let inField = false;
  for (let i = start; i < end; i++) {
    const space = IS_SPACE[bytes[i]!] === 1;
    if (!space && !inField) count++;
    inField = !space;
  }
  return count;
}

/**
 * The start of bytes[start, end) for a message: fields joined by one space, at most MAX_QUOTED
 * characters, with '…' when the line goes on. Decodes only the first few hundred bytes, however
 * long the line.
 */
export function lineExcerpt(bytes: Uint8Array, start: number, end: number): string {
  const stop = Math.min(end, start + MAX_QUOTED * 4);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, stop - start)
    .toString("utf8")
    .split(/[\t\n\v\f\r ]+/)
    .filter((f) => f !== "")
    .join(" ");
  if (stop === end && text.length <= MAX_QUOTED) return text;
  return `${text.slice(0, MAX_QUOTED)}…`;
}

/** The error for a line over MAX_LINE_BYTES; `start` is where the line begins in `bytes`. */
export function lineTooLong(file: string, line: number, bytes: Uint8Array, start: number, end: number): FormatError {
  return new FormatError(
    file,
    line,
    `line is longer than 1 MiB (${MAX_LINE_BYTES.toLocaleString("en-US")} bytes), the limit for one line; it starts '${lineExcerpt(bytes, start, end)}'`,
  );
}

/**
 * Shows an id in a message, quoted at most MAX_QUOTED characters long: ids read as Latin-1 byte
 * strings are turned back into UTF-8 text.
 */
export function showId(id: string, encoding: "utf8" | "latin1"): string {
  return quote(encoding === "latin1" ? Buffer.from(id.slice(0, MAX_QUOTED * 4), "latin1").toString("utf8") : id);
}
