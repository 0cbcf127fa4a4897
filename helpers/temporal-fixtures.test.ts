import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FixtureError, loadTemporalCases, TEMPORAL_CHANGES, TEMPORAL_DIR, type TemporalCase } from "./fixture-files.js";

describe("the temporal lane fixtures", () => {
  const cases = loadTemporalCases();

  it("cover the four languages and every kind of change, each kind with five cases or more", () => {
    expect(new Set(cases.map((c) => c.language))).toEqual(new Set(["en", "de", "fr", "it"]));
    for (const change of TEMPORAL_CHANGES) expect(cases.filter((c) => c.change === change).length, change).toBeGreaterThanOrEqual(5);
  });

  it("ask about now and about earlier instants, including the exact instant of a change", () => {
    expect(cases.some((c) => c.asOf === undefined)).toBe(true);
    expect(cases.some((c) => c.asOf === "2024-09-01")).toBe(true);
    expect(cases.some((c) => c.asOf?.includes("+01:00"))).toBe(true);
  });

  it("hold at least ten documents in validity chains, a chain of three among them", () => {
    const corpus = join(TEMPORAL_DIR, "corpus");
    const declaring = cases
      .flatMap((c) => [...c.valid, ...c.stale])
      .filter((d, i, all) => all.indexOf(d) === i)
      .filter((d) => /^---\n[\s\S]*?valid(?:From|Until)|supersedes/.test(readFileSync(join(corpus, d), "utf8")));
    expect(declaring.length).toBeGreaterThanOrEqual(10);
    expect(cases.some((c) => c.stale.length === 2 && c.asOf === undefined)).toBe(true);
  });
});

/** A writable copy of fixtures/temporal in a temp folder, for mutation tests. */
function copyLane(): {
  dir: string;
  cases: () => { version: number; cases: TemporalCase[] };
  write: (v: object) => void;
  doc: (id: string, text: string) => void;
} {
  const dir = mkdtempSync(join(tmpdir(), "temporal-fixtures-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(TEMPORAL_DIR, dir, { recursive: true });
  const original = readFileSync(join(TEMPORAL_DIR, "cases.json"), "utf8");
  return {
    dir,
    cases: () => JSON.parse(original),
    write: (v) => writeFileSync(join(dir, "cases.json"), JSON.stringify(v)),
    doc: (id, text) => writeFileSync(join(dir, "corpus", id), text),
  };
}

function messageOf(dir: string): string {
  try {
    loadTemporalCases({ dir });
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    const message = (error as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected the fixtures to be refused");
}

describe("a malformed temporal fixture is one line naming the file, the record and the field", () => {
  const mutations: Array<[string, (c: TemporalCase) => void, RegExp]> = [
    [
      "an asOf that is no date",
      (c) => void (c.asOf = "last March"),
      /cases\.json: case tm-en-01 \(\/cases\/0\/asOf\): must match the pattern .* \(got "last March"\)/,
    ],
    [
      "an asOf on a day that does not exist",
      (c) => void (c.asOf = "2024-02-30"),
      /case tm-en-01 \(\/cases\/0\/asOf\): "2024-02-30" is not a day that exists/,
    ],
    [
      "an unknown kind of change",
      (c) => void ((c as { change: string }).change = "edit"),
      /case tm-en-01 \(\/cases\/0\/change\): must be one of price, reversal, end-date, chain \(got "edit"\)/,
    ],
    ["no stale document", (c) => void (c.stale = []), /case tm-en-01 \(\/cases\/0\/stale\): must list at least one item/],
    [
      "a document both valid and stale",
      (c) => void (c.stale = [...c.stale, ...c.valid]),
      /case tm-en-01 \(\/cases\/0\/stale\): lists en\/doc-02\.md, also listed as valid/,
    ],
    [
      "a valid document that is superseded",
      (c) => void (c.valid = ["en/doc-01.md"]),
      /case tm-en-01 \(\/cases\/0\/valid\/0\): en\/doc-01\.md is superseded by|case tm-en-01 \(\/cases\/0\/stale\): lists en\/doc-01\.md, also listed as valid/,
    ],
    [
      "a stale document that is valid at the instant",
      (c) => void (c.stale = ["en/doc-06.md"]),
      /case tm-en-01 \(\/cases\/0\/stale\/0\): en\/doc-06\.md is in its window at the case's instant and no valid document of the case supersedes it/,
    ],
    [
      "a fact no valid document states",
      (c) => void (c.expectedSubstrings = ["7.99"]),
      /case tm-en-01 \(\/cases\/0\/expectedSubstrings\/0\): "7\.99" does not occur in any valid document/,
    ],
    [
      "a forbidden fact no stale document states",
      (c) => void (c.forbiddenSubstrings = ["9.99"]),
      /case tm-en-01 \(\/cases\/0\/forbiddenSubstrings\/0\): "9\.99" does not occur in any stale document/,
    ],
    [
      "a document of another language",
      (c) => void (c.valid = ["de/doc-02.md"]),
      /case tm-en-01 \(\/cases\/0\/valid\): lists de\/doc-02\.md, not in the case's language "en"/,
    ],
  ];
  it.each(mutations)("%s", (_name, mutate, message) => {
    const lane = copyLane();
    const file = lane.cases();
    mutate(file.cases[0]!);
    lane.write(file);
    expect(messageOf(lane.dir)).toMatch(message);
  });

  const frontMatter: Array<[string, string, RegExp]> = [
    [
      "validFrom that is no date",
      "validFrom: soon",
      /corpus\/en\/doc-02\.md: front matter \(\/validFrom\): must match the pattern .* \(got "soon"\)/,
    ],
    [
      "validFrom on a day that does not exist",
      "validFrom: 2024-09-31",
      /en\/doc-02\.md: front matter \(\/validFrom\): "2024-09-31" is not a day that exists/,
    ],
    [
      "validUntil before validFrom",
      "validFrom: 2024-09-01\nvalidUntil: 2024-08-01",
      /en\/doc-02\.md: front matter \(\/validUntil\): must be after validFrom \(2024-09-01\), got "2024-08-01"/,
    ],
    ["self-supersession", "supersedes: en/doc-02.md", /en\/doc-02\.md: front matter \(\/supersedes\): names the document itself/],
    [
      "an unknown id",
      "supersedes: [en/doc-99.md]",
      /en\/doc-02\.md: front matter \(\/supersedes\/0\): "en\/doc-99\.md" is not a document of the lane's corpus/,
    ],
    ["an unknown field", "valid_from: 2024-09-01", /en\/doc-02\.md: front matter \(\/valid_from\): unknown field "valid_from"/],
  ];
  it.each(frontMatter)("front matter: %s", (_name, yaml, message) => {
    const lane = copyLane();
    lane.doc("en/doc-02.md", `---\n${yaml}\n---\n# Plus plan price\n\nThe Plus plan costs 5.99 euros per month.\n`);
    expect(messageOf(lane.dir)).toMatch(message);
  });
});
