/**
 * What a document or query brings in as a name (a language tag, an id, a collection) and how its
 * file is encoded: each refused in one line naming the file, the record and the rule wherever it
 * comes from (front matter, a JSONL corpus, a query file, documents given as data, the command
 * line), never stored changed or silently dropped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../cli.js";
import { Engine } from "../engine.js";
import { readCorpusJsonl, readQueriesJsonl } from "../formats/jsonl.js";
import { idProblem, languageTagProblem } from "./input-rules.js";
import { readSource } from "./source.js";

const scratch = mkdtempSync(join(tmpdir(), "input-rules-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let made = 0;
/** A fresh folder holding `files` (relative path → content). */
function folderWith(files: Record<string, string | Buffer>): string {
  const dir = join(scratch, String(++made));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = { code: 0, stdout: "", stderr: "" };
  r.code = await main(args, { stdout: (s) => (r.stdout += s), stderr: (s) => (r.stderr += s), env: {} });
  return r;
}

describe("language tags: BCP 47's shape (RFC 5646 §2.1)", () => {
  it("accepts well-formed tags, registered or not, in any case", () => {
    for (const tag of [
      "en",
      "de-CH",
      "zh-Hant",
      "zh-hant-tw",
      "pt-BR",
      "es-419",
      "sr-Latn-RS",
      "de-1996",
      "zz",
      "x-private",
      "en-x-custom",
      "i-klingon",
      "yue",
      "sl-rozaj-biske",
    ])
      expect(languageTagProblem(tag), tag).toBeNull();
  });

  it("refuses anything else, saying which rule", () => {
    for (const tag of ["zz-ZZ-@@", "en_US", "e", "-en", "en-", "english language", "123", "en--us", "ja-JP-a"])
      expect(languageTagProblem(tag), tag).toMatch(
        /is not a BCP 47 language tag \(RFC 5646 §2\.1: language\[-script\]\[-region\]\[-variant\]…/,
      );
    expect(languageTagProblem("zz-ZZ-@@")).toBe(
      '"zz-ZZ-@@" is not a BCP 47 language tag (RFC 5646 §2.1: language[-script][-region][-variant]…, letters, digits and hyphens, e.g. en, de-CH, zh-Hant, pt-BR)',
    );
  });

  it("a front matter, a JSONL record and documents given as data with zz-ZZ-@@ are refused, naming the file, line or record", async () => {
    const md = folderWith({ "a.md": "---\ntitle: A\nlang: zz-ZZ-@@\n---\nText.\n" });
    expect(() => readSource(md)).toThrow(`${join(md, "a.md")}:3: front matter "lang": "zz-ZZ-@@" is not a BCP 47 language tag`);
    const jsonl = join(folderWith({ "c.jsonl": '{"_id":"d1","text":"Hello","language":"zz-ZZ-@@"}\n' }), "c.jsonl");
    expect(() => readSource(jsonl)).toThrow(`${jsonl}: record "d1": "language" "zz-ZZ-@@" is not a BCP 47 language tag`);
    const engine = Engine.open(join(scratch, "languages.db"), { create: true });
    try {
      await expect(engine.indexDocuments([{ id: "d1", text: "Hello", language: "zz-ZZ-@@" }], { collection: "c" })).rejects.toThrow(
        'documents[0]: "language" "zz-ZZ-@@" is not a BCP 47 language tag',
      );
      // Nothing was stored.
      expect(engine.stats().documents).toBe(0);
    } finally {
      engine.close();
    }
  });
});

describe("ids: kept exactly, so a lone surrogate is refused", () => {
  it("idProblem names the surrogate and where it is", () => {
    expect(idProblem("doc-1")).toBeNull();
    expect(idProblem("😀 emoji")).toBeNull();
    expect(idProblem("\udc00x")).toBe(
      '"\\udc00x" holds a lone surrogate (U+DC00 at character 0), which is not Unicode text; ids are kept exactly as given, and this one would not survive storage',
    );
    expect(idProblem("ab\ud83d")).toMatch(/U\+D83D at character 2/);
  });

  it("a corpus record, a query record and a document given as data with _id \\udc00x are refused, naming file, line and field", async () => {
    const corpus = join(folderWith({ "c.jsonl": '{"_id":"ok","text":"a"}\n{"_id":"\\udc00x","text":"b"}\n' }), "c.jsonl");
    expect(() => readCorpusJsonl(corpus)).toThrow(`${corpus}:2: "_id" "\\udc00x" holds a lone surrogate (U+DC00 at character 0)`);
    expect(() => readSource(corpus)).toThrow(`${corpus}:2: "_id"`);
    const queries = join(folderWith({ "q.jsonl": '{"id":"\\udc00x","text":"b"}\n' }), "q.jsonl");
    expect(() => readQueriesJsonl(queries)).toThrow(`${queries}:1: "id" "\\udc00x" holds a lone surrogate`);
    const engine = Engine.open(join(scratch, "ids.db"), { create: true });
    try {
      await expect(engine.indexDocuments([{ id: "\udc00x", text: "b" }], { collection: "c" })).rejects.toThrow(
        'documents[0]: "id" "\\udc00x" holds a lone surrogate',
      );
      expect(engine.stats().documents).toBe(0);
    } finally {
      engine.close();
    }
  });
});

describe("--collection and --language on the command line", () => {
  it('--collection "" is an error naming the collection, never the source\'s name instead', async () => {
    const corpus = folderWith({ "docs/a.md": "# A\n\nCancel a subscription.\n" });
    const db = join(scratch, "collection.db");
    const r = await cli(["index", join(corpus, "docs"), "--db", db, "--collection", ""]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe("engine: collection name must not be empty\n");
    expect((await cli(["index", join(corpus, "docs"), "--db", db])).code).toBe(0);
    // A filter given empty is refused too, never dropped (which searched every collection).
    for (const option of ["--collection", "--language"]) {
      const search = await cli(["search", "cancel", "--db", db, option, ""]);
      expect(search.code, option).toBe(2);
      expect(search.stderr).toBe(`engine: Expected "${option.slice(2)}" to be a non-empty string\n`);
    }
  });
});

describe("files in UTF-16 or UTF-32", () => {
  const queries = '{"_id":"q1","text":"cancel"}\n';
  it.each([
    [
      "UTF-16LE with a byte-order mark",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(queries, "utf16le")]),
      "UTF-16LE (byte-order mark FF FE)",
    ],
    ["UTF-16LE without one", Buffer.from(queries, "utf16le"), "UTF-16LE (no byte-order mark: every other byte is 0)"],
    [
      "UTF-16BE with a byte-order mark",
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(queries, "utf16le").swap16()]),
      "UTF-16BE (byte-order mark FE FF)",
    ],
    ["UTF-32LE", Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0]), "UTF-32LE (byte-order mark FF FE 00 00)"],
  ])("a queries file in %s is named as such, not as binary or as something to index", (_, bytes, encoding) => {
    const file = join(folderWith({ "q.jsonl": bytes }), "q.jsonl");
    expect(() => readQueriesJsonl(file)).toThrow(
      `${file}: the file is ${encoding} text, not UTF-8; the engine reads UTF-8 only: convert the file to UTF-8`,
    );
  });
});
