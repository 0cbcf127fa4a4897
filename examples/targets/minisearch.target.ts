/**
 * A target module over a third-party search library: MiniSearch (BM25+ full-text search, in
 * memory), handed the dataset's corpus by the run and measured by the retrieval evals.
 *
 *   EVAL_TARGET=examples/targets/minisearch.target.ts pnpm eval search
 *
 * It serves the `search` mode (lexical); the evals of the modes it lacks are skipped and reported.
 */
import { defineTarget } from "@hybrid-search/target-contract/define-target";
import type { Document } from "@hybrid-search/target-contract/types";
import MiniSearch from "minisearch";

/** One index per collection the run hands over. */
const indexes = new Map<string, MiniSearch<Document>>();

export default defineTarget({
  name: "minisearch",
  version: "7.2.0",
  documents: {
    seed({ collection, documents }) {
      const index = new MiniSearch<Document>({
        fields: ["title", "text"],
        storeFields: [],
        searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.2 },
      });
      index.addAll(documents);
      indexes.set(collection, index);
      return { collection, documents: index.documentCount };
    },
    delete({ collection }) {
      indexes.delete(collection);
      return { collection, documents: 0 };
    },
  },
  search: {
    search({ query, limit, collection }) {
      const index = indexes.get(collection ?? "");
      if (!index) throw new Error(`no collection ${collection}: the run hands the corpus over first`);
      const started = performance.now();
      const hits = index.search(query).slice(0, limit);
      return { results: hits.map((h) => ({ docId: String(h.id), score: h.score })), elapsedMs: performance.now() - started };
    },
  },
});
