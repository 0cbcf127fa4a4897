/**
 * Every format the suite reads (helpers/datasets/formats/), on the samples in test/datasets/: what
 * it maps to the model, what it reports as not mapped, how it is detected and named in the run's
 * first lines; and each malformed variant's one-line error, which names the file, the record and
 * the field, and the error's name.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureError } from "../fixture-files/errors.js";
import { REPO_ROOT } from "../fixture-files/paths.js";
import { detectFormat } from "./detect.js";
import { datasetHeader } from "./header.js";
import { loadDataset } from "./load.js";
import { type Dataset, DatasetError } from "./model.js";

const SAMPLES = join(REPO_ROOT, "test/datasets");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of a sample in a temp folder, to break. */
function copy(sample: string): string {
  const dir = mkdtempSync(join(tmpdir(), "dataset-"));
  dirs.push(dir);
  const to = join(dir, sample.split("/").at(-1)!);
  cpSync(join(SAMPLES, sample), to, { recursive: true });
  return to;
}

const load = (source: string, format?: string): Dataset =>
  loadDataset({ EVAL_DATASET: source, ...(format ? { EVAL_DATASET_FORMAT: format } : {}) });

/** The one-line message loading `source` stops with. */
function failure(source: string, format?: string): string {
  try {
    load(source, format);
  } catch (error) {
    if (!(error instanceof FixtureError) && !(error instanceof DatasetError)) throw error;
    expect(error.message).not.toContain("\n");
    return error.message;
  }
  throw new Error(`${source} loaded without an error`);
}

function edit(path: string, change: (text: string) => string): void {
  writeFileSync(path, change(readFileSync(path, "utf8")));
}

describe("the project's fixtures", () => {
  it("are the demo corpus, read by its strict loaders: every query, answer case and translation group, languages from the top folder", () => {
    const d = loadDataset({});
    expect({ name: d.name, format: d.format, demo: d.demo, collection: d.collection }).toEqual({
      name: "fixtures",
      format: "fixtures",
      demo: true,
      collection: "corpus",
    });
    expect([d.cases.length, d.askCases.length, d.translations.length, d.corpusIds.length]).toEqual([67, 30, 11, 58]);
    expect(d.declaredLanguages.get("de/konto/konto-loeschen.md")).toBe("de");
    expect(datasetHeader(d, null)).toEqual([
      "eval: dataset fixtures (67 queries, 30 answer cases, 24 turn cases): the suite's fixture format (the project's demo corpus)",
    ]);
    // EVAL_DATASET naming the fixtures folder is the same dataset, floors and all.
    expect(loadDataset({ EVAL_DATASET: join(REPO_ROOT, "fixtures") }).name).toBe("fixtures");
  });
});

