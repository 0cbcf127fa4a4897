import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Engine } from "../src/index.js";
import { smallCorpusEngine, writeFiles } from "./helpers.js";

const setup = smallCorpusEngine();

const topIds = (text: string): string[] => setup.engine.search(text, { limit: 3 }).results.map((h) => h.docId);

describe("BM25 finds identifiers by how they are written", () => {
  it.each([
    ["real-time", "en/realtime.md"],
    ["realtime", "en/realtime.md"],
    ["real time", "en/realtime.md"],
    ["gpt-4", "en/models.md"],
    ["GPT4", "en/models.md"],
    ["DEC-0054", "en/decisions/dec-0054.md"],
    ["dec0054", "en/decisions/dec-0054.md"],
    ["dec 0054", "en/decisions/dec-0054.md"],
    ["max_parallel_uploads", "en/config.md"],
    ["maxParallelUploads", "en/config.md"],
    ["maxRetryCount", "en/config.md"],
    ["max_retry_count", "en/config.md"],
    ["config.yaml", "en/config.md"],
    ["src/index.ts", "en/config.md"],
    ["v1.2.3", "en/config.md"],
    ["privacy@tessera.example", "en/config.md"],
    ["https://status.tessera.example/incidents", "en/config.md"],
    ["Kündigung", "de/kuendigung.md"],
    ["Kundigung", "de/kuendigung.md"],
    ["Kuendigung", "de/kuendigung.md"],
    ["kündigen", "de/kuendigung.md"],
    ["Größe", "de/groesse.md"],
    ["Grosse", "de/groesse.md"],
    ["résilier", "fr/resiliation.md"],
    ["resilier", "fr/resiliation.md"],
    ["disdire abbonamento", "it/disdetta.md"],
    ["取消订阅", "zh/sync.md"],
    ["同期クライアント", "ja/sync.md"],
    ["구독 해지", "ko/sync.md"],
  ])("%s → %s", (query, expected) => {
    expect(topIds(query)[0]).toBe(expected);
  });

  it("ranks DEC-0054 first and the record it mentions (DEC-0047) after it", () => {
    expect(topIds("DEC-0047")).toEqual(["en/decisions/dec-0047.md", "en/decisions/dec-0054.md"]);
  });
});

describe("results and filters", () => {
  it("returns document-level hits with passage ids, ranks, snippets and higher-is-better scores", () => {
    const { results } = setup.engine.search("cancel subscription");
    expect(results[0]).toMatchObject({
      rank: 1,
      docId: "en/billing.md",
      collection: "corpus",
      language: "en",
      title: "Cancel your subscription",
    });
    expect(results[0]!.passageId).toMatch(/^en\/billing\.md#\d+$/);
    expect(results[0]!.snippet).toContain("cancel");
    for (let i = 1; i < results.length; i++) expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
    expect(new Set(results.map((r) => r.docId)).size).toBe(results.length);
  });

  it("filters by language and collection, and respects the limit", () => {
    const de = setup.engine.search("Abonnement abonnement abbonamento", { language: "de" }).results;
    expect(de.length).toBeGreaterThan(0);
    expect(de.every((h) => h.language === "de")).toBe(true);
    expect(setup.engine.search("files", { collection: "corpus" }).results.length).toBeGreaterThan(0);
    expect(() => setup.engine.search("files", { collection: "no-such-collection" })).toThrow(
      /Unknown collection "no-such-collection"; this index has "corpus"/,
    );
    expect(setup.engine.search("files", { limit: 2 }).results).toHaveLength(2);
  });

  it("rejects bad options with errors that name them", () => {
    expect(() => setup.engine.search("x", { limit: 0 })).toThrow(/"limit" to be an integer/);
    expect(() => setup.engine.search("x", { limt: 3 } as never)).toThrow(/Unknown search option "limt"; did you mean "limit"/);
    expect(() => setup.engine.search(42 as never)).toThrow(TypeError);
  });
});

describe("vectors", () => {
  it("vsearch finds documents by spelling similarity (the offline embedder's honest strength)", async () => {
    const { results, trace } = await setup.engine.vsearch("subscripton cancelation");
    expect(results[0]!.docId).toBe("en/billing.md");
    expect(trace.map((s) => s.stage)).toEqual(["vector"]);
    expect(trace[0]!.input).toMatchObject({ embedder: "offline/hashed-char-ngram-v2-384", dimensions: 384 });
  });
});

describe("a hyphenated word the index holds in no form falls back to its parts", () => {
  const cpi = smallCorpusEngine();

  it("finds `CPI Maßstab` written as `CPI-Maßstab`, at every tier", async () => {
    const { dir } = cpi;
    writeFiles(join(dir, "cpi"), {
      "de/cpi.md": "# Verbraucherpreise\n\nDer CPI ist der wichtigste Maßstab für die Teuerung der Lebenshaltung.",
      "de/andere.md": "# Andere Dinge\n\nHier geht es um etwas völlig anderes als Preise.",
    });
    const engine = Engine.open(join(dir, "cpi.db"), { create: true });
    try {
      await engine.index(join(dir, "cpi"));
      expect(engine.search("CPI Maßstab").results[0]?.docId).toBe("de/cpi.md");
      const match = engine.search("Was misst der CPI-Maßstab?").trace[0]!.input.match as string;
      expect(match).toContain('"cpi"');
      for (const tier of ["fast", "balanced", "thorough"] as const) {
        expect((await engine.query("Was misst der CPI-Maßstab?", { tier })).results[0]?.docId, tier).toBe("de/cpi.md");
      }
      // Where the joined form or the phrase exists, the compound stays one term.
      expect(setup.engine.search("real-time").trace[0]!.input.match).toMatch(/^\("realtime" OR "real time"( OR "[^"]+")*\)$/);
    } finally {
      engine.close();
    }
  });
});
