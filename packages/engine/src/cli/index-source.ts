/** `index <folder|corpus.jsonl>`: indexes a source into the index at --db, creating it when missing. */
import { Engine } from "../engine.js";
import { SKIP_REASONS } from "../ingest/source.js";
import { claimNewIndexFile, discardUnfinishedIndex } from "../store/database.js";
import type { SkippedFile, SkipReason } from "../types.js";
import { type Command, oneArgument } from "./command.js";

export const indexCommand: Command = {
  options: ["db", "collection", "json"],
  arguments: oneArgument("index"),
  async run({ values, args, io, models }) {
    const db = values.db!;
    // Made here, only when it did not exist (O_EXCL): a failed first run may then remove it. A file
    // another run created meanwhile is never removed by this one.
    const claimed = claimNewIndexFile(db);
    let engine: Engine;
    try {
      engine = Engine.open(db, { ...models, create: true });
    } catch (error) {
      if (claimed) discardUnfinishedIndex(db);
      throw error;
    }
    let ok = false;
    try {
      const report = await engine.index(args[0]!, {
        ...(values.collection !== undefined ? { collection: values.collection } : {}),
        onMessage: (line) => io.stderr(`engine: ${line}\n`),
      });
      if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const d = report.documents;
        const e = report.embeddings;
        io.stdout(
          `indexed ${report.source} as collection "${report.collection}" into ${db} in ${(report.elapsedMs / 1000).toFixed(2)} s\n` +
            `  documents: ${d.total} (${d.added} added, ${d.updated} updated, ${d.unchanged} unchanged, ${d.removed} removed)\n` +
            `  passages:  ${report.passages.total} (${report.passages.written} written, ${report.passages.removed} removed)\n` +
            `  vectors:   ${e.computed} computed, ${e.reused} reused (${e.embedder}, ${e.dimensions} dimensions)\n` +
            formatSkipped(report.skippedFiles),
        );
      }
      ok = true;
    } finally {
      engine.close();
      // A failed first run leaves no empty index behind (an existing index is left as it was; one
      // a killed run left is refused as incomplete by every reader).
      if (!ok && claimed) discardUnfinishedIndex(db);
    }
    return 0;
  },
};

/** The skipped entries, one line per reason with up to five paths each. */
function formatSkipped(skipped: readonly SkippedFile[]): string {
  const byReason = new Map<SkipReason, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.path]);
  return [...byReason]
    .map(
      ([reason, paths]) =>
        `  skipped ${paths.length} (${SKIP_REASONS[reason]}): ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ", …" : ""}\n`,
    )
    .join("");
}
