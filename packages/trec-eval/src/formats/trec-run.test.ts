import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES } from "./format-error.js";
import { readTrecRun, type RunTopic } from "./trec-run.js";

const dir = mkdtempSync(join(tmpdir(), "trec-run-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string | Buffer): string {
  const path = join(dir, `run${n++}.txt`);
  writeFileSync(path, text);
  return path;
}

function catchError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

interface Seen {
  id: string;
  docs: string[];
  scores: number[];
  lines: number[];
}

function read(path: string, options: { chunkSize?: number; idEncoding?: "utf8" | "latin1"; requireLineBreaks?: boolean } = {}) {
  let topics: Seen[] = [];
  let restarts = 0;
  const summary = readTrecRun(path, {
    ...options,
    onRestart: () => {
      restarts++;
      topics = [];
    },
    onTopic: (t: RunTopic) =>
      topics.push({
        id: t.id,
        docs: t.docIds.slice(0, t.count),
        scores: [...t.scores.subarray(0, t.count)],
        lines: [...t.lines.subarray(0, t.count)],
      }),
  });
  return { topics, restarts, summary };
}

describe("readTrecRun", () => {
  it("reads topics with scores and line numbers, ignoring rank and trailing fields", () => {
    const path = file("# a comment\n1 Q0 a 9 2.5 runA extra junk\n\n1 Q0 b 1 -1e-3 runA\r\n2\tQ0\tc\t1\t+.5\trunB");
    const { topics, summary } = read(path);
    expect(topics).toEqual([
      { id: "1", docs: ["a", "b"], scores: [2.5, -0.001], lines: [2, 4] },
      { id: "2", docs: ["c"], scores: [0.5], lines: [5] },
    ]);
    expect(summary).toEqual({ runId: "runB", lines: 3, grouped: true });
  });

  it("reads a last line without its line break as trec_eval does, or refuses it as cut off when line breaks are required", () => {
    const cut = file("1 Q0 a 1 2 runA\n1 Q0 b 2 1 ru");
    expect(read(cut).topics).toEqual([{ id: "1", docs: ["a", "b"], scores: [2, 1], lines: [1, 2] }]);
    for (const chunkSize of [4, 1 << 22])
      expect(catchError(() => read(cut, { requireLineBreaks: true, chunkSize })).message).toBe(
        `${cut}:2: the last line has no line break at its end: the file looks cut off (every line of the file ends with one; if the line is whole, add the line break)`,
      );
    expect(read(file("1 Q0 a 1 2 runA\n  "), { requireLineBreaks: true }).summary.lines).toBe(1);
  });

  it("parses scores exactly as strtod does", () => {
    const scores = ["0.6898301657029192", "1.7976931348623157e308", "123456789012345678901234", "0.1", "-0", "2.129133", "1e-320"];
    const path = file(scores.map((s, i) => `q Q0 d${i} 1 ${s} r\n`).join(""));
    expect(read(path).topics[0]!.scores).toEqual(scores.map(Number));
  });

  it("gives the same topics when lines straddle tiny read chunks", () => {
    const text = Array.from(
      { length: 200 },
      (_, i) => `topic${i % 7 === 0 ? i : i - (i % 7)} Q0 doc-${i}-${"x".repeat(i % 13)} ${i} ${(1000 - i) / 7} run\n`,
    ).join("");
    const path = file(text);
    expect(read(path, { chunkSize: 16 })).toEqual(read(path));
  });

  it("re-reads a run that is not grouped by topic, keeping file order within topics", () => {
    const { topics, restarts, summary } = read(file("1 Q0 a 1 3 r\n2 Q0 b 1 3 r\n1 Q0 c 2 2 r\n"));
    expect(restarts).toBe(1);
    expect(summary.grouped).toBe(false);
    expect(topics.map((t) => [t.id, t.docs, t.lines])).toEqual([
      ["1", ["a", "c"], [1, 3]],
      ["2", ["b"], [2]],
    ]);
  });

  it("reports malformed lines with file and line", () => {
    expect(() => read(file("1 Q0 a 1 2 r\n1 Q0 b 1 2\n"))).toThrow(
      /run\d+\.txt:2: expected 6 fields \(topic Q0 docid rank score runid\), found 5: '1 Q0 b 1 2'/,
    );
    expect(() => read(file("1 Q0 a 1 abc r\n"))).toThrow(/:1: score 'abc' is not a finite decimal number/);
    expect(() => read(file("1 Q0 a 1 nan r\n"))).toThrow(/score 'nan'/);
    expect(() => read(file("1 Q0 a 1 1e999 r\n"))).toThrow(/score '1e999'/);
  });

  it("ignores a UTF-8 byte-order mark at the start of the file, whatever the read size", () => {
    const text = "\uFEFF1 Q0 a 1 2 r\n2 Q0 b 1 1 r\n";
    for (const chunkSize of [undefined, 1, 2, 3, 4]) {
      for (const idEncoding of ["utf8", "latin1"] as const) {
        const { topics } = read(file(text), { chunkSize, idEncoding });
        expect(
          topics.map((t) => [t.id, t.lines]),
          `${chunkSize} ${idEncoding}`,
        ).toEqual([
          ["1", [1]],
          ["2", [2]],
        ]);
      }
    }
    // Only at the very start: a mark inside a line stays part of the id.
    expect(read(file("1 Q0 a 1 2 r\n\uFEFF2 Q0 b 1 1 r\n")).topics[1]!.id).toBe("\uFEFF2");
  });

  it("caps a line at 1 MiB, counted without its newline, whatever the read size", () => {
    const line = (length: number) => {
      const head = "1 Q0 ";
      const tail = " 1 1 r";
      return `${head}${"d".repeat(length - head.length - tail.length)}${tail}`;
    };
    const atCap = file(`${line(MAX_LINE_BYTES)}\n`);
    const overCap = file(`1 Q0 a 1 1 r\n${line(MAX_LINE_BYTES + 1)}\n2 Q0 b 1 1 r\n`);
    for (const chunkSize of [undefined, 64 << 10]) {
      expect(read(atCap, { chunkSize }).topics[0]!.docs[0]!.length).toBe(MAX_LINE_BYTES - 11);
      const error = catchError(() => read(overCap, { chunkSize }));
      expect(error.message).toMatch(
        /run\d+\.txt:2: line is longer than 1 MiB \(1,048,576 bytes\), the limit for one line; it starts '1 Q0 d+…'$/,
      );
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it("stops reading a line without a newline once it passes the cap, instead of growing without end", () => {
    const path = file(`1 Q0 a 1 1 r\n${"x".repeat(6 * MAX_LINE_BYTES)}`);
    expect(() => read(path)).toThrow(/:2: line is longer than 1 MiB/);
  });

  it("quotes at most 200 characters of a malformed line or field", () => {
    const fields = catchError(() => read(file(`1 Q0 a 1 ${"9".repeat(900_000)}\n`)));
    expect(fields.message).toMatch(/:1: expected 6 fields \(topic Q0 docid rank score runid\), found 5: '1 Q0 a 1 9+…'$/);
    expect(fields.message.length).toBeLessThan(400);
    const score = catchError(() => read(file(`1 Q0 a 1 ${"x".repeat(900_000)} r\n`)));
    expect(score.message).toMatch(/:1: score 'x{200}…' is not a finite decimal number$/);
  });

  it("refuses a directory as a file error, not a crash", () => {
    expect(() => read(dir)).toThrow(/: cannot read: is a directory, expected a file$/);
  });

  it("rejects empty, comment-only, missing and non-UTF-8 files in one line", () => {
    expect(() => read(file(""))).toThrow(/: empty file, expected run lines/);
    expect(() => read(file("# nothing\n\n"))).toThrow(/no run lines/);
    expect(() => read(join(dir, "missing.txt"))).toThrow(/missing\.txt: cannot read: no such file/);
    const latin1 = file(Buffer.from("1 Q0 caf\xe9 1 1 r\n", "latin1"));
    expect(() => read(latin1)).toThrow(/:1: invalid UTF-8/);
    expect(read(latin1, { idEncoding: "latin1" }).topics[0]!.docs).toEqual(["caf\xe9"]);
  });
});
