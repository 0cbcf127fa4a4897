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

/** Whitespace-separated fields of bytes[start, end), decoded for messages. */
export function lineFields(bytes: Uint8Array, start: number, end: number): string[] {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start)
    .toString("utf8")
    .split(/[\t\n\v\f\r ]+/)
    .filter((f) => f !== "");
}

/** Shows an id in a message: ids read as Latin-1 byte strings are turned back into UTF-8 text. */
export function showId(id: string, encoding: "utf8" | "latin1"): string {
  return encoding === "latin1" ? Buffer.from(id, "latin1").toString("utf8") : id;
}
