/**
 * `pnpm eval` end to end on systems that do not speak the target contract: a target module over a third-party search library (MiniSearch), an adapter for an
 * Elasticsearch-shaped cluster and one for a golden-Q&A service shaped like seed 000's, each
 * started on 127.0.0.1 by its shared run (test/shared-runs/configurations/byo.ts) and stopped; a misbehaving module (throws, the wrong shape, never
 * settles) and a misbehaving service behind an adapter (a 500, a mapping that finds nothing, a
 * header missing): each failure one labelled line, nothing scored as a success, and the planted
 * secret nowhere in what the run printed or wrote (reports, Evalite's storage, its export); and
 * an adapter file that is not one stops the run before Evalite with one line.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NO_SOURCES_MAPPED } from "../helpers/targets/kinds/http.js";
import { type EvalRun, evalInProcess, ROOT, RUN_TIMEOUT_MS } from "./eval-run.js";
import { SECRET } from "./shared-runs/configurations/byo.js";
import { sharedRun } from "./shared-runs/read.js";

const minisearch = sharedRun("byo:minisearch");
const elasticsearch = sharedRun("byo:elasticsearch");
const goldenQa = sharedRun("byo:golden-qa");
const oddModule = sharedRun("byo:odd-module");
const oddAdapter = sharedRun("byo:odd-adapter");

const work = mkdtempSync(join(tmpdir(), "byo-e2e-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Report {
  mode: string;
  models: Record<string, string | null>;
  summary: { errored: number; cases: number };
  aggregates: Array<{
    eval: string;
    base: boolean;
    metrics: Array<{ metric: string; mean: number; n: number; notScored: Record<string, number> }>;
  }>;
  target: { target: string; calls: number; clientMs: { n: number } | null; serverMs: { n: number } | null } | null;
  skipped: Array<{ eval: string; variant?: string; reason: string }>;
}

function reportOf(run: EvalRun): Report {
  const file = readdirSync(run.reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json");
  return JSON.parse(readFileSync(join(run.reportsDir, file!), "utf8")) as Report;
}

const mean = (report: Report, evalName: string, metric: string) =>
  report.aggregates.find((a) => a.eval === evalName && a.base)!.metrics.find((m) => m.metric === metric)!;

/** Everything a run printed or wrote: its output, and every file of its sandbox (reports, Evalite's storage and its WAL, the export). */
function everything(run: EvalRun): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(readFileSync(path).toString("latin1"));
    }
  };
  walk(run.dir);
  return [run.stdout, run.stderr, ...files].join("\n");
}

/** The header lines of a run on another target: who answered, and that the suite's offline models did not. */
function expectLabels(run: EvalRun, label: string, where: string): void {
  expect(run.stdout).toMatch(new RegExp(`^target: ${label} \\(${where}\\) produced the rankings and answers; `, "m"));
  expect(run.stdout).toMatch(/^grading: heuristic graders, no judge model configured/m);
  expect(run.stdout).not.toMatch(/^models: offline/m);
}

describe("a target module over a search library", () => {
  it(
    "MiniSearch, handed the fixtures' corpus, is measured by the retrieval evals offline",
    async () => {
      const r = await minisearch.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expectLabels(r, "module:minisearch", "examples/targets/minisearch\\.target\\.ts");
      const report = reportOf(r);
      expect(report.skipped).toContainEqual({ eval: "Vector search", reason: "target minisearch does not serve mode vsearch" });
      expect(r.stdout).toMatch(
        /^eval: \d+ eval\(s\) skipped, not scored: .*Vector search.*\(target minisearch does not serve mode vsearch\)/m,
      );
      expect(report.mode).toBe("module:minisearch");
      expect(report.summary.errored).toBe(0);
      // A real library's real ranking: far from nothing, short of perfect.
      const recall = mean(report, "Search (BM25)", "Recall@10");
      expect(recall.n).toBe(58);
      expect(recall.mean).toBeGreaterThan(0.5);
      expect(recall.mean).toBeLessThan(1);
      expect(report.target).toMatchObject({ target: "module:minisearch", calls: 58, clientMs: { n: 58 }, serverMs: { n: 58 } });
    },
    RUN_TIMEOUT_MS,
  );
});

