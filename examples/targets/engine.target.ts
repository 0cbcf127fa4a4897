/**
 * The in-repo engine wrapped as a target module: handed the dataset's corpus by the run, it
 * indexes it into an index of its own and serves every mode, answers and expansion with its
 * stage traces. It scores as the in-process engine does, to four decimals
 * (test/targets-e2e.test.ts): the module seam adds nothing to the measurement.
 *
 *   EVAL_TARGET=examples/targets/engine.target.ts pnpm eval
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "@hybrid-search/engine";
import { defineTarget } from "@hybrid-search/target-contract/define-target";
import type { SearchRequest, SearchResponse } from "@hybrid-search/target-contract/types";

let engine: Engine | undefined;

/** The module's own index, in a temporary folder removed when the process ends. */
function opened(): Engine {
  if (!engine) {
    const dir = mkdtempSync(join(tmpdir(), "engine-target-"));
    engine = Engine.open(join(dir, "index.db"), { create: true });
    process.once("exit", () => {
      engine?.close();
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return engine;
}

/**
 * A search request's options as the engine takes them: all but the query, the mode and the
 * collection. This index holds exactly the one collection the run handed it, so it searches the
 * whole index, as the in-process engine searches its own (the same engine calls, no filter).
 */
const options = ({ query: _query, mode: _mode, collection: _collection, ...rest }: SearchRequest) => rest;

/**
 * A response with each hit as the contract's fields, the engine's values. Not the engine's hit
 * objects as they are: a hit makes its snippet when it is first read (an analysis of the passage
 * text), and the suite checks every field a module returns, so each call would make ten snippets
 * that nothing reads; the in-process engine is never asked for one either.
 */
function ranked({ results, ...rest }: SearchResponse): SearchResponse {
  return {
    ...rest,
    results: results.map(({ docId, score, passageId, title, validity }) => ({
      docId,
      score,
      passageId,
      title,
      ...(validity ? { validity } : {}),
    })),
  };
}

export default defineTarget({
  name: "engine-module",
  trace: true,
  documents: {
    async seed({ collection, documents, ids }) {
      const report = await opened().indexDocuments(documents, { collection, ...(ids ? { ids } : {}) });
      return { collection, documents: report.documents.total, fingerprint: opened().fingerprint() };
    },
    async delete({ collection }) {
      const report = await opened().indexDocuments([], { collection });
      return { collection, documents: report.documents.total };
    },
  },
  search: {
    search: (request) => ranked(opened().search(request.query, options(request))),
    vsearch: async (request) => ranked(await opened().vsearch(request.query, options(request))),
    fast: async (request) => ranked(await opened().query(request.query, { ...options(request), tier: "fast" })),
    balanced: async (request) => ranked(await opened().query(request.query, { ...options(request), tier: "balanced" })),
    thorough: async (request) => ranked(await opened().query(request.query, { ...options(request), tier: "thorough" })),
  },
  ask: ({ question, collection: _collection, ...rest }) => opened().ask(question, rest),
  expand: async ({ query }) => {
    const { expansion, ...rest } = await opened().expand(query);
    return { ...rest, expansion: { ...expansion } };
  },
});
