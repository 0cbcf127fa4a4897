import { EngineError } from "../errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes a file's bytes as UTF-8 text, refusing binary content (a NUL byte in the first
 * 8 KiB, as git decides) and invalid UTF-8 with an error that names the file.
 */
export function decodeUtf8File(file: string, bytes: Uint8Array): string {
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) {
    throw new EngineError("BINARY_FILE", `${file}: binary file (contains NUL bytes); only UTF-8 text can be indexed`);
  }
  try {
    const text = utf8.decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const at = firstInvalidUtf8Offset(bytes);
    throw new EngineError("INVALID_UTF8", `${file}: invalid UTF-8 at byte ${at}; convert the file to UTF-8`);
  }
}

function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  // Binary search for the shortest prefix that fails to decode.
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, mid + 1), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo;
}
