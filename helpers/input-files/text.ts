/**
 * A user's file's bytes as text (a dataset's files and documents, turn cases, labels, an adapter, a
 * price table, a recorded run): UTF-8 only, read as it is — a byte that is not UTF-8 never
 * becomes U+FFFD on the way in (an id changed without a word would match nothing). A file saved as
 * UTF-16 or UTF-32 (an editor's "Unicode") is named as such, a binary file by its first NUL byte,
 * invalid UTF-8 by its first bad byte. A leading byte-order mark is dropped. The data layer's own
 * reader, with the ruler's test for another Unicode encoding (trec-eval's): what a dataset says
 * never depends on how the measured engine reads files. No byte of a file that is not text ever
 * reaches a message: the problem is named, never quoted.
 */
import { isUtf8 } from "node:buffer";
import { otherUnicodeEncoding } from "@hybrid-search/trec-eval/formats";

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
