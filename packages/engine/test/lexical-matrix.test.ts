/**
 * The lexical regression matrix at engine level: deterministic cases, one block per cell, on a
 * small corpus of two collections. The eval lane (evals/lexical.eval.ts, fixtures/lexical)
 * measures the same cells on a larger corpus; any change to tokenization or query parsing adds or
 * tightens a case here first (docs/evals.md).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../src/index.js";
import { tempDir, writeFiles } from "./helpers.js";

const NOTES: Record<string, string> = {
  "en/n01.md":
    "# Push channel\n\nClients hear about remote changes over the real-time channel. When the real-time channel drops, they poll.",
  "en/n02.md": "# Weekly review\n\nResponse time improved. The real cost was the time spent on reproductions; time will tell.",
  "en/n03.md": "# Planner\n\nThe assistant uses a multi-agent planner with a coordinator and three agents.",
  "en/n04.md": "# Routing\n\nTickets go to multiple agents in turn; the multi-step refund flow has its own queue.",
  "en/n05.md": "# Summaries\n\nLong conversations are summarized by gpt-4 before an agent reads them.",
  "en/n06.md": "# Evaluation\n\nWe compared gpt-4o and gpt-4o-mini on labelled tickets.",
  "en/n07.md": "# DEC-0054: Trash retention\n\nDeleted files stay 30 days. Supersedes DEC-0047.",
  "en/n08.md": "# DEC-0045: Upload size\n\nSingle files are limited to 100 GB. See DEC-0504.",
  "en/n09.md": "# Upload tuning\n\nThe key max_parallel_uploads sets how many files upload at once.",
  "en/n10.md": "# Download tuning\n\nThe key max_parallel_downloads sets parallel downloads; parallel uploads use another key.",
  "en/n11.md": "# Retries\n\nretryBackoffMs sets the first wait and maxRetryCount caps the attempts.",
  "en/n12.md": "# Telemetry\n\nClients report retryCount and the backoff they used.",
  "en/n13.md": "# Client settings\n\nAdvanced settings live in config.yaml next to the client.",
  "en/n14.md": "# Server settings\n\nServers read config.json and settings.yaml at start-up.",
  "en/n15.md": "# Entry points\n\nsrc/index.ts starts the bundle; src/cli.ts is the operator tool.",
  "en/n16.md": "# Tests\n\ntest/index.ts runs the suite; src/index.js is built, never committed.",
  "en/n17.md": "# SDK notes\n\nSDK v1.2.3 fixes resumable uploads.",
  "en/n18.md": "# SDK upgrade\n\nMove from v1.3.2 to v2.1.3; the build 1.2.30 was never published.",
  "en/n19.md": "# Security contacts\n\nWrite to security@tessera.example; incidents are on https://status.tessera.example/incidents.",
  "en/n20.md": "# Privacy\n\nWrite to privacy@tessera.example or use https://tessera.example/privacy. Security questions are forwarded.",
  "en/n21.md": "# Bandwidth limits\n\nThe client can cap upload and download speed per second in its network settings.",
  "en/n22.md":
    "# Office network\n\nUse wired desks where you can. Printers go on their own network. Agree on bandwidth limits for shared uplinks. Guests get a separate network.",
  "en/runbooks/quarantine.md": "# Infected uploads\n\nDisable the file's links and leave it in quarantine for the owner.",
  "en/n23.md": "# Scanning\n\nFlagged files are blocked for sharing and moved to quarantine by the scanner.",
};

const ARCHIVE: Record<string, string> = {
  "en/a01.md": "# DEC-0047: Trash retention\n\nDeleted files stay 90 days. Superseded.",
  "en/a02.md": "# Old bandwidth limits\n\nBefore 2024 the client had one bandwidth cap for both directions.",
};

let engine: Engine;
const dir = tempDir("lexical-matrix-");

beforeAll(async () => {
  writeFiles(join(dir, "notes"), NOTES);
  writeFiles(join(dir, "archive"), ARCHIVE);
  engine = Engine.open(join(dir, "index.db"), { create: true });
  await engine.index(join(dir, "notes"), { collection: "notes" });
  await engine.index(join(dir, "archive"), { collection: "archive" });
});
afterAll(() => engine.close());

const ids = (query: string, collection?: string): string[] =>
  engine.search(query, { limit: 10, ...(collection ? { collection } : {}) }).results.map((h) => h.docId);

/** [how it is written, the document that must come first, lookalikes that must not match at all] */
type IdentifierCase = [string, string, string[]];

