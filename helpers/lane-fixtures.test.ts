import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CJK_CATEGORIES,
  CJK_DIR,
  CJK_LANGUAGES,
  type CjkQuery,
  containsIdentifier,
  docLanguage,
  FixtureError,
  LEXICAL_CELLS,
  LEXICAL_DIR,
  type LexicalCase,
  leakTokens,
  lexicalCollectionDocs,
  listCorpusDocs,
  loadCjkQueries,
  loadLexicalCases,
  pathLeaks,
  readCorpusDoc,
} from "./fixture-files.js";

const CJK_CORPUS = join(CJK_DIR, "corpus");

describe("the lexical matrix fixtures", () => {
  let cases: LexicalCase[];
  beforeAll(() => {
    cases = loadLexicalCases();
  });

  it("has at least five cases in every matrix cell, so the gate floors each cell", () => {
    for (const cell of LEXICAL_CELLS) expect(cases.filter((c) => c.cell === cell).length, cell).toBeGreaterThanOrEqual(5);
  });

  it("has two collections with unique doc ids and a # title in every doc", () => {
    const docs = lexicalCollectionDocs();
    expect(docs.get("handbook")!.length).toBeGreaterThanOrEqual(20);
    expect(docs.get("archive")!.length).toBeGreaterThanOrEqual(2);
    for (const [collection, ids] of docs) {
      for (const id of ids) expect(readCorpusDoc(id, join(LEXICAL_DIR, collection)), id).toMatch(/^# \S/);
    }
  });

  it("spells identifier queries in several ways: written, joined, spaced, other case", () => {
    const spellings = new Map<string, Set<string>>();
    for (const c of cases) if (c.identifier) spellings.set(c.identifier, (spellings.get(c.identifier) ?? new Set()).add(c.query));
    expect(spellings.get("real-time")).toEqual(new Set(["real-time", "realtime", "real time", "NOT real-time"]));
    expect([...spellings.get("DEC-0054")!]).toContain("dec 0054");
    expect([...spellings.get("max_parallel_uploads")!]).toContain("maxParallelUploads");
  });
});

describe("the CJK lane fixtures", () => {
  let queries: CjkQuery[];
  beforeAll(() => {
    queries = loadCjkQueries();
  });

  it("has at least 7 documents per language, each with a # title and ## sections", () => {
    const docs = listCorpusDocs(CJK_CORPUS);
    for (const language of CJK_LANGUAGES) {
      const mine = docs.filter((d) => docLanguage(d) === language);
      expect(mine.length, language).toBeGreaterThanOrEqual(7);
      for (const doc of mine) expect(readCorpusDoc(doc, CJK_CORPUS), doc).toMatch(/^# \S[\s\S]*\n## \S/);
    }
    expect(new Set(docs.map(docLanguage))).toEqual(new Set(CJK_LANGUAGES));
  });

  it("has at least 25 queries per language and every category in every language", () => {
    for (const language of CJK_LANGUAGES) {
      const mine = queries.filter((q) => q.language === language);
      expect(mine.length, language).toBeGreaterThanOrEqual(25);
      for (const category of CJK_CATEGORIES)
        expect(
          mine.some((q) => q.category === category),
          `${language} ${category}`,
        ).toBe(true);
    }
  });

  it("writes Japanese with kana and kanji, Korean with composed Hangul", () => {
    const docs = listCorpusDocs(CJK_CORPUS);
    const text = (language: string) =>
      docs
        .filter((d) => docLanguage(d) === language)
        .map((d) => readCorpusDoc(d, CJK_CORPUS))
        .join("");
    expect(text("ja")).toMatch(/\p{Script=Hiragana}/u);
    expect(text("ja")).toMatch(/\p{Script=Katakana}/u);
    expect(text("ja")).toMatch(/\p{Script=Han}/u);
    expect(text("ko")).toMatch(/[\uAC00-\uD7A3]/);
    expect(text("ko")).not.toMatch(/[\u1100-\u11FF]/);
    expect(text("zh-hans")).toContain("订阅");
    expect(text("zh-hant")).toContain("訂閱");
  });

  it("has normalization variants of every kind it names (NFD, half-width, full-width, compatibility ideograph)", () => {
    const forms = new Set(queries.flatMap((q) => (q.form ? [q.form] : [])));
    expect(forms).toEqual(new Set(["nfd", "half-width", "full-width", "compatibility-ideograph"]));
  });
});

describe("leak and identifier helpers", () => {
  it("tokenizes Latin words, digits and CJK bigrams", () => {
    expect([...leakTokens("Ｅ－４０１２ 取消订阅 doc-03")]).toEqual(["e", "4012", "取消", "消订", "订阅", "doc", "03"]);
  });

  it("finds query words in paths, without the language folder or the extension", () => {
    expect(pathLeaks("cold storage", ["en/runbooks/cold-storage.md", "en/doc-26.md"])).toEqual(
      new Map([["en/runbooks/cold-storage.md", ["cold", "storage"]]]),
    );
    expect(pathLeaks("en md", ["en/doc-01.md"]).size).toBe(0);
  });

  it("matches identifiers as whole tokens only", () => {
    expect(containsIdentifier("Set maxRetryCount to 3", "retryCount")).toBe(false);
    expect(containsIdentifier("the retryCount metric", "retryCount")).toBe(true);
    expect(containsIdentifier("gpt-4o is newer", "gpt-4")).toBe(false);
    expect(containsIdentifier("ＤＥＣ－００５４", "DEC-0054")).toBe(true);
  });
});

describe("broken lane fixtures fail with one line naming the record", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lane-fixtures-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function failure(load: () => unknown): string {
    try {
      load();
    } catch (error) {
      expect(error).toBeInstanceOf(FixtureError);
      expect((error as Error).message).not.toContain("\n");
      return (error as Error).message;
    }
    throw new Error("expected the load to fail");
  }

  function lexicalError(change: (data: { queries: LexicalCase[] }) => void): string {
    const copy = mkdtempSync(join(dir, "lexical-"));
    cpSync(LEXICAL_DIR, copy, { recursive: true });
    const data = JSON.parse(readFileSync(join(LEXICAL_DIR, "queries.json"), "utf8")) as { queries: LexicalCase[] };
    change(data);
    writeFileSync(join(copy, "queries.json"), JSON.stringify(data));
    return failure(() => loadLexicalCases({ dir: copy }));
  }

  function cjkError(change: (data: { queries: CjkQuery[] }) => void): string {
    const copy = mkdtempSync(join(dir, "cjk-"));
    const data = JSON.parse(readFileSync(join(CJK_DIR, "queries.json"), "utf8")) as { queries: CjkQuery[] };
    change(data);
    writeFileSync(join(copy, "queries.json"), JSON.stringify(data));
    return failure(() => loadCjkQueries({ dir: copy, corpusDir: CJK_CORPUS }));
  }

  it("lexical: an unknown cell, a missing cell, two grade-3 docs", () => {
    expect(lexicalError((d) => void (d.queries[0]!.cell = "hyphen" as never))).toMatch(
      /queries\.json: case lx-001 \(\/queries\/0\/cell\): must be one of hyphen-compound, /,
    );
    expect(lexicalError((d) => void (d.queries = d.queries.filter((c) => c.cell !== "version")))).toMatch(
      /queries\.json: \/queries: no case for matrix cell version$/,
    );
    expect(lexicalError((d) => void (d.queries[0]!.judgments["en/doc-02.md"] = 3))).toMatch(
      /case lx-001 \(\/queries\/0\/judgments\): exactly one doc must be graded 3/,
    );
  });

  it("lexical: an identifier that two docs contain, a query that leaks through a path", () => {
    expect(lexicalError((d) => void (d.queries[0]!.identifier = "time"))).toMatch(
      /"time" must occur as a whole token in exactly one doc, en\/doc-01\.md \(found in /,
    );
    expect(lexicalError((d) => void (d.queries[0]!.query = "real-time runbooks"))).toMatch(
      /case lx-001 \(\/queries\/0\/query\): the query leaks its answer through document paths: en\/runbooks\/certificate-rotation\.md \(runbooks\), en\/runbooks\/cold-storage\.md \(runbooks\)/,
    );
  });

  it("lexical: a collection case judging a doc of the other collection relevant", () => {
    const message = lexicalError((d) => {
      const c = d.queries.find((q) => q.cell === "collection-filter" && q.collection === "archive")!;
      c.judgments["en/doc-07.md"] = 1;
      c.relevantDocs.push("en/doc-07.md");
    });
    expect(message).toMatch(/en\/doc-07\.md cannot be found within collection "archive"/);
  });

  it("cjk: a doc of another language judged, a normalization query that is not in its form", () => {
    expect(cjkError((d) => void (d.queries[0]!.judgments["ja/doc-01.md"] = 0))).toMatch(
      /query zh-hans-01 \(\/queries\/0\/judgments\): judges ja\/doc-01\.md, not in the query's language "zh-hans"/,
    );
    const nfd = (d: { queries: CjkQuery[] }) => d.queries.find((q) => q.form === "nfd")!;
    expect(cjkError((d) => void (nfd(d).query = nfd(d).query.normalize("NFC")))).toMatch(
      /must be decomposed \(NFD\) and different from its NFC form \(form "nfd"\)/,
    );
    expect(cjkError((d) => void delete nfd(d).form)).toMatch(/missing required field "form" when category is "normalization"/);
  });

  it("cjk: an identifier the answer does not contain, a query naming a path word", () => {
    const id = (d: { queries: CjkQuery[] }) => d.queries.find((q) => q.category === "identifier")!;
    expect(cjkError((d) => void (id(d).identifier = "E-9999"))).toMatch(/"E-9999" does not occur in a doc graded 3/);
    expect(cjkError((d) => void (d.queries[0]!.query = "取消订阅 doc"))).toMatch(
      /leaks its answer through document paths: ja\/doc-01\.md \(doc\), ja\/doc-02\.md \(doc\), ja\/doc-03\.md \(doc\) and 37 more$/,
    );
    expect(cjkError((d) => void (id(d).query = "E4012"))).toMatch(/\(\/queries\/10\/query\): a same-language query must contain CJK text$/);
  });
});