describe("the suite's fixture format (a user's)", () => {
  it("needs no language, category, note or relevantDocs, takes any document path, and reads its gate, markers and translations", () => {
    const folder = copy("fixtures-layout");
    rmSync(join(folder, "queries.json"));
    rmSync(join(folder, "ask-cases.json"));
    writeFileSync(
      join(folder, "queries.json"),
      JSON.stringify({ version: 1, queries: [{ id: "Q 1", query: "backup interval", judgments: { "en/backup-settings.md": 2 } }] }),
    );
    writeFileSync(
      join(folder, "ask-cases.json"),
      JSON.stringify({
        version: 1,
        gate: { minPassRate: 0.9 },
        cases: [
          { id: "A 1", question: "How long are backups kept?", expectedSubstrings: ["10 days"], mustCite: ["en/backup-settings.md"] },
        ],
      }),
    );
    writeFileSync(join(folder, "refusal-markers.json"), JSON.stringify({ version: 1, markers: { en: ["cannot", "no answer here"] } }));
    const d = load(folder);
    expect(d.format).toBe("fixtures");
    expect(d.cases).toEqual([{ id: "Q 1", query: "backup interval", judgments: { "en/backup-settings.md": 2 } }]);
    expect(d.askCases[0]).toEqual({
      id: "A 1",
      question: "How long are backups kept?",
      expectedSubstrings: ["10 days"],
      mustCite: ["en/backup-settings.md"],
    });
    expect(d.gate).toEqual({ minPassRate: 0.9, source: expect.stringMatching(/ask-cases\.json \/gate$/) });
    expect(d.refusalMarkers).toEqual({ en: ["cannot", "no answer here"] });
    // A one-word refusal marker is accepted with a warning, said in the header.
    expect(d.warnings).toEqual([expect.stringMatching(/refusal-markers\.json: \/markers\/en\/0: must have at least two words.*accepted/)]);
    expect(datasetHeader(d, detectFormat(folder)).some((l) => l.includes("WARNING:") && l.includes('"cannot"'))).toBe(true);
    expect(d.declaredLanguages.get("de/datensicherung.md")).toBe("de");
  });

  it("is told apart from a BEIR folder with answer cases beside it, and says when a folder holds both", () => {
    const starter = mkdtempSync(join(tmpdir(), "starter-"));
    dirs.push(starter);
    rmSync(starter, { recursive: true });
    cpSync(join(REPO_ROOT, "templates/starter"), starter, { recursive: true });
    cpSync(join(SAMPLES, "beir-answers/corpus.jsonl"), join(starter, "corpus.jsonl"));
    const named = ({ format, alsoHolds, forced }: ReturnType<typeof detectFormat>) => ({
      format: format.name,
      alsoHolds: alsoHolds.map((f) => f.name),
      forced,
    });
    expect(named(detectFormat(starter))).toEqual({ format: "fixtures", alsoHolds: ["beir"], forced: false });
    expect(named(detectFormat(starter, "beir"))).toEqual({ format: "beir", alsoHolds: ["fixtures"], forced: true });
    expect(named(detectFormat(join(SAMPLES, "beir-answers")))).toEqual({ format: "beir", alsoHolds: [], forced: false });
  });

  it.each([
    [
      "a repeated query id",
      (f: string) => edit(join(f, "queries.json"), (t) => t.replace('"id": "q-002"', '"id": "q-001"')),
      /queries\.json: query q-001 \(\/queries\/1\/id\): \[duplicate-id\] query id "q-001" is already used by query q-001/,
    ],
    [
      "a citation of a document the corpus lacks",
      (f: string) =>
        edit(join(f, "ask-cases.json"), (t) => t.replace('"mustCite": ["en/billing/refunds.md"]', '"mustCite": ["en/billing/refund.md"]')),
      /ask-cases\.json: case a-001 \(\/cases\/0\/mustCite\): \[unknown-document\] cites "en\/billing\/refund\.md", which is not a document of .*corpus/,
    ],
    [
      "an empty corpus",
      (f: string) => {
        rmSync(join(f, "corpus"), { recursive: true });
        cpSync(join(SAMPLES, "fixtures-layout/corpus/en/backup-settings.md"), join(f, "corpus", "x", "..", "readme.txt.bak"), {
          recursive: true,
        });
      },
      /corpus: \[empty-corpus\] .*holds no document/,
    ],
    [
      "a question with no expectation at all",
      (f: string) =>
        writeFileSync(
          join(f, "ask-cases.json"),
          JSON.stringify({ version: 1, cases: [{ id: "a-1", question: "Anything?", language: "en" }] }),
        ),
      /ask-cases\.json: case a-1 \(\/cases\/0\): \[no-expectation\] the question states no expectation/,
    ],
    [
      "a file in UTF-16",
      (f: string) =>
        writeFileSync(
          join(f, "queries.json"),
          Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(join(f, "queries.json"), "utf8"), "utf16le")]),
        ),
      /queries\.json: \[encoding\] the file is UTF-16/,
    ],
    [
      "invalid JSON",
      (f: string) => edit(join(f, "ask-cases.json"), (t) => t.replace('"version": 1,', '"version": 1,,')),
      /ask-cases\.json: \[invalid-json\] invalid JSON at line 3, column 16: expected a double-quoted property name/,
    ],
    [
      "a grade out of range",
      (f: string) => edit(join(f, "queries.json"), (t) => t.replace('"en/billing/refunds.md": 3', '"en/billing/refunds.md": 4')),
      /queries\.json: query q-001 \(\/queries\/0\/judgments\): \[schema\] value of "en\/billing\/refunds\.md" must be at most 3 \(got 4\)/,
    ],
  ])("%s is one named line", (_what, breakIt, message) => {
    const folder = join(mkdtempSync(join(tmpdir(), "starter-")), "mine");
    dirs.push(folder);
    cpSync(join(REPO_ROOT, "templates/starter"), folder, { recursive: true });
    breakIt(folder);
    expect(failure(folder)).toMatch(message);
  });
});