describe("adapters for services with their own API", () => {
  it(
    "an Elasticsearch-shaped cluster: seeded one document at a time, ranked by multi_match, its index deleted after the run",
    async () => {
      const r = await elasticsearch.run();
      const seen = await elasticsearch.fact<Array<{ method: string; url: string; authorization?: string }>>("seen");
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expectLabels(r, "http:es-docs", "http://127\\.0\\.0\\.1:\\d+");
      expect(r.stdout).toMatch(
        /^eval: seeded collection eval-docs of target es-docs .* with the 58 documents of dataset fixtures in [\d.]+ s; deleted after the run$/m,
      );
      expect(r.stdout).toMatch(/^eval: deleted the seeded collection eval-docs of target es-docs/m);
      const report = reportOf(r);
      expect(report.mode).toBe("http:es-docs");
      expect(report.summary.errored).toBe(0);
      // Plain BM25 without stemming over title and body: a real ranking, not a perfect one.
      expect(mean(report, "Search (BM25)", "Recall@10").mean).toBeGreaterThan(0.4);
      // Its own time from `took`, the client's round trip beside it.
      expect(report.target).toMatchObject({ target: "http:es-docs", calls: 58, clientMs: { n: 58 }, serverMs: { n: 58 } });
      const calls = seen.map((c) => `${c.method} ${c.url.replace(/_doc\/.*/, "_doc/…")}`);
      expect(calls.filter((c) => c === "PUT /eval-docs/_doc/…")).toHaveLength(58);
      expect(calls.filter((c) => c === "POST /eval-docs/_search")).toHaveLength(58);
      expect(calls.at(-1)).toBe("DELETE /eval-docs");
      expect(seen.every((c) => c.authorization === `ApiKey ${SECRET}`)).toBe(true);
      expect(everything(r)).not.toContain(SECRET);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a golden-Q&A service (seed 000's shape): a text answer, citations from a header, refusals by the dataset's markers",
    async () => {
      const r = await goldenQa.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expectLabels(r, "http:golden-qa", "http://127\\.0\\.0\\.1:\\d+");
      expect(await goldenQa.fact("documents")).toBe(58);
      // It has no delete: the run says the documents stay, once, and does not pretend otherwise.
      expect(r.stdout).toMatch(
        /^eval: seeded collection golden of target golden-qa .*; left on the target after the run \(the adapter .* has no documents\.delete request\)$/m,
      );
      expect(r.stderr).toMatch(/^eval: WARNING: the seeded collection golden of target golden-qa .* stays on the target/m);
      const names = r.output!.suites.map((s) => s.name);
      expect(names).toContain("Answers: refusal and citations [http:golden-qa]");
      expect(names.join("\n")).not.toContain("offline extractive");
      const report = reportOf(r);
      expect(report.summary.errored).toBe(0);
      const outputs = r
        .output!.suites.find((s) => s.name.startsWith("Answers: refusal and citations"))!
        .evals.map(
          (e) =>
            e.output as {
              answer: string;
              citations: Array<{ docId: string }>;
              refusalCheck: { method: string; refused: boolean };
              answerer: string;
            },
        );
      expect(outputs).toHaveLength(30);
      for (const o of outputs) {
        expect(o.answerer).toBe("http:golden-qa");
        expect(o.refusalCheck.method).toBe("markers");
      }
      // Answers came from the text body, citations from the header, refusals from the markers.
      expect(outputs.filter((o) => o.citations.length > 0 && o.answer.length > 0).length).toBeGreaterThan(15);
      expect(outputs.some((o) => o.refusalCheck.refused && o.citations.length === 0)).toBe(true);
      expect(everything(r)).not.toContain(SECRET);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("misbehaving targets", () => {
  it(
    "a module that throws, returns the wrong shape or never settles: each case errors with one labelled line, none scores",
    async () => {
      const r = await oddModule.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(1);
      const said = r.stdout + r.stderr;
      expect(said).toContain("module:odd: search(search): threw Error: index offline, token [redacted]");
      expect(said).toContain('module:odd: search(search): returned no SearchResponse: (the body): missing required field "results"');
      expect(said).toContain("module:odd: search(search): did not settle within 1000 ms");
      const suite = r.output!.suites.find((s) => s.name === "Search (BM25)")!;
      const failed = suite.evals.filter((e) => e.status === "fail");
      expect(failed.length).toBeGreaterThan(0);
      const report = reportOf(r);
      expect(report.summary.errored).toBe(failed.length);
      expect(mean(report, "Search (BM25)", "Recall@10").notScored.errored).toBe(failed.length);
      expect(everything(r)).not.toContain(SECRET);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a service behind an adapter that answers 500, a body its mapping finds nothing in, or no header it maps: one labelled line each, none scores",
    async () => {
      const r = await oddAdapter.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(1);
      const said = r.stdout + r.stderr;
      expect(said).toContain("POST /find: HTTP 500: DOWN rejected key [redacted]");
      expect(said).toContain(
        'POST /find: the adapter\'s /search/search/response/results/list (pointer "/hits") found nothing in the response',
      );
      expect(said).toContain("POST /find: the response has no x-took header, which the adapter's /search/search/response/elapsedMs reads");
      const suite = r.output!.suites.find((s) => s.name === "Search (BM25)")!;
      const failed = suite.evals.filter((e) => e.status === "fail").length;
      expect(failed).toBeGreaterThan(0);
      const report = reportOf(r);
      expect(report.summary.errored).toBe(failed);
      expect(mean(report, "Search (BM25)", "nDCG@10").notScored.errored).toBe(failed);
      expect(everything(r)).not.toContain(SECRET);
    },
    RUN_TIMEOUT_MS,
  );

  it("an adapter file that is not JSON, or has a field the schema does not know, stops the run before Evalite with one line (exit 2)", async () => {
    const broken = join(work, "broken.adapter.json");
    writeFileSync(broken, '{ "name": "x", "search": { "search": { "request": { "method": "POST", "path": "/s" }, }');
    const r1 = await evalInProcess([], { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_ADAPTER: broken });
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(
      /^eval: EVAL_TARGET_ADAPTER .*broken\.adapter\.json: \[invalid-json\] invalid JSON at line 1, column \d+: .+\n$/,
    );
    const unknown = join(work, "unknown.adapter.json");
    writeFileSync(
      unknown,
      JSON.stringify({
        name: "x",
        search: { search: { request: { method: "POST", path: "/s" }, response: { results: { list: "/hits", docid: "/id" } } } },
      }),
    );
    const r2 = await evalInProcess([], { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_ADAPTER: unknown });
    expect(r2).toMatchObject({ code: 2, stdout: "" });
    expect(r2.stderr).toBe(`eval: EVAL_TARGET_ADAPTER ${unknown}: /search/search/response/results: unknown field "docid"\n`);
  });

  it("--explain-target prints the resolved requests for one query and one question, credentials redacted, and runs nothing", async () => {
    const r = await evalInProcess(["--explain-target"], {
      EVAL_TARGET: "http://127.0.0.1:9",
      EVAL_TARGET_ADAPTER: "examples/targets/elasticsearch.adapter.json",
      EVAL_TARGET_SEED: "eval-docs",
      EVAL_TARGET_TOKEN: SECRET,
      ES_API_KEY: SECRET,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "target: http:es-docs: the service at http://127.0.0.1:9, called as the adapter examples/targets/elasticsearch.adapter.json describes",
    );
    expect(r.stdout).toMatch(/^ {2}ranking in mode search, for query q-\d+ ".+":\n {4}POST http:\/\/127\.0\.0\.1:9\/eval-docs\/_search\n/m);
    expect(r.stdout).toContain("    authorization: ApiKey [redacted]");
    expect(r.stdout).toMatch(/"size":10,"_source":\["title"\],"query":\{"multi_match":\{"query":".+","fields":\["title\^2","body"\]\}\}/);
    expect(r.stdout).toMatch(
      /seeding \(EVAL_TARGET_SEED\), one request per document \(58\), the first:\n {4}PUT http:\/\/127\.0\.0\.1:9\/eval-docs\/_doc\/[^/\s]+%2F/,
    );
    expect(r.stdout).toContain("none (the adapter has no ask request: the answer evals are skipped)");
    expect(r.stdout).not.toContain(SECRET);
    const module = await evalInProcess(["--explain-target"], { EVAL_TARGET: "examples/targets/engine.target.ts" });
    expect(module.stdout).toMatch(
      /^ {4}search\.balanced\(\{"query":".+","mode":"balanced","limit":10,"traceDepth":50,"collection":"eval"\}, \{ signal \}\)$/m,
    );
    expect(module.stdout).toMatch(/^ {4}ask\(\{"question":".+","preset":"balanced","collection":"eval"\}, \{ signal \}\)$/m);
  });

  it("--explain-target warns when an adapter's answers map no sources; the shipped golden-QA example maps them", async () => {
    const shipped = JSON.parse(readFileSync(join(ROOT, "examples/targets/golden-qa.adapter.json"), "utf8"));
    const { sources: _sources, ...response } = shipped.ask.response;
    const bare = join(work, "no-sources.adapter.json");
    writeFileSync(bare, JSON.stringify({ ...shipped, ask: { ...shipped.ask, response } }));
    const env = { EVAL_TARGET: "http://127.0.0.1:9", EVAL_DATASET: "test/datasets/golden-qa", KB_KEY: "kb-key-for-explain" };
    const warned = await evalInProcess(["--explain-target"], { ...env, EVAL_TARGET_ADAPTER: bare });
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stdout).toContain(`${NO_SOURCES_MAPPED}\n`);
    const example = await evalInProcess(["--explain-target"], { ...env, EVAL_TARGET_ADAPTER: "examples/targets/golden-qa.adapter.json" });
    expect(example.code, example.stderr).toBe(0);
    expect(example.stdout).toContain("answering, for question");
    expect(example.stdout).not.toContain("maps no sources");
  });
});
