/**
 * no-citations: the answer cites nothing. Fails naming what it cites: `cites: en/a.md, en/b.md`.
 *
 * **When to use:** a refusal, or a turn that stops at approval: nothing was answered, so nothing
 * may be cited.
 * **When NOT to use:** on an answer (cites, cites-only-surfaced).
 */
import { defineExpectation } from "./expectation.js";

export const noCitations = defineExpectation("no-citations", "the answer cites no document", (turn) =>
  turn.citations.length === 0
    ? { pass: true, fact: "cites nothing" }
    : { pass: false, fact: `cites: ${[...new Set(turn.citations.map((c) => c.docId))].join(", ")}` },
);