describe("BEIR with answer cases beside it", () => {
  it("reads the judged queries, and the answer cases citing corpus.jsonl ids", () => {
    const d = load(join(SAMPLES, "beir-answers"));
    expect(d.format).toBe("beir");
    expect(d.cases.map((c) => c.id)).toEqual(["q1", "q2", "q3"]);
    expect(d.askCases.map((c) => [c.id, c.mustCite ?? []])).toEqual([
      ["a1", ["fare-02"]],
      ["a2", ["fare-03"]],
      ["a3", ["fare-04"]],
      ["a4", []],
    ]);
  });

  it("names a fact no cited record holds, and a citation of an unknown id", () => {
    const folder = copy("beir-answers");
    edit(join(folder, "ask-cases.json"), (t) => t.replace('"30 pounds"', '"31 pounds"'));
    expect(failure(folder)).toMatch(
      /ask-cases\.json: case a1 \(\/cases\/0\/expectedSubstrings\/0\): "31 pounds" does not occur in the cited document \(fare-02\)/,
    );
    edit(join(folder, "ask-cases.json"), (t) => t.replace('"31 pounds"', '"30 pounds"').replace('"fare-04"', '"fare-09"'));
    expect(failure(folder)).toMatch(
      /case a3 \(\/cases\/2\/mustCite\): \[unknown-document\] cites "fare-09", which is not a document of .*corpus\.jsonl/,
    );
  });
});

