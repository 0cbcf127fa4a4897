/** `stats`: collections, languages, sizes and the index fingerprint. */
import type { Engine } from "../engine.js";
import { type Command, noArguments, onIndex } from "./command.js";

export const statsCommand: Command = {
  options: ["db", "json"],
  arguments: noArguments("stats"),
  run: onIndex(async (engine, { values, io }) => {
    const stats = { ...engine.stats(), fingerprint: engine.fingerprint() };
    io.stdout(values.json ? `${JSON.stringify(stats, null, 2)}\n` : formatStats(stats));
    return 0;
  }),
};

function formatStats(stats: ReturnType<Engine["stats"]> & { fingerprint: ReturnType<Engine["fingerprint"]> }): string {
  const f = stats.fingerprint;
  return (
    `collections: ${stats.collections.join(", ") || "(none)"}\n` +
    `languages:   ${stats.languages.join(", ") || "(none)"}\n` +
    `documents:   ${stats.documents}\npassages:    ${stats.passages}\n` +
    `embedder:    ${stats.embedder ?? "(none)"}${stats.dimensions ? ` (${stats.dimensions} dimensions)` : ""}\n` +
    `analyzer:    ${f.analyzer}${stats.stale ? ` (STALE: ${stats.stale})` : ""}\nchunkers:    ${f.chunkers.join(", ")}\nschema:      ${f.schemaVersion}\ncorpus hash: ${f.corpusHash}\n`
  );
}
