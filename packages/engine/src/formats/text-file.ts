import { readFileSync, statSync } from "node:fs";
import { EngineError } from "../errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The largest text file the engine reads (a document, a JSONL corpus or query file): 500 MiB. A
 * file is decoded into one string, and V8 strings end at 2^29 − 24 UTF-16 units (about 512 MiB of
 * ASCII); past that node fails with "Cannot create a string longer than…" after reading it all.
 */
export const MAX_TEXT_FILE_BYTES = 500 * 1024 * 1024;

/**
 * A text file's bytes; refuses one larger than `MAX_TEXT_FILE_BYTES` before reading it. Throws the
 * file system's error as it is (callers name it); `shown` names the file in the size error.
 */
export function readTextFileBytes(file: string, shown: string = file): Buffer {
  const size = statSync(file).size;
  if (size > MAX_TEXT_FILE_BYTES) {
    throw new EngineError(
      "UNREADABLE",
      `${shown}: ${(size / 1024 / 1024).toFixed(0)} MiB; the engine reads text files of up to ${MAX_TEXT_FILE_BYTES / 1024 / 1024} MiB (split it)`,
    );
  }
  return readFileSync(file);
}

/**
 * Decodes a file's bytes as UTF-8 text, refusing UTF-16 and UTF-32 text (named as such: a query or
 * corpus file saved as "Unicode" by an editor), binary content (a NUL byte anywhere: UTF-8 text
 * never holds one, and git's 8 KiB probe let a file whose NUL came later through as text) and
 * invalid UTF-8 with an error that names the file and the byte.
 */
export function decodeUtf8File(file: string, bytes: Uint8Array): string {
  const other = otherUnicodeEncoding(bytes);
  if (other !== null)
    throw new EngineError(
      "INVALID_UTF8",
      `${file}: the file is ${other} text, not UTF-8; the engine reads UTF-8 only: convert the file to UTF-8`,
    );
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    throw new EngineError("BINARY_FILE", `${file}: binary file (a NUL byte at byte ${nul}, 0-based); the engine reads UTF-8 text only`);
  }
  try {
    const text = utf8.decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const at = firstInvalidUtf8Offset(bytes);
    throw new EngineError("INVALID_UTF8", `${file}: invalid UTF-8 at byte ${at} (0-based); convert the file to UTF-8`);
  }
}

/**
 * UTF-16 or UTF-32 (with the byte order), told by a byte-order mark, or for UTF-16 without one by
 * its first characters being ASCII: every other byte 0. Null for anything else.
 */
export function otherUnicodeEncoding(bytes: Uint8Array): string | null {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return "UTF-32LE (byte-order mark FF FE 00 00)";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32BE (byte-order mark 00 00 FE FF)";
  if (a === 0xff && b === 0xfe) return "UTF-16LE (byte-order mark FF FE)";
  if (a === 0xfe && b === 0xff) return "UTF-16BE (byte-order mark FE FF)";
  const head = bytes.subarray(0, Math.min(bytes.length, 64) & ~1);
  if (head.length < 4) return null;
  const ascii = (x: number) => x >= 0x09 && x < 0x80;
  let le = true;
  let be = true;
  for (let i = 0; i < head.length; i += 2) {
    le &&= ascii(head[i]!) && head[i + 1] === 0;
    be &&= head[i] === 0 && ascii(head[i + 1]!);
  }
  return le ? "UTF-16LE (no byte-order mark: every other byte is 0)" : be ? "UTF-16BE (no byte-order mark: every other byte is 0)" : null;
}

/** 0-based offset of the first byte that starts an invalid UTF-8 sequence. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}