describe("a golden Q&A set with an inline corpus", () => {
  it("keys documents by title, makes expectedDocumentTitle the citation, its thresholds the gate, and derives retrieval cases", () => {
    const d = load(join(SAMPLES, "golden-qa"));
    expect(d.format).toBe("golden-qa");
    expect(d.corpusIds).toEqual(["Opening hours", "Borrowing limits", "Late returns", "Meeting rooms", "E-books and audiobooks"]);
    expect(d.corpusSource).toMatchObject({ kind: "documents", ids: "keys" });
    expect(d.askCases[0]).toEqual({
      id: "q01",
      question: "How many items can I borrow with a standard library card?",
      category: "factual",
      expectedSubstrings: ["12"],
      mustCite: ["Borrowing limits"],
    });
    expect(d.askCases[5]).toMatchObject({ id: "q06", category: "adversarial", expectedRefusal: true });
    // The tool's any-of mode: alternatives of which the answer states one, beside the facts it states all of.
    expect(d.askCases[3]).toMatchObject({
      id: "q04",
      expectedSubstrings: ["Birch"],
      expectedSubstringsAny: ["20 people", "seats 20", "twenty people"],
    });
    expect(d.gate).toEqual({ minPassRate: 0.5, maxP95LatencyMs: 60000, source: "test/datasets/golden-qa/golden_qa.json /thresholds" });
    expect(d.derivedCases).toBe(true);
    expect(d.cases[0]).toEqual({
      id: "q01",
      query: "How many items can I borrow with a standard library card?",
      category: "factual",
      judgments: { "Borrowing limits": 1 },
    });
    expect(d.unmapped.map((u) => `${u.field} ${u.records}`)).toEqual(["/owner 1", "/questions/*/difficulty 1"]);
    const header = datasetHeader(d, detectFormat(join(SAMPLES, "golden-qa")));
    expect(header[0]).toBe(
      "eval: dataset golden-qa (5 queries, 6 answer cases): golden Q&A set with an inline corpus (detected: golden_qa.json)",
    );
    expect(header).toContain(
      "eval: dataset golden-qa: not mapped: test/datasets/golden-qa/golden_qa.json /questions/*/difficulty (1 record): not a field the suite knows for this format; nothing reads it",
    );
    expect(header.at(-1)).toMatch(/its own gate \(.*\/thresholds\): pass rate ≥ 0\.5 and p95 answer latency ≤ 60000 ms/);
    // The file itself names the same dataset.
    expect(load(join(SAMPLES, "golden-qa/golden_qa.json")).askCases).toEqual(d.askCases);
  });

  it.each([
    [
      "a title used twice",
      (t: string) => t.replace('"title": "Late returns"', '"title": "Opening hours"'),
      /golden_qa\.json: \/corpus\/2\/title: \[duplicate-id\] title "Opening hours" is already used by \/corpus\/0/,
    ],
    [
      "an id that is not Unicode text",
      (t: string) => t.replace('"id": "q02"', '"id": "q\\udc0002"'),
      /question q\udc0002 \(\/questions\/1\/id\): \[invalid-id\] question id "q\\udc0002" holds a lone surrogate \(U\+DC00 at character 1\)/,
    ],
    [
      "a question id used twice",
      (t: string) => t.replace('"id": "q02"', '"id": "q01"'),
      /question q01 \(\/questions\/1\/id\): \[duplicate-id\] question id "q01" is already used by question q01/,
    ],
    [
      "a citation of a title the corpus lacks",
      (t: string) => t.replace('"expectedDocumentTitle": "Late returns"', '"expectedDocumentTitle": "Late fees"'),
      /question q03 \(\/questions\/2\/expectedDocumentTitle\): \[unknown-document\] cites "Late fees", which is not a document of .*golden_qa\.json \/corpus/,
    ],
    [
      "an empty corpus",
      (t: string) => t.replace(/"corpus": \[[\s\S]*?\n {2}\],/, '"corpus": [],'),
      /golden_qa\.json \/corpus: \[empty-corpus\]/,
    ],
    [
      "a question with no expectation",
      (t: string) =>
        t.replace(
          '"question": "Which stock exchange is the library\'s parent company listed on?",\n      "expectedRefusal": true',
          '"question": "Which stock exchange?"',
        ),
      /question q06 \(\/questions\/5\): \[no-expectation\]/,
    ],
    [
      "a threshold on the wrong scale",
      (t: string) => t.replace('"minPassRate": 0.5', '"minPassRate": 50'),
      /golden_qa\.json: \/thresholds\/minPassRate: \[schema\] must be at most 1 \(got 50\)/,
    ],
    [
      "a fact no cited document holds",
      (t: string) => t.replace('"expectedSubstrings": ["paused"]', '"expectedSubstrings": ["suspended"]'),
      /question q03 \(\/questions\/2\/expectedSubstrings\/0\): "suspended" does not occur in the cited document \(Late returns\)/,
    ],
    [
      "alternatives none of which a cited document holds (one is enough)",
      (t: string) => t.replace('"20 people", "seats 20", "twenty people"', '"twenty people", "a score of people"'),
      /question q04 \(\/questions\/3\/expectedSubstringsAny\): none of "twenty people", "a score of people" occurs in the cited document \(Meeting rooms\)/,
    ],
    [
      "alternatives on a question that expects a refusal",
      (t: string) => t.replace('"expectedRefusal": true', '"expectedRefusal": true, "expectedSubstringsAny": ["Nasdaq"]'),
      /question q06 \(\/questions\/5\/expectedSubstringsAny\): a question that expects a refusal cannot expect facts in the answer/,
    ],
  ])("%s is one named line", (_what, change, message) => {
    const folder = copy("golden-qa");
    edit(join(folder, "golden_qa.json"), change);
    expect(failure(folder)).toMatch(message);
  });

  it("a file that is not UTF-8 is the named error [encoding], with the byte", () => {
    const folder = copy("golden-qa");
    const file = join(folder, "golden_qa.json");
    writeFileSync(file, Buffer.from(readFileSync(file, "utf8").replace("Opening hours", "Öffnungszeiten"), "latin1"));
    expect(failure(folder)).toMatch(/golden_qa\.json: \[encoding\] not UTF-8 text: invalid UTF-8 at byte \d+/);
  });
});

