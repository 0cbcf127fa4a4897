/**
 * A dataset file's bytes as text: UTF-8 only, read as it is — a byte that is not UTF-8 never
 * becomes U+FFFD on the way in (an id changed without a word would match nothing). A file saved as
 * UTF-16 or UTF-32 (an editor's "Unicode") is named as such, a binary file by its first NUL byte,
 * invalid UTF-8 by its first bad byte. A leading byte-order mark is dropped. The data layer's own
 * reader: what a dataset says never depends on how the measured engine reads files.
 */
import { isUtf8 } from "node:buffer";

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

/** The 0-based offset of the first byte that does not start or continue valid UTF-8 (`bytes.length` when all are valid). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    // The sequence's length and the range its second byte must be in (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
    const [length, low, high] =
      b < 0x80
        ? [1, 0, 0]
        : b < 0xc2
          ? [0, 0, 0]
          : b < 0xe0
            ? [2, 0x80, 0xbf]
            : b === 0xe0
              ? [3, 0xa0, 0xbf]
              : b === 0xed
                ? [3, 0x80, 0x9f]
                : b < 0xf0
                  ? [3, 0x80, 0xbf]
                  : b === 0xf0
                    ? [4, 0x90, 0xbf]
                    : b < 0xf4
                      ? [4, 0x80, 0xbf]
                      : b === 0xf4
                        ? [4, 0x80, 0x8f]
                        : [0, 0, 0];
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return i;
}

/** Why `bytes` are not UTF-8 text (one clause), or null when they are. */
export function textProblem(bytes: Uint8Array): string | null {
  const other = otherUnicodeEncoding(bytes);
  if (other !== null) return `the file is ${other} text, not UTF-8: save it as UTF-8`;
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `a binary file, not text (a NUL byte at byte ${nul}, 0-based)`;
  if (!isUtf8(bytes)) return `not UTF-8 text: invalid UTF-8 at byte ${firstInvalidUtf8(bytes)} (0-based): save it as UTF-8`;
  return null;
}

/** `bytes` as text (UTF-8 checked by `textProblem` first), without a leading byte-order mark. */
export function decodeText(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
