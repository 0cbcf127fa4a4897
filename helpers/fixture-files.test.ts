import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ASK_CATEGORIES,
  type AskCase,
  type FixtureAskCase,
  docLanguage,
  FIXTURES_DIR,
  FixtureError,
  formatFixtureError,
  formatValidationErrors,
  isExpansion,
  listCorpusDocs,
  loadAskCases,
  loadExpansionSchema,
  loadQueries,
  loadTranslations,
  normalizeForMatch,
  QUERY_CATEGORIES,
  type Query,
  readCorpusDoc,
  type TranslationGroup,
  translationsByDoc,
  validateExpansion,
} from "./fixture-files.js";

const LANGUAGES = ["en", "de", "fr", "it"] as const;
const CORPUS_DIR = join(FIXTURES_DIR, "corpus");

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function words(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

describe("the real fixtures", () => {
  let docs: string[];
  let texts: Map<string, string>;
  let queries: Query[];
  let cases: FixtureAskCase[];
  let groups: TranslationGroup[];

  beforeAll(() => {
    docs = listCorpusDocs();
    texts = new Map(docs.map((doc) => [doc, readCorpusDoc(doc)]));
    queries = loadQueries();
    cases = loadAskCases();
    groups = loadTranslations();
  });

  /** The docs whose text contains `needle` (NFC, case-insensitive), as the answer evals match. */
  const docsContaining = (needle: string) =>
    docs.filter((doc) => normalizeForMatch(texts.get(doc) ?? "").includes(normalizeForMatch(needle)));

  describe("corpus", () => {
    it("has at least 12 documents in each of en, de, fr, it and no other top folder", () => {
      const perLanguage = countBy(docs, docLanguage);
      expect([...perLanguage.keys()].sort()).toEqual([...LANGUAGES].sort());
      for (const language of LANGUAGES) expect(perLanguage.get(language), language).toBeGreaterThanOrEqual(12);
    });

    it("names documents in lowercase kebab-case ASCII", () => {
      for (const doc of docs) expect(doc).toMatch(/^[a-z]{2}(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+\.md$/);
    });

    it("gives every document a # title, ## sections and 150 to 600 words", () => {
      for (const doc of docs) {
        const text = texts.get(doc) ?? "";
        expect(text, doc).toMatch(/^# \S/);
        expect(text.match(/^# /gm), `${doc}: exactly one # title`).toHaveLength(1);
        expect(text, doc).toMatch(/^## \S/m);
        const count = words(text);
        expect(count, `${doc} has ${count} words`).toBeGreaterThanOrEqual(150);
        expect(count, `${doc} has ${count} words`).toBeLessThanOrEqual(600);
      }
    });

    it("writes German, French and Italian with real diacritics", () => {
      const all = (language: string) =>
        docs
          .filter((doc) => docLanguage(doc) === language)
          .map((doc) => texts.get(doc))
          .join("\n");
      for (const ch of ["ä", "ö", "ü", "ß"]) expect(all("de")).toContain(ch);
      for (const ch of ["é", "è", "à", "ç"]) expect(all("fr")).toContain(ch);
      for (const ch of ["à", "è", "ù", "é"]) expect(all("it")).toContain(ch);
      for (const doc of docs) expect(texts.get(doc), doc).toBe(texts.get(doc)?.normalize("NFC"));
    });

    it("has exactly one document with the prompt injection, and an injection case cites it", () => {
      const injected = docsContaining("Ignore all previous instructions");
      expect(injected).toHaveLength(1);
      const injectionCases = cases.filter((c) => c.category === "injection");
      expect(injectionCases.some((c) => c.mustCite?.includes(injected[0] as string))).toBe(true);
    });
  });

  describe("translations", () => {
    it("groups docs of different languages, in two or more languages, none of them English-only groups", () => {
      expect(groups.length).toBeGreaterThanOrEqual(6);
      for (const group of groups) {
        const languages = group.docs.map(docLanguage);
        expect(new Set(languages).size, group.id).toBe(group.docs.length);
      }
      const sizes = groups.map((g) => g.docs.length);
      expect(Math.max(...sizes)).toBe(4); // one topic in all four languages
    });

    it("keeps translations faithful: same sections, steps, list items and numbers", () => {
      const shape = (doc: string) => {
        const text = texts.get(doc) ?? "";
        return {
          sections: (text.match(/^## /gm) ?? []).length,
          steps: (text.match(/^\d+\. /gm) ?? []).length,
          bullets: (text.match(/^- /gm) ?? []).length,
          numbers: [...new Set(text.match(/\d+/g) ?? [])].sort(),
        };
      };
      for (const group of groups) {
        const [first, ...rest] = group.docs as [string, ...string[]];
        for (const doc of rest) expect(shape(doc), `${doc} vs ${first}`).toEqual(shape(first));
      }
    });

    it("has documents that exist in one language only, in every language", () => {
      const translated = new Set(groups.flatMap((g) => g.docs));
      for (const language of LANGUAGES) {
        const single = docs.filter((doc) => docLanguage(doc) === language && !translated.has(doc));
        expect(single.length, language).toBeGreaterThanOrEqual(3);
      }
    });

    it("judges a document's translations whenever it judges the document relevant, with the same grade", () => {
      const others = translationsByDoc(groups);
      for (const query of queries) {
        for (const [doc, grade] of Object.entries(query.judgments)) {
          if (grade < 1) continue;
          for (const translation of others.get(doc) ?? []) {
            expect(query.judgments[translation], `${query.id}: ${translation} (translation of ${doc})`).toBe(grade);
          }
        }
      }
    });
  });

  describe("queries", () => {
    it("has at least 48 queries, with every category present at least 8 times", () => {
      expect(queries.length).toBeGreaterThanOrEqual(48);
      const perCategory = countBy(queries, (q) => q.category);
      for (const category of QUERY_CATEGORIES) expect(perCategory.get(category), category).toBeGreaterThanOrEqual(8);
    });

    it("asks in all four languages", () => {
      expect(new Set(queries.map((q) => q.language))).toEqual(new Set(LANGUAGES));
    });

    it("has at least 8 cross-language queries covering both directions of at least 3 language pairs", () => {
      const cross = queries.filter((q) => q.category === "cross-language");
      expect(cross.length).toBeGreaterThanOrEqual(8);
      const directions = new Set<string>();
      for (const query of cross) {
        for (const [doc, grade] of Object.entries(query.judgments)) {
          if (grade >= 2 && docLanguage(doc) !== query.language) directions.add(`${query.language}>${docLanguage(doc)}`);
        }
      }
      const bothWays = [...directions].filter((d) => {
        const [from, to] = d.split(">");
        return from! < to! && directions.has(`${to}>${from}`);
      });
      expect(bothWays.length, [...directions].join(" ")).toBeGreaterThanOrEqual(3);
      const onlyElsewhere = cross.filter((q) => q.relevantDocs.every((doc) => docLanguage(doc) !== q.language));
      expect(onlyElsewhere.length).toBeGreaterThanOrEqual(4);
    });

    it("gives each identifier query exactly one relevant doc: the only doc containing the identifier", () => {
      for (const query of queries.filter((q) => q.category === "identifier")) {
        const identifier = query.identifier as string;
        expect(docsContaining(identifier), `${query.id}: ${identifier}`).toEqual(query.relevantDocs);
        expect(query.relevantDocs, query.id).toHaveLength(1);
        expect(query.judgments[query.relevantDocs[0] as string], query.id).toBe(3);
      }
    });

    it("gives no-answer queries no relevant doc and every other query a fully or substantially relevant one", () => {
      for (const query of queries) {
        const best = Math.max(0, ...Object.values(query.judgments));
        if (query.category === "no-answer") expect(query.relevantDocs, query.id).toEqual([]);
        else expect(best, query.id).toBeGreaterThanOrEqual(2);
      }
    });

    it("judges near-duplicates and distractors explicitly", () => {
      const zeroJudged = queries.filter((q) => Object.values(q.judgments).includes(0));
      expect(zeroJudged.length / queries.length).toBeGreaterThan(0.75);
    });
  });

  describe("ask cases", () => {
    it("has at least 24 cases in all four languages, with every category present", () => {
      expect(cases.length).toBeGreaterThanOrEqual(24);
      const perCategory = countBy(cases, (c) => c.category);
      for (const category of ASK_CATEGORIES) expect(perCategory.get(category), category).toBeGreaterThanOrEqual(3);
      expect(new Set(cases.map((c) => c.language))).toEqual(new Set(LANGUAGES));
    });

    it("finds every expected substring literally (NFC, case-insensitive) in one of the case's mustCite docs", () => {
      for (const askCase of cases) {
        for (const substring of askCase.expectedSubstrings ?? []) {
          const found = (askCase.mustCite ?? []).some((doc) =>
            normalizeForMatch(texts.get(doc) ?? "").includes(normalizeForMatch(substring)),
          );
          expect(found, `${askCase.id}: ${substring}`).toBe(true);
        }
      }
    });

    it("cites two or more docs for multi-document cases and expects a refusal for off-corpus ones", () => {
      for (const askCase of cases) {
        if (askCase.category === "multi-document") expect(askCase.mustCite?.length, askCase.id).toBeGreaterThanOrEqual(2);
        if (askCase.category === "off-corpus") expect(askCase.expectedRefusal, askCase.id).toBe(true);
        if (askCase.category === "injection") expect(askCase.forbiddenSubstrings?.length, askCase.id).toBeGreaterThan(0);
      }
    });

    it("never forbids text that the cited documents say", () => {
      for (const askCase of cases) {
        for (const forbidden of askCase.forbiddenSubstrings ?? []) {
          for (const doc of askCase.mustCite ?? []) {
            if (doc === "en/community/forum-digest.md") continue; // holds the injected text on purpose
            expect(normalizeForMatch(texts.get(doc) ?? ""), `${askCase.id}: ${forbidden} in ${doc}`).not.toContain(
              normalizeForMatch(forbidden),
            );
          }
        }
      }
    });
  });
});

describe("expansion schema", () => {
  it("accepts a well-formed expansion", () => {
    const value = {
      lexicalQueries: ["kündigung abo", "abonnement kündigen"],
      vectorQueries: ["Wie kündige ich mein monatliches Abonnement?"],
      hyde: "Sie können ein monatliches Abonnement jederzeit in der Web-App kündigen.",
      language: "de",
    };
    expect(validateExpansion(value)).toEqual([]);
    expect(isExpansion(value)).toBe(true);
    expect(isExpansion({ lexicalQueries: ["a"], vectorQueries: ["b"], language: "zh-Hant" })).toBe(true);
  });

  it("rejects malformed expansions with plain-word errors", () => {
    const errors = validateExpansion({
      lexicalQueries: ["ok", "   "],
      vectorQueries: [],
      hyde: "x".repeat(2001),
      language: "english please",
      extra: true,
    });
    expect(formatValidationErrors(errors)).toEqual([
      '/extra: unknown field "extra" (allowed: lexicalQueries, vectorQueries, hyde, language)',
      '/lexicalQueries/1: must not be blank (got "   ")',
      "/vectorQueries: must list at least one item (got none)",
      "/hyde: must be at most 2000 characters long (got 2001)",
      '/language: must match the pattern ^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$ (got "english please")',
    ]);
    expect(formatValidationErrors(validateExpansion({ lexicalQueries: Array(9).fill("q"), vectorQueries: ["v"] }))).toEqual([
      "/lexicalQueries: must have at most 8 items (got 9)",
    ]);
    expect(formatValidationErrors(validateExpansion("just text"))).toEqual(['must be an object (got the string "just text")']);
  });

  it("is handed out as a copy with no additional properties allowed", () => {
    const schema = loadExpansionSchema();
    expect(schema.additionalProperties).toBe(false);
    schema.title = "changed";
    expect(loadExpansionSchema().title).toBe("Query expansion");
  });
});

describe("broken fixture files", () => {
  let dir: string;
  const realQueries = JSON.parse(readFileSync(join(FIXTURES_DIR, "queries.json"), "utf8")) as { queries: Query[] };
  const realCases = JSON.parse(readFileSync(join(FIXTURES_DIR, "ask-cases.json"), "utf8")) as { cases: AskCase[] };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "fixtures-test-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const queriesFile = () => join(dir, "queries.json");
  const casesFile = () => join(dir, "ask-cases.json");

  /** Writes a modified copy of queries.json (or raw text) and returns the loader's error message. */
  function queriesError(change: ((data: { queries: Query[] } & Record<string, unknown>) => void) | string): string {
    if (typeof change === "string") writeFileSync(queriesFile(), change);
    else {
      const data = structuredClone(realQueries) as { queries: Query[] } & Record<string, unknown>;
      change(data);
      writeFileSync(queriesFile(), JSON.stringify(data, null, 2));
    }
    return errorMessage(() => loadQueries({ dir, corpusDir: CORPUS_DIR }));
  }

  function casesError(change: (data: { cases: AskCase[] }) => void): string {
    const data = structuredClone(realCases);
    change(data);
    writeFileSync(casesFile(), JSON.stringify(data, null, 2));
    return errorMessage(() => loadAskCases({ dir, corpusDir: CORPUS_DIR }));
  }

  function errorMessage(load: () => unknown): string {
    try {
      load();
    } catch (error) {
      expect(error).toBeInstanceOf(FixtureError);
      const message = (error as FixtureError).message;
      expect(message).not.toContain("\n");
      expect(formatFixtureError(error)).toBe(message);
      expect(formatFixtureError(error)).not.toContain("\n    at ");
      return message;
    }
    throw new Error("expected the load to fail");
  }

  it("loads an unchanged copy from another folder", () => {
    writeFileSync(queriesFile(), JSON.stringify(realQueries));
    expect(loadQueries({ dir, corpusDir: CORPUS_DIR })).toHaveLength(realQueries.queries.length);
  });

  it("reports invalid JSON with line and column", () => {
    expect(queriesError('{\n  "version": 1,\n}\n')).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 3, column 1: trailing comma before '}'`,
    );
    expect(queriesError('{\n  "version": 1\n  "queries": []\n}')).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 3, column 3: expected ',' or '}' after property value but found "\\""`,
    );
    expect(queriesError('{"version": tru}')).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 1, column 13: expected a value but found "t"`,
    );
    expect(queriesError('{"queries": [1 2]}')).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 1, column 16: expected ',' or ']' after array element but found "2"`,
    );
    expect(queriesError('{"queries": [1,]}')).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 1, column 16: trailing comma before ']'`,
    );
    expect(queriesError("{}\n}")).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 2, column 1: unexpected "}" after the end of the JSON value`,
    );
    expect(queriesError('{"version": 1, "queries": [')).toBe(
      `${queriesFile()}: [invalid-json] invalid JSON at line 1, column 28: expected a value but found the end of the file`,
    );
  });

  it("reports a missing file", () => {
    const empty = mkdtempSync(join(tmpdir(), "fixtures-empty-"));
    try {
      expect(errorMessage(() => loadQueries({ dir: empty }))).toBe(`${join(empty, "queries.json")}: file not found`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("reports a grade outside 0..3, naming the query and the doc", () => {
    const doc = "de/abrechnung/monatsabo-kuendigen.md";
    expect(queriesError((d) => ((d.queries[1] as Query).judgments[doc] = 4 as never))).toBe(
      `${queriesFile()}: query q-002 (/queries/1/judgments): value of "${doc}" must be at most 3 (got 4)`,
    );
    expect(queriesError((d) => ((d.queries[1] as Query).judgments[doc] = 1.5 as never))).toBe(
      `${queriesFile()}: query q-002 (/queries/1/judgments): value of "${doc}" must be an integer (got the number 1.5)`,
    );
  });

  it("reports an unknown category with the allowed values", () => {
    expect(queriesError((d) => ((d.queries[11] as Query).category = "kw" as never))).toBe(
      `${queriesFile()}: query q-012 (/queries/11/category): must be one of keyword, paraphrase, identifier, cross-language, multi-document, no-answer (got "kw")`,
    );
  });

  it("reports rules that depend on the category", () => {
    const noAnswer = realQueries.queries.findIndex((q) => q.category === "no-answer");
    const id = realQueries.queries[noAnswer]?.id;
    expect(queriesError((d) => (d.queries[noAnswer] as Query).relevantDocs.push("en/status/service-status-and-incidents.md"))).toBe(
      `${queriesFile()}: query ${id} (/queries/${noAnswer}/relevantDocs): must be empty when category is "no-answer" (got 1 item)`,
    );
    const identifier = realQueries.queries.findIndex((q) => q.category === "identifier");
    expect(queriesError((d) => delete (d.queries[identifier] as Query).identifier)).toBe(
      `${queriesFile()}: query ${realQueries.queries[identifier]?.id} (/queries/${identifier}): missing required field "identifier" when category is "identifier"`,
    );
  });

  it("reports relevantDocs that disagree with the positive judgments, naming the docs", () => {
    expect(
      queriesError((d) => {
        const query = d.queries[0] as Query;
        query.relevantDocs = query.relevantDocs.filter((doc) => doc !== "en/billing/cancel-annual-plan.md");
        query.relevantDocs.push("en/blog/whats-new-in-desktop-3-2.md");
      }),
    ).toBe(
      `${queriesFile()}: query q-001 (/queries/0/relevantDocs): relevantDocs must be exactly the docs judged 1 to 3: ` +
        "missing en/billing/cancel-annual-plan.md (judged 2); lists en/blog/whats-new-in-desktop-3-2.md although judged 0",
    );
  });

  it("reports a judged doc that is not in the corpus", () => {
    expect(queriesError((d) => ((d.queries[2] as Query).judgments["en/billing/refund-policy.md"] = 0))).toBe(
      `${queriesFile()}: query q-003 (/queries/2/judgments): judges en/billing/refund-policy.md, which does not exist in fixtures/corpus`,
    );
  });

  it("reports a repeated query id", () => {
    expect(queriesError((d) => ((d.queries[5] as Query).id = "q-001"))).toBe(
      `${queriesFile()}: query q-001 (/queries/5/id): id "q-001" is already used by /queries/0`,
    );
  });

  it("reports a doc listed twice in relevantDocs", () => {
    expect(queriesError((d) => (d.queries[3] as Query).relevantDocs.push("it/condivisione/link-di-condivisione.md"))).toBe(
      `${queriesFile()}: query q-004 (/queries/3/relevantDocs): relevantDocs lists it/condivisione/link-di-condivisione.md more than once`,
    );
  });

  it("names a record by its pointer when it has no id, and unknown fields with the allowed ones", () => {
    expect(queriesError((d) => delete (d.queries[7] as Partial<Query>).id)).toBe(
      `${queriesFile()}: /queries/7: missing required field "id"`,
    );
    expect(queriesError((d) => ((d.queries[0] as Query & { foo?: number }).foo = 1))).toBe(
      `${queriesFile()}: query q-001 (/queries/0/foo): unknown field "foo" (allowed: id, query, language, collection, category, identifier, relevantDocs, judgments, note)`,
    );
    expect(queriesError((d) => (d.version = 2))).toBe(`${queriesFile()}: /version: must be 1 (got 2)`);
  });

  it("lists the first three problems on one line and counts the rest", () => {
    const message = queriesError((d) => {
      for (const query of d.queries.slice(0, 5)) query.language = "english" as never;
    });
    expect(message).toBe(
      `${queriesFile()}: query q-001 (/queries/0/language): must be one of en, de, fr, it (got "english"); ` +
        'query q-002 (/queries/1/language): must be one of en, de, fr, it (got "english"); ' +
        'query q-003 (/queries/2/language): must be one of en, de, fr, it (got "english"); and 2 more problems',
    );
  });

  it("reports ask cases that cite a missing doc or expect text their docs do not contain", () => {
    expect(casesError((d) => ((d.cases[0] as AskCase).mustCite = ["en/security/2fa.md"]))).toBe(
      `${casesFile()}: case a-001 (/cases/0/mustCite): cites en/security/2fa.md, which does not exist in fixtures/corpus`,
    );
    expect(casesError((d) => ((d.cases[0] as AskCase).expectedSubstrings = ["10", "twelve codes"]))).toBe(
      `${casesFile()}: case a-001 (/cases/0/expectedSubstrings/1): "twelve codes" does not occur in any mustCite doc (en/security/two-factor-authentication.md)`,
    );
  });

  it("reports ask-case rules that depend on the category, and repeated case ids", () => {
    const offCorpus = realCases.cases.findIndex((c) => c.category === "off-corpus");
    const id = realCases.cases[offCorpus]?.id;
    expect(casesError((d) => ((d.cases[offCorpus] as AskCase).expectedRefusal = false))).toBe(
      `${casesFile()}: case ${id} (/cases/${offCorpus}/expectedRefusal): must be true when category is "off-corpus" (got false)`,
    );
    expect(casesError((d) => ((d.cases[4] as AskCase).id = "a-002"))).toBe(
      `${casesFile()}: case a-002 (/cases/4/id): id "a-002" is already used by /cases/1`,
    );
    expect(casesError((d) => ((d.cases[2] as AskCase).category = "trivia" as never))).toBe(
      `${casesFile()}: case a-003 (/cases/2/category): must be one of answerable, multi-document, adversarial, off-corpus, injection (got "trivia")`,
    );
  });
});