describe("a dataset's name and version", () => {
  it("is one name whether a golden Q&A set is given as its golden_qa.json or as its folder; a file of another name is named by it", () => {
    const folder = copy("golden-qa");
    expect(load(folder).name).toBe("golden-qa");
    expect(load(join(folder, "golden_qa.json")).name).toBe("golden-qa");
    cpSync(join(folder, "golden_qa.json"), join(folder, "..", "library-set.json"));
    expect(load(join(folder, "..", "library-set.json")).name).toBe("library-set");
    // Its version is recorded as it states it.
    expect(load(folder).version).toBe(2);
  });

  it("is the set's own `name` when it gives one, file or folder alike; never the demo corpus's", () => {
    const folder = copy("golden-qa");
    edit(join(folder, "golden_qa.json"), (t) => t.replace('"version": 2,', '"name": "larkspur-library", "version": "2026.1",'));
    expect(load(folder).name).toBe("larkspur-library");
    expect(load(join(folder, "golden_qa.json")).name).toBe("larkspur-library");
    expect(load(folder).collection).toBe("larkspur-library");
    expect(load(folder).version).toBe("2026.1");
    expect(load(folder).unmapped.map((u) => u.field)).not.toContain("/name");
    edit(join(folder, "golden_qa.json"), (t) => t.replace('"larkspur-library"', '"fixtures"'));
    expect(failure(folder)).toMatch(/names itself "fixtures", the project's demo corpus, whose floors it would share/);
    edit(join(folder, "golden_qa.json"), (t) => t.replace('"name": "fixtures"', '"name": "../up"'));
    expect(failure(folder)).toMatch(/golden_qa\.json: \/name: \[schema\] must match the pattern/);
  });
});

describe("documents that name their own ids (front matter `id`)", () => {
  it("in the suite's fixture format, are the dataset's ids, seeded and indexed as keys; elsewhere the path stays the id", () => {
    const folder = copy("fixtures-layout");
    edit(join(folder, "corpus/en/backup-settings.md"), (t) => `---\nid: "Backup settings"\n---\n${t}`);
    // A fixtures layout is another tool's: a front matter id is not read there.
    expect(load(folder).corpusIds).toContain("en/backup-settings.md");
    rmSync(join(folder, "queries.json"));
    rmSync(join(folder, "ask-cases.json"));
    writeFileSync(
      join(folder, "queries.json"),
      JSON.stringify({
        version: 1,
        queries: [{ id: "Q1", query: "backup interval", judgments: { "Backup settings": 2, "de/datensicherung.md": 1 } }],
      }),
    );
    const d = load(folder);
    expect(d.format).toBe("fixtures");
    expect([...d.corpusIds].sort()).toEqual(["Backup settings", "de/datensicherung.md", "de/tastenkuerzel.md", "en/sharing-projects.md"]);
    expect(d.corpusSource).toMatchObject({ kind: "documents", ids: "keys", files: { root: join(folder, "corpus") } });
    // Another file naming the same id is one named line.
    edit(join(folder, "corpus/en/sharing-projects.md"), (t) => `---\nid: "Backup settings"\n---\n${t}`);
    expect(failure(folder)).toMatch(
      /sharing-projects\.md: \[duplicate-id\] document id "Backup settings" is already the id of \S+backup-settings\.md/,
    );
    edit(join(folder, "corpus/en/sharing-projects.md"), (t) => t.replace('id: "Backup settings"', "id: [1, 2]"));
    expect(failure(folder)).toMatch(/sharing-projects\.md: front matter "id" must be a document id/);
  });
});

describe("a bundle with eval/golden.json", () => {
  it("reads the bundle's documents (not eval/), resolves must_cite with or without the extension, keeps expected_answer as reference text", () => {
    const d = load(join(SAMPLES, "bundle"));
    expect(d.format).toBe("bundle");
    expect([...d.corpusIds].sort()).toEqual([
      "guides/enrolment.md",
      "guides/offline-lessons.md",
      "policies/certificates.md",
      "policies/refunds.md",
    ]);
    expect(d.corpusSource).toMatchObject({ kind: "documents", ids: "paths" });
    expect(d.askCases[0]).toEqual({
      id: "refund-window",
      question: "How long after enrolling can I still get a refund?",
      category: "policy",
      mustCite: ["policies/refunds.md"],
      referenceAnswer: "Within 14 days of enrolling, if less than a quarter of the lessons are finished.",
    });
    expect(d.askCases[1]!.mustCite).toEqual(["policies/certificates.md"]);
    // A record without must_cite still has an expectation (its reference answer), and feeds no retrieval case.
    expect(d.askCases[3]).toMatchObject({ id: "team-enrolment", referenceAnswer: expect.any(String) });
    expect(d.cases.map((c) => c.id)).toEqual(["refund-window", "certificate-score", "offline-downloads"]);
    expect(d.unmapped.map((u) => u.field)).toEqual(["/*/reviewed_by", "/*/tags/1…"]);
  });

  it("names a malformed golden.json as the bundle tool does: [golden-invalid] with the line, [golden-schema] with the record", () => {
    const folder = copy("bundle");
    const file = join(folder, "eval/golden.json");
    edit(file, (t) => t.replace('"tags": ["app"],', '"tags": ["app"],,'));
    expect(failure(folder)).toMatch(
      /eval\/golden\.json: \[golden-invalid\] invalid JSON at line 21, column 21: expected a double-quoted property name/,
    );
    edit(file, (t) =>
      t.replace('"tags": ["app"],,', '"tags": ["app"],').replace('"question": "What quiz score do I need for a certificate?",', ""),
    );
    expect(failure(folder)).toMatch(
      /eval\/golden\.json: record certificate-score \(\/1\): \[golden-schema\] missing required field "question"/,
    );
    edit(file, (t) =>
      t
        .replace('"id": "certificate-score",', '"id": "certificate-score", "question": "Score?",')
        .replace('"guides/offline-lessons"', '"guides/offline"'),
    );
    expect(failure(folder)).toMatch(/record offline-downloads \(\/2\/must_cite\): \[unknown-document\] cites "guides\/offline"/);
  });
});

describe("a fixtures layout", () => {
  it("turns judgment lists into the model's grades, keeps no relevant set when relevantDocs agree with them, names unmapped fields, numbers ask cases without an id", () => {
    const d = load(join(SAMPLES, "fixtures-layout"));
    expect(d.format).toBe("fixtures-layout");
    expect(d.cases[3]).toEqual({
      id: "q4",
      query: "Sicherung wiederherstellen",
      language: "de",
      judgments: { "de/datensicherung.md": 3, "en/backup-settings.md": 2, "de/tastenkuerzel.md": 0 },
      note: "German query; the English backup article answers it too",
    });
    // The collection of the other tool's index is reported, not kept: the query searches the dataset.
    expect(d.cases[1]).not.toHaveProperty("collection");
    expect(d.askCases.map((c) => c.id)).toEqual(["ask1", "ask-2", "ask3"]);
    // mockSources, the documents a stub answerer is given, are the case's given sources, with their texts.
    expect(d.askCases[0]).toEqual({
      id: "ask1",
      question: "How long are backups kept?",
      expectedTopics: ["10 days", "oldest deleted first"],
      givenSources: [{ docId: "en/backup-settings.md", text: expect.stringContaining("Backups are kept for 10 days") }],
    });
    expect(d.askCases[1]).not.toHaveProperty("givenSources");
    expect(d.unmapped.map((u) => [u.field, u.why.split(";")[0]])).toEqual([
      ["/*/collection", "names a collection of the other tool's index"],
    ]);
    expect(d.declaredLanguages.get("de/tastenkuerzel.md")).toBe("de");
  });

  it.each([
    [
      "a relevance out of range",
      (t: string) =>
        t.replace('{ "docid": "en/backup-settings.md", "relevance": 3 }', '{ "docid": "en/backup-settings.md", "relevance": 5 }'),
      /queries\.json: query q1 \(\/0\/judgments\/0\/relevance\): \[schema\] must be at most 3 \(got 5\)/,
    ],
    [
      "a judgment of a document the corpus lacks",
      (t: string) => t.replace('{ "docid": "de/tastenkuerzel.md", "relevance": 0 }', '{ "docid": "de/tastatur.md", "relevance": 0 }'),
      /query q4 \(\/3\/judgments\): \[unknown-document\] judges "de\/tastatur\.md"/,
    ],
  ])("%s is one named line", (_what, change, message) => {
    const folder = copy("fixtures-layout");
    edit(join(folder, "queries.json"), change);
    expect(failure(folder)).toMatch(message);
  });
});

describe("a question/reference JSONL file", () => {
  it("makes reference contexts the corpus and the retrieval judgments, the reference the reference answer, and reports system outputs as not mapped", () => {
    const d = load(join(SAMPLES, "qa-jsonl/golden.jsonl"));
    expect(d.format).toBe("qa-jsonl");
    expect(d.corpusIds).toEqual(["sorting-glass", expect.stringMatching(/^ctx-[0-9a-f]{12}$/), "batteries", "recycling-yard"]);
    expect(d.cases.map((c) => [c.id, Object.keys(c.judgments)])).toEqual([
      ["line-1", ["sorting-glass"]],
      ["line-2", [d.corpusIds[1]]],
      ["line-3", ["sorting-glass"]],
      ["7", ["batteries", "recycling-yard"]],
    ]);
    expect(d.askCases.map((c) => c.id)).toEqual(["line-1", "line-2", "line-3", "7", "line-5"]);
    // The contexts the reference is grounded in are the case's given sources too (the given-sources lane).
    expect(d.askCases[1]).toEqual({
      id: "line-2",
      question: "How often is the blue paper bin emptied?",
      referenceAnswer: "Every second Tuesday.",
      givenSources: [{ docId: d.corpusIds[1], text: expect.stringContaining("emptied every second Tuesday") }],
    });
    expect(d.askCases.find((c) => c.id === "line-5")).not.toHaveProperty("givenSources");
    expect(d.unmapped.map((u) => u.field)).toEqual(["/response", "/retrieved_contexts"]);
    expect(d.derivedCases).toBe(false);
  });

  it.each([
    [
      "a line that is not JSON",
      (t: string) => t.replace('{"question": "How often', '{"question": How often'),
      /golden\.jsonl: line 2 \(\/\): \[invalid-json\] invalid JSON at column 14/,
    ],
    [
      "a record without a question",
      (t: string) => t.replace('"user_input": "Where can I return used batteries?", ', ""),
      /golden\.jsonl: line 4 \(\/\): \[schema\] missing required field "question"/,
    ],
    [
      "a record with nothing to measure",
      (t: string) => t.replace(', "reference": "Up to two cubic metres a week, free of charge."', ""),
      /golden\.jsonl: line 5 \(\/\): \[no-expectation\] the record has neither a reference answer nor reference contexts/,
    ],
    [
      "one context id naming two texts",
      (t: string) =>
        t.replace(
          '"reference_context_ids": ["batteries", "recycling-yard"]',
          '"reference_context_ids": ["sorting-glass", "recycling-yard"]',
        ),
      /golden\.jsonl: line 4 \(\/reference_context_ids\/0\): \[duplicate-id\] "sorting-glass" names another text on line 1/,
    ],
  ])("%s is one named line", (_what, change, message) => {
    const folder = copy("qa-jsonl");
    edit(join(folder, "golden.jsonl"), change);
    expect(failure(join(folder, "golden.jsonl"))).toMatch(message);
  });
});

describe("detection", () => {
  it("names what it looked for when nothing matches, and refuses a format the source does not hold", () => {
    const empty = mkdtempSync(join(tmpdir(), "nothing-"));
    dirs.push(empty);
    expect(failure(empty)).toMatch(/EVAL_DATASET: .*: not a dataset the suite reads: found none of queries\.json/);
    expect(failure(join(SAMPLES, "bundle"), "beir")).toMatch(
      /EVAL_DATASET_FORMAT=beir, but the folder does not hold that format \(looked for corpus\.jsonl\)/,
    );
    expect(failure(join(SAMPLES, "bundle"), "csv")).toMatch(
      /^EVAL_DATASET_FORMAT must be one of fixtures, fixtures-layout, bundle, golden-qa, beir, qa-jsonl, got "csv"$/,
    );
    expect(() => loadDataset({ EVAL_DATASET_FORMAT: "beir" })).toThrow(
      /EVAL_DATASET_FORMAT names the format of EVAL_DATASET, which is not set/,
    );
    expect(failure("/no/such/place")).toBe("EVAL_DATASET: /no/such/place: cannot read: no such folder or file");
  });

  it("names a user's folder called fixtures after its parent too, so it never shares the demo corpus's floors", () => {
    const parent = mkdtempSync(join(tmpdir(), "evals-"));
    dirs.push(parent);
    cpSync(join(SAMPLES, "fixtures-layout"), join(parent, "fixtures"), { recursive: true });
    expect(load(join(parent, "fixtures")).name).toMatch(/^evals-.*-fixtures$/);
  });
});
