import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES } from "./format-error.js";
import { readTrecQrels } from "./trec-qrels.js";

const dir = mkdtempSync(join(tmpdir(), "trec-qrels-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string): string {
  const path = join(dir, `qrels${n++}.txt`);
  writeFileSync(path, text);
  return path;
}

describe("readTrecQrels", () => {
  it("reads judgments per topic, skipping comments and blank lines; topics in byte order", () => {
    const q = readTrecQrels(file("# header\n9 0 a 1\n10 0 b 0\n\n10 0 c 2\n  # indented comment\n10 0 d -1\n"));
    expect(q.topicOrder).toEqual(["10", "9"]);
    const t = q.topics.get("10")!;
    expect([...t.grades]).toEqual([
      ["b", 0],
      ["c", 2],
      ["d", -1],
    ]);
    expect(t.levels).toEqual([
      { grade: 0, count: 1 },
      { grade: 2, count: 1 },
    ]);
    expect(t.line).toBe(3);
  });

  it("ignores a UTF-8 byte-order mark at the start of the file (it would join the first topic id)", () => {
    for (const idEncoding of ["utf8", "latin1"] as const) {
      const q = readTrecQrels(file("\uFEFF1 0 a 1\n2 0 b 1\n"), { idEncoding });
      expect(q.topicOrder, idEncoding).toEqual(["1", "2"]);
      expect(q.topics.get("1")!.line).toBe(1);
    }
  });

  it("reports malformed lines with file and line", () => {
    expect(() => readTrecQrels(file("1 0 a 1\n1 0 b\n"))).toThrow(/qrels\d+\.txt:2: expected 4 fields \(topic iter docid grade\), found 3/);
    expect(() => readTrecQrels(file("1 0 a 1 extra\n"))).toThrow(/:1: expected 4 fields/);
    expect(() => readTrecQrels(file("1 0 a 1.5\n"))).toThrow(/:1: grade '1.5' is not an integer/);
    expect(() => readTrecQrels(file("1 0 a x\n"))).toThrow(/grade 'x'/);
    expect(() => readTrecQrels(file("1 0 a 1\n2 0 a 1\n1 0 a 0\n"))).toThrow(
      /:3: document "a" is judged twice for topic "1" \(first on line 1\)/,
    );
  });

  it("caps a line at 1 MiB and quotes at most 200 characters of a bad line or field", () => {
    expect(readTrecQrels(file(`1 0 ${"d".repeat(MAX_LINE_BYTES - 6)} 1\n`)).topics.get("1")!.grades.size).toBe(1);
    expect(() => readTrecQrels(file(`1 0 a 1\n1 0 ${"d".repeat(MAX_LINE_BYTES - 5)} 1\n`))).toThrow(
      /qrels\d+\.txt:2: line is longer than 1 MiB \(1,048,576 bytes\), the limit for one line; it starts '1 0 d+…'$/,
    );
    const messages = [
      `1 0 a ${"7".repeat(900_000)}.5\n`,
      `1 0 ${"a ".repeat(400_000)}\n`,
      `1 0 ${"a".repeat(900_000)} 1\n1 0 ${"a".repeat(900_000)} 1\n`,
    ].map((text) => {
      try {
        readTrecQrels(file(text));
      } catch (error) {
        return (error as Error).message;
      }
      return "no error";
    });
    expect(messages[0]).toMatch(/:1: grade '7{200}…' is not an integer/);
    expect(messages[1]).toMatch(/:1: expected 4 fields \(topic iter docid grade\), found 400002: '1 0 a a a/);
    expect(messages[2]).toMatch(/:2: document "a{200}… \(900,000 characters\)" is judged twice for topic "1"/);
    for (const message of messages) expect(message.length).toBeLessThan(500);
  });

  it("rejects empty and missing files", () => {
    expect(() => readTrecQrels(file(""))).toThrow(/empty file/);
    expect(() => readTrecQrels(file("# only\n"))).toThrow(/no judgment lines/);
    expect(() => readTrecQrels(join(dir, "nope"))).toThrow(/nope: cannot read: no such file/);
  });
});
