/**
 * Text files of the BEIR format (corpus.jsonl, queries.jsonl, qrels/<split>.tsv) read as UTF-8,
 * strictly: ids are compared byte for byte with a run's, so a byte that is not UTF-8 must never
 * become U+FFFD on the way in (Node's lenient decoding would change the id without a word). A file
 * in UTF-16 or UTF-32 is named as such, since that is what an editor's "Unicode" writes.
 * Kept apart from the engine's own reader on purpose: the ruler reads its files itself.
 */
import { readFileSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { FormatError, fileError } from "./format-error.js";

/** UTF-16 or UTF-32 with its byte order, told by a byte-order mark or by ASCII text with every other byte 0; else null. */
export function otherUnicodeEncoding(bytes: Uint8Array): string | null {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return "UTF-32LE (byte-order mark FF FE 00 00)";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32BE (byte-order mark 00 00 FE FF)";
  if (a === 0xff && b === 0xfe) return "UTF-16LE (byte-order mark FF FE)";
  if (a === 0xfe && b === 0xff) return "UTF-16BE (byte-order mark FE FF)";
  const head = bytes.subarray(0, Math.min(bytes.length, 64) & ~1);
  if (head.length < 4) return null;
  const ascii = (x: number | undefined) => x !== undefined && x >= 0x09 && x < 0x80;
  let le = true;
  let be = true;
  for (let i = 0; i < head.length; i += 2) {
    le &&= ascii(head[i]) && head[i + 1] === 0;
    be &&= head[i] === 0 && ascii(head[i + 1]);
  }
  return le ? "UTF-16LE (no byte-order mark: every other byte is 0)" : be ? "UTF-16BE (no byte-order mark: every other byte is 0)" : null;
}

/** `file`'s text; a FormatError (one line) when it cannot be read or is not UTF-8. A leading byte-order mark is dropped. */
export function readUtf8Text(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw fileError(file, error);
  }
  const other = otherUnicodeEncoding(bytes);
  if (other !== null) throw new FormatError(file, null, `the file is ${other} text, not UTF-8: convert it to UTF-8`);
  if (!isUtf8(bytes)) {
    let line = 1;
    let start = 0;
    for (let nl = bytes.indexOf(10); ; nl = bytes.indexOf(10, start)) {
      const end = nl < 0 ? bytes.length : nl;
      if (!isUtf8(bytes.subarray(start, end))) break;
      line++;
      start = end + 1;
    }
    throw new FormatError(file, line, "invalid UTF-8; ids and texts must be UTF-8 text (read as is, never replaced)");
  }
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Why `id` cannot be an id, or null: a string holding a lone UTF-16 surrogate (`"\udc00x"` in
 * JSON) has no UTF-8 form, so it can match nothing a run or an engine writes, and would be
 * changed by anything that stores it.
 */
export function loneSurrogateProblem(id: string): string | null {
  const lone = /[\uD800-\uDFFF]/u.exec(id);
  if (lone === null) return null;
  return `${JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id)} holds a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()} at character ${lone.index}), which is not Unicode text; ids are read exactly, never changed`;
}