const IDENTIFIERS: Record<string, IdentifierCase[]> = {
  "hyphen compound": [
    ["real-time", "en/n01.md", []],
    ["realtime", "en/n01.md", ["en/n02.md"]],
    ["Real-Time", "en/n01.md", []],
    ["real time", "en/n01.md", []],
    ["multi-agent", "en/n03.md", ["en/n04.md"]],
    ["multiagent", "en/n03.md", ["en/n04.md"]],
    ["gpt-4", "en/n05.md", []],
    ["GPT4", "en/n05.md", []],
  ],
  "digit-hyphen id": [
    ["DEC-0054", "en/n07.md", ["en/n08.md"]],
    ["dec 0054", "en/n07.md", []],
    ["DEC0054", "en/n07.md", ["en/n08.md"]],
    ["DEC-0045", "en/n08.md", ["en/n07.md"]],
  ],
  snake_case: [
    ["max_parallel_uploads", "en/n09.md", []],
    ["maxParallelUploads", "en/n09.md", []],
    ["MAX_PARALLEL_UPLOADS", "en/n09.md", []],
    ["max parallel uploads", "en/n09.md", []],
    ["max_parallel_downloads", "en/n10.md", []],
  ],
  camelCase: [
    ["retryBackoffMs", "en/n11.md", []],
    ["retry_backoff_ms", "en/n11.md", []],
    ["maxRetryCount", "en/n11.md", ["en/n12.md"]],
    ["retryCount", "en/n12.md", []],
  ],
  "dotted name and path": [
    ["config.yaml", "en/n13.md", ["en/n14.md"]],
    ["config yaml", "en/n13.md", []],
    ["settings.yaml", "en/n14.md", ["en/n13.md"]],
    ["src/index.ts", "en/n15.md", ["en/n16.md"]],
    ["src\\index.ts", "en/n15.md", ["en/n16.md"]],
    ["src/cli.ts", "en/n15.md", []],
  ],
  "version string": [
    ["v1.2.3", "en/n17.md", ["en/n18.md"]],
    ["1.2.3", "en/n17.md", ["en/n18.md"]],
    ["V1.2.3", "en/n17.md", ["en/n18.md"]],
    ["v2.1.3", "en/n18.md", ["en/n17.md"]],
  ],
  "e-mail and URL": [
    ["security@tessera.example", "en/n19.md", []],
    ["https://status.tessera.example/incidents", "en/n19.md", []],
    ["status.tessera.example/incidents", "en/n19.md", ["en/n20.md"]],
    ["privacy@tessera.example", "en/n20.md", []],
    ["tessera.example/privacy", "en/n20.md", []],
  ],
};

describe("identifiers are found by how they are written", () => {
  for (const [cell, cases] of Object.entries(IDENTIFIERS)) {
    it.each(cases)(`${cell}: %s → %s`, (query, expected, lookalikes) => {
      const found = ids(query);
      expect(found[0]).toBe(expected);
      for (const lookalike of lookalikes) expect(found, `${lookalike} must not match ${query}`).not.toContain(lookalike);
    });
  }

  it("ranks the exact model name above its longer lookalike (gpt-4 before gpt-4o)", () => {
    expect(ids("gpt-4").slice(0, 2)).toEqual(["en/n05.md", "en/n06.md"]);
  });
});

