/**
 * Validity (docs/engine.md, Validity): validFrom, validUntil and supersedes from front matter and
 * JSONL, chains, the instant of a change, every bad input, and the same rule in every mode, tier
 * and in ask().
 */
import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine, type SearchResult } from "../src/index.js";
import { parseInstant } from "../src/ingest/validity.js";
import { tempDir, writeFiles } from "./helpers.js";

const front = (fields: Record<string, string>, body: string): string =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n${body}`;

/** A chain of three prices, a policy with an end date, a reversed decision, and a document without validity. */
const CORPUS: Record<string, string> = {
  "en/prices/plus-2023.md": front(
    { validFrom: "2023-01-01" },
    "# Plus plan price\n\nThe Plus plan costs 4.99 euros per month, billed monthly.",
  ),
  "en/prices/plus-2024.md": front(
    { validFrom: "2024-09-01", supersedes: "en/prices/plus-2023.md" },
    "# Plus plan price from September 2024\n\nThe Plus plan costs 5.99 euros per month, billed monthly.",
  ),
  "en/prices/plus-2025.md": front(
    { validFrom: "2025-03-01T00:00:00Z", supersedes: "[en/prices/plus-2024.md]" },
    "# Plus plan price from March 2025\n\nThe Plus plan costs 6.99 euros per month, billed monthly.",
  ),
  "en/support/holiday-hours.md": front(
    { validFrom: "2024-12-20", validUntil: "2025-01-06" },
    "# Holiday support hours\n\nDuring the holidays the support desk answers from 10:00 to 14:00 only.",
  ),
  "en/support/hours.md": "# Support hours\n\nThe support desk answers tickets from 08:00 to 18:00 on working days.",
  "en/decisions/retention-90.md": "# Trash retention decision\n\nDeleted files stay in the trash for 90 days on every plan.",
  "en/decisions/retention-30.md": front(
    { validFrom: "2024-09-01", supersedes: "en/decisions/retention-90.md" },
    "# Trash retention decision revised\n\nDeleted files stay in the trash for 30 days on the Free plan.",
  ),
};

const dir = tempDir("engine-validity-");
let engine: Engine;
beforeAll(async () => {
  writeFiles(join(dir, "corpus"), CORPUS);
  engine = Engine.open(join(dir, "index.db"), { create: true });
  await engine.index(join(dir, "corpus"));
});
afterAll(() => engine?.close());

const ids = (r: SearchResult): string[] => r.results.map((h) => h.docId);
const PRICES = ["en/prices/plus-2023.md", "en/prices/plus-2024.md", "en/prices/plus-2025.md"];
const prices = (r: SearchResult): string[] => ids(r).filter((id) => PRICES.includes(id));

type Mode = "search" | "vsearch" | "fast" | "balanced" | "thorough";
const MODES: Mode[] = ["search", "vsearch", "fast", "balanced", "thorough"];
async function run(mode: Mode, text: string, options: { asOf?: string | Date; includeSuperseded?: boolean } = {}): Promise<SearchResult> {
  if (mode === "search") return engine.search(text, options);
  if (mode === "vsearch") return engine.vsearch(text, options);
  return engine.query(text, { ...options, tier: mode });
}

describe("dates are UTC", () => {
  it("reads dates, date-times and offsets as instants", () => {
    expect(parseInstant("2024-09-01")).toBe(Date.UTC(2024, 8, 1));
    expect(parseInstant("2024-09-01T08:30")).toBe(Date.UTC(2024, 8, 1, 8, 30));
    expect(parseInstant("2024-09-01T08:30:00Z")).toBe(Date.UTC(2024, 8, 1, 8, 30));
    expect(parseInstant("2024-09-01T08:30:00.250+02:00")).toBe(Date.UTC(2024, 8, 1, 6, 30, 0, 250));
    expect(parseInstant("2024-09-01T00:00:00-05:00")).toBe(Date.UTC(2024, 8, 1, 5));
  });
  it("refuses what is not a date or names a day that does not exist", () => {
    for (const bad of [
      "2024-02-30",
      "2024-13-01",
      "2023-02-29",
      "24-09-01",
      "2024/09/01",
      "yesterday",
      "2024-09-01T25:00Z",
      "2024-09-01Z",
      "",
    ]) {
      expect(parseInstant(bad), bad).toBeUndefined();
    }
    expect(parseInstant("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
  });
});

describe("a chain of three, in every mode and tier", () => {
  it.each(MODES)("%s: by default only the price in force now", async (mode) => {
    const r = await run(mode, "Plus plan price per month");
    expect(prices(r)).toEqual(["en/prices/plus-2025.md"]);
    const stage = r.trace.find((s) => s.stage === "validity")!;
    expect(stage.input).toMatchObject({ instant: "now", includeSuperseded: false });
    const hidden = (stage.output as { hidden: Array<{ docId: string; reason: string }> }).hidden;
    expect(hidden).toContainEqual({ docId: "en/prices/plus-2023.md", kind: "superseded", reason: "superseded by en/prices/plus-2025.md" });
    expect(hidden).toContainEqual({ docId: "en/prices/plus-2024.md", kind: "superseded", reason: "superseded by en/prices/plus-2025.md" });
    expect(r.trace[0]!.stage === "validity" || r.trace[0]!.stage === "expansion").toBe(true);
  });

  it.each(MODES)("%s: asOf replays each instant of the chain, changes exactly at validFrom", async (mode) => {
    const at = async (asOf: string): Promise<string[]> => prices(await run(mode, "Plus plan price per month", { asOf }));
    expect(await at("2022-12-31T23:59:59.999Z")).toEqual([]);
    expect(await at("2023-01-01")).toEqual(["en/prices/plus-2023.md"]);
    expect(await at("2024-08-31T23:59:59.999Z")).toEqual(["en/prices/plus-2023.md"]);
    expect(await at("2024-09-01")).toEqual(["en/prices/plus-2024.md"]);
    // 2024-09-01T01:00+02:00 is 2024-08-31T23:00Z: still the old price.
    expect(await at("2024-09-01T01:00:00+02:00")).toEqual(["en/prices/plus-2023.md"]);
    expect(await at("2025-02-28T23:59:59Z")).toEqual(["en/prices/plus-2024.md"]);
    expect(await at("2025-03-01T00:00:00Z")).toEqual(["en/prices/plus-2025.md"]);
  });

  it.each(MODES)("%s: includeSuperseded brings the old prices back, marked stale", async (mode) => {
    const r = await run(mode, "Plus plan price per month", { includeSuperseded: true });
    expect([...prices(r)].sort()).toEqual(PRICES);
    const byId = new Map(r.results.map((h) => [h.docId, h.validity]));
    expect(byId.get("en/prices/plus-2025.md")).toMatchObject({ stale: false, supersedes: ["en/prices/plus-2024.md"], supersededBy: [] });
    expect(byId.get("en/prices/plus-2023.md")).toMatchObject({
      stale: true,
      reason: "superseded by en/prices/plus-2025.md",
      supersededBy: ["en/prices/plus-2024.md"],
      validFrom: "2023-01-01T00:00:00.000Z",
    });
    expect(byId.get("en/prices/plus-2024.md")).toMatchObject({ stale: true });
  });
});

describe("windows and reversals", () => {
  it("a policy with an end date: valid up to, not at, its validUntil", async () => {
    const holiday = "en/support/holiday-hours.md";
    const found = (r: SearchResult): boolean => ids(r).includes(holiday);
    expect(found(engine.search("holiday support desk hours"))).toBe(false);
    expect(found(engine.search("holiday support desk hours", { asOf: "2024-12-19T23:59:59Z" }))).toBe(false);
    expect(found(engine.search("holiday support desk hours", { asOf: "2024-12-20" }))).toBe(true);
    expect(found(engine.search("holiday support desk hours", { asOf: "2025-01-05T23:59:59.999Z" }))).toBe(true);
    expect(found(engine.search("holiday support desk hours", { asOf: "2025-01-06" }))).toBe(false);
    const kept = engine.search("holiday support desk hours", { includeSuperseded: true }).results.find((h) => h.docId === holiday);
    expect(kept?.validity).toMatchObject({ stale: true, reason: "no longer valid (validUntil 2025-01-06T00:00:00.000Z)" });
    const early = engine.search("holiday support desk hours", { asOf: "2024-12-01", includeSuperseded: true });
    expect(early.results.find((h) => h.docId === holiday)?.validity?.reason).toBe("not valid yet (validFrom 2024-12-20T00:00:00.000Z)");
  });

  it("a document without validity is superseded once its successor takes effect", async () => {
    expect(ids(engine.search("trash retention decision"))).toEqual(["en/decisions/retention-30.md"]);
    expect(ids(engine.search("trash retention decision", { asOf: new Date(Date.UTC(2024, 7, 31)) }))).toEqual([
      "en/decisions/retention-90.md",
    ]);
  });

  it("a Date and a string asOf agree; a bad asOf or includeSuperseded is refused", async () => {
    expect(ids(engine.search("Plus plan price", { asOf: new Date("2024-10-01T00:00:00Z") }))).toEqual(
      ids(engine.search("Plus plan price", { asOf: "2024-10-01" })),
    );
    expect(() => engine.search("x", { asOf: "2024-02-30" })).toThrow(/Expected "asOf" to be a date: .*UTC.*got "2024-02-30"/);
    expect(() => engine.search("x", { asOf: new Date("nonsense") })).toThrow(RangeError);
    expect(() => engine.search("x", { includeSuperseded: "yes" as unknown as boolean })).toThrow(/includeSuperseded/);
  });
});

describe("ask states what was valid at the instant and cites only then-valid sources", () => {
  const question = "How much does the Plus plan cost per month?";
  it.each([
    [undefined, "6.99", "en/prices/plus-2025.md"],
    ["2024-10-01", "5.99", "en/prices/plus-2024.md"],
    ["2024-01-15", "4.99", "en/prices/plus-2023.md"],
  ])("asOf %s: %s", async (asOf, price, doc) => {
    for (const tier of ["fast", "balanced", "thorough"] as const) {
      const r = await engine.ask(question, { tier, ...(asOf ? { asOf } : {}) });
      expect(r.refused).toBe(false);
      expect(r.answer).toContain(price);
      expect(r.citations.map((c) => c.docId)).toEqual([doc]);
      // No other price is even a source.
      expect(new Set(r.sources.map((s) => s.docId).filter((id) => PRICES.includes(id)))).toEqual(new Set([doc]));
      expect(r.trace[0]!.stage === "validity" || r.trace[0]!.stage === "expansion").toBe(true);
    }
  });
  it("with includeSuperseded the stale sources are marked", async () => {
    const r = await engine.ask(question, { includeSuperseded: true });
    const stale = r.sources.filter((s) => s.validity?.stale).map((s) => s.docId);
    expect(stale).toContain("en/prices/plus-2023.md");
    expect(r.sources.find((s) => s.docId === "en/prices/plus-2025.md")?.validity?.stale).toBe(false);
  });
});

describe("an index without validity ranks and traces as before", () => {
  it("adds no validity stage and no validity field", async () => {
    const plain = tempDir("engine-validity-plain-");
    writeFiles(join(plain, "c"), { "en/a.md": "# Support hours\n\nFrom 8 to 18.", "en/b.md": "# Prices\n\nPlus costs 4.99." });
    const e = Engine.open(join(plain, "i.db"), { create: true });
    try {
      await e.index(join(plain, "c"));
      const r = await e.query("support hours", { tier: "balanced" });
      expect(r.trace.map((s) => s.stage)).toEqual(["bm25", "vector", "fusion", "rerank"]);
      expect(r.results[0]).not.toHaveProperty("validity");
      // Asking about validity on such an index says so.
      const asked = e.search("support hours", { asOf: "2024-01-01" });
      expect(asked.trace[0]).toMatchObject({ stage: "validity", note: "no document declares validity" });
    } finally {
      e.close();
    }
  });
});

describe("bad input: one line naming the document and the field, nothing indexed", () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      "an invalid date",
      { "en/a.md": front({ validFrom: "2024-02-30" }, "# A\n\ntext") },
      /en\/a\.md:2: validFrom "2024-02-30" is not a date: /,
    ],
    [
      "a date that is no string",
      { "en/a.md": front({ validUntil: "2024" }, "# A\n\ntext") },
      /en\/a\.md:2: validUntil a number is not a date/,
    ],
    ["a list as a date", { "en/a.md": front({ validFrom: "[2024-01-01]" }, "# A\n\ntext") }, /en\/a\.md:2: validFrom a list is not a date/],
    [
      "validUntil before validFrom",
      { "en/a.md": front({ validFrom: "2024-06-01", validUntil: "2024-01-01" }, "# A\n\ntext") },
      /en\/a\.md:3: validUntil 2024-01-01T00:00:00\.000Z is not after validFrom 2024-06-01T00:00:00\.000Z/,
    ],
    [
      "an empty window",
      { "en/a.md": front({ validFrom: "2024-06-01", validUntil: "2024-06-01T00:00:00Z" }, "# A\n\ntext") },
      /en\/a\.md:3: validUntil .* is not after validFrom/,
    ],
    [
      "self-supersession",
      { "en/a.md": front({ supersedes: "en/a.md" }, "# A\n\ntext") },
      /en\/a\.md:2: supersedes names the document itself \("en\/a\.md"\)/,
    ],
    [
      "a supersedes that is not an id",
      { "en/a.md": front({ supersedes: "{ id: x }" }, "# A\n\ntext") },
      /en\/a\.md:2: supersedes must be a document id or a list of them/,
    ],
    [
      "an unknown id",
      { "en/a.md": front({ supersedes: "en/missing.md" }, "# A\n\ntext") },
      /en\/a\.md:2: supersedes "en\/missing\.md", which is not a document of this collection/,
    ],
    [
      "a cycle",
      {
        "en/a.md": front({ supersedes: "en/b.md" }, "# A\n\ntext"),
        "en/b.md": front({ supersedes: "en/c.md" }, "# B\n\ntext"),
        "en/c.md": front({ supersedes: "en/a.md" }, "# C\n\ntext"),
      },
      /en\/c\.md:2: supersedes forms a cycle: en\/a\.md → en\/b\.md → en\/c\.md → en\/a\.md/,
    ],
  ];
  it.each(cases)("%s (front matter)", async (_name, files, message) => {
    const root = tempDir("engine-validity-bad-");
    writeFiles(join(root, "corpus"), { "en/ok.md": "# Fine\n\nA document that is fine.", ...files });
    const db = join(root, "index.db");
    const e = Engine.open(db, { create: true });
    try {
      const error = await e.index(join(root, "corpus")).then(
        () => undefined,
        (err: unknown) => err as Error & { code: string },
      );
      expect(error?.code).toBe("INVALID_VALIDITY");
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toContain("\n");
      expect(e.stats().documents).toBe(0);
    } finally {
      e.close();
    }
  });

  const jsonl: Array<[string, object[], RegExp]> = [
    [
      "an invalid date",
      [{ _id: "a", text: "x", validFrom: "2024-13-01" }],
      /corpus\.jsonl:1: record "a": validFrom "2024-13-01" is not a date/,
    ],
    [
      "validUntil before validFrom",
      [{ _id: "a", text: "x", validFrom: "2024-02-01", validUntil: "2024-01-31T23:59:59Z" }],
      /corpus\.jsonl:1: record "a": validUntil .* is not after validFrom/,
    ],
    ["self-supersession", [{ _id: "a", text: "x", supersedes: ["a"] }], /record "a": supersedes names the document itself/],
    [
      "an unknown id",
      [
        { _id: "a", text: "x" },
        { _id: "b", text: "y", supersedes: ["c"] },
      ],
      /corpus\.jsonl:2: record "b": supersedes "c", which is not/,
    ],
    [
      "a cycle",
      [
        { _id: "a", text: "x", supersedes: "b" },
        { _id: "b", text: "y", supersedes: "a" },
      ],
      /corpus\.jsonl:2: record "b": supersedes forms a cycle: a → b → a/,
    ],
  ];
  it.each(jsonl)("%s (JSONL), and an existing index is left as it was", async (_name, records, message) => {
    const root = tempDir("engine-validity-jsonl-");
    const file = join(root, "corpus.jsonl");
    writeFileSync(file, `${JSON.stringify({ _id: "old", text: "an earlier corpus" })}\n`);
    const e = Engine.open(join(root, "index.db"), { create: true });
    try {
      await e.index(file);
      writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n"));
      await expect(e.index(file)).rejects.toMatchObject({ code: "INVALID_VALIDITY", message: expect.stringMatching(message) });
      expect(e.search("earlier corpus").results.map((h) => h.docId)).toEqual(["old"]);
    } finally {
      e.close();
    }
  });

  it("JSONL validity is stored and applied like front matter", async () => {
    const root = tempDir("engine-validity-jsonl-ok-");
    const file = join(root, "corpus.jsonl");
    const lines = [
      { _id: "p1", title: "Price", text: "Plus costs 4.99 per month", validFrom: "2023-01-01" },
      { _id: "p2", title: "Price", text: "Plus costs 5.99 per month", validFrom: "2024-09-01", supersedes: "p1" },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
    const e = Engine.open(join(root, "index.db"), { create: true });
    try {
      await e.index(file);
      expect(e.search("Plus costs per month").results.map((h) => h.docId)).toEqual(["p2"]);
      expect(e.search("Plus costs per month", { asOf: "2024-08-31" }).results.map((h) => h.docId)).toEqual(["p1"]);
    } finally {
      e.close();
    }
  });
});

describe("schema version 1 indexes", () => {
  it("are migrated, refused for searching until indexed again, then apply validity", async () => {
    const root = tempDir("engine-validity-v1-");
    writeFiles(join(root, "corpus"), CORPUS);
    const db = join(root, "index.db");
    const e = Engine.open(db, { create: true });
    await e.index(join(root, "corpus"));
    e.close();
    // What a version-1 index looks like: no validity columns, user_version 1.
    const conn = new Database(db);
    for (const column of ["valid_from", "valid_until", "supersedes"]) conn.exec(`ALTER TABLE documents DROP COLUMN ${column}`);
    conn.pragma("user_version = 1");
    conn.close();

    const migrated = Engine.open(db);
    try {
      expect(migrated.fingerprint().schemaVersion).toBe(2);
      expect(() => migrated.search("Plus plan price")).toThrow(
        /upgraded to index schema version 2, but schema version 1 did not record validFrom, validUntil and supersedes; run `pnpm engine index` again/,
      );
      const report = await migrated.index(join(root, "corpus"));
      expect(report.documents.updated).toBe(Object.keys(CORPUS).length);
      expect(prices(migrated.search("Plus plan price per month"))).toEqual(["en/prices/plus-2025.md"]);
    } finally {
      migrated.close();
    }
  });
});
