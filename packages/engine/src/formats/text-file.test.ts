import { describe, expect, it } from "vitest";
import { decodeUtf8File, firstInvalidUtf8Offset } from "./text-file.js";

describe("UTF-8 decoding of source files", () => {
  it.each([
    ["valid ASCII and multibyte", Buffer.from("Kündigung 取消 😀"), -1],
    ["lone continuation byte", Buffer.from([0x61, 0x80]), 1],
    ["truncated 3-byte sequence", Buffer.from([0x61, 0xe2, 0x82]), 1],
    ["lead byte before ASCII", Buffer.from([0x61, 0x62, 0xe9, 0x0a]), 2],
    ["overlong encoding of '/'", Buffer.from([0xc0, 0xaf]), 0],
    ["UTF-16 surrogate encoded in UTF-8", Buffer.from([0xed, 0xa0, 0x80]), 0],
    ["beyond U+10FFFF", Buffer.from([0xf4, 0x90, 0x80, 0x80]), 0],
  ])("%s", (_name, bytes, offset) => {
    if (offset < 0) {
      expect(firstInvalidUtf8Offset(bytes)).toBe(bytes.length);
      expect(decodeUtf8File("f.md", bytes)).toBe(bytes.toString("utf8"));
    } else {
      expect(firstInvalidUtf8Offset(bytes)).toBe(offset);
      expect(() => decodeUtf8File("f.md", bytes)).toThrow(`f.md: invalid UTF-8 at byte ${offset} (0-based)`);
    }
  });

  it("refuses NUL bytes as binary and strips a byte-order mark", () => {
    expect(() => decodeUtf8File("img.md", Buffer.from([0x89, 0x50, 0x00]))).toThrow(/img\.md: binary file \(a NUL byte at byte 2,/);
    // Past the first 8 KiB too: text that turns binary later is still binary.
    const late = Buffer.concat([Buffer.from("a".repeat(100_000)), Buffer.from([0x00, 0x41])]);
    expect(() => decodeUtf8File("late.md", late)).toThrow("late.md: binary file (a NUL byte at byte 100000, 0-based)");
    expect(decodeUtf8File("bom.md", Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toBe("A");
  });
});