describe("ranking cells", () => {
  it("title outranks a passing mention in another body", () => {
    const found = ids("bandwidth limits", "notes");
    expect(found[0]).toBe("en/n21.md");
    expect(found.indexOf("en/n22.md")).toBeGreaterThan(0);
  });

  it("a path that names the topic outranks a body that mentions it as often", () => {
    const found = ids("quarantine");
    expect(found.slice(0, 2)).toEqual(["en/runbooks/quarantine.md", "en/n23.md"]);
  });
});

describe("collection filter stability", () => {
  const queries = ["trash retention", "DEC-0047", "bandwidth limits", "files", "real-time"];

  it.each(queries)("BM25 %j within a collection equals the unfiltered ranking restricted to it", (query) => {
    for (const collection of ["notes", "archive"]) {
      const all = engine.search(query, { limit: 100 }).results.filter((h) => h.collection === collection);
      const filtered = engine.search(query, { limit: 100, collection }).results;
      expect(filtered.map((h) => [h.docId, h.score])).toEqual(all.map((h) => [h.docId, h.score]));
    }
  });

  it("every tier returns only the collection asked for, the same way twice", async () => {
    for (const tier of ["fast", "balanced", "thorough"] as const) {
      let checked = 0;
      for (const query of queries) {
        const first = await engine.query(query, { tier, collection: "archive" });
        checked += first.results.length;
        expect(
          first.results.every((h) => h.collection === "archive"),
          `${tier} ${query}`,
        ).toBe(true);
        const again = await engine.query(query, { tier, collection: "archive" });
        expect(again.results.map((h) => h.docId)).toEqual(first.results.map((h) => h.docId));
      }
      expect(checked, `${tier}: no query returned anything to check`).toBeGreaterThan(0);
    }
  });

  it("puts the archived record first within the archive although the notes match too", () => {
    expect(ids("trash retention", "archive")[0]).toBe("en/a01.md");
    expect(ids("trash retention", "notes")[0]).toBe("en/n07.md");
    expect(ids("DEC-0054", "archive")).toEqual([]);
    // A collection the index does not have is a mistake to name, not an empty result.
    expect(() => ids("trash retention", "no-such-collection")).toThrow(
      /Unknown collection "no-such-collection"; this index has "archive", "notes"/,
    );
  });
});

describe("malformed lexical input is stable", () => {
  const WRAPPERS: Array<(id: string) => string> = [
    (id) => `"${id}`,
    (id) => `${id}"`,
    (id) => `(${id}`,
    (id) => `${id})`,
    (id) => `${id}*`,
    (id) => `-${id}`,
    (id) => `^${id}`,
    (id) => `NOT ${id}`,
    (id) => `${id} AND OR`,
    (id) => `NEAR(${id}`,
    (id) => `${id}:`,
    (id) => `title:${id}`,
    (id) => `{${id}}`,
    (id) => `  ${id}\t\n`,
  ];
  const anchors = [
    "DEC-0054",
    "config.yaml",
    "max_parallel_uploads",
    "real-time",
    "security@tessera.example",
    "v1.2.3",
    "src/index.ts",
    "retryBackoffMs",
  ];

  it.each(anchors)("%s wrapped in query syntax still finds its document first, at every tier", async (anchor) => {
    const expected = ids(anchor)[0];
    for (const wrap of WRAPPERS) {
      const query = wrap(anchor);
      expect(ids(query)[0], JSON.stringify(query)).toBe(expected);
      for (const tier of ["balanced", "thorough"] as const) {
        const { results } = await engine.query(query, { tier });
        expect(results.length, `${tier} ${JSON.stringify(query)}`).toBeGreaterThan(0);
      }
    }
  });

  it("symbol-only and empty input returns an empty list with a note, never an error", () => {
    for (const query of ["", "   ", '"', "***", "()", "-^", "：、。", "\u3099"]) {
      const response = engine.search(query);
      expect(response.results, JSON.stringify(query)).toEqual([]);
      expect(response.trace[0]!.note).toContain("no searchable terms");
    }
  });
});
