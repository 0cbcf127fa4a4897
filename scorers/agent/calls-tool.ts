/**
 * calls-tool: the turn called `tool` at least `atLeast` times (default 1), counting only calls
 * that did not error — a call that failed, or awaits approval, did not do what the tool does.
 * Fails naming what happened instead: `did not call catalog`, `called read_document 1 time
 * without error, at least 2 expected (1 errored)`.
 *
 * **When to use:** the tool the question needs: `catalog` for a where-question, `read_document`
 * twice for a question two documents answer.
 * **When NOT to use:** to check that an action was proposed (stops-at-approval: an approval call
 * is not a done call) or never attempted (never-calls).
 */
import { allCalls, defineExpectation, times } from "./expectation.js";

export const callsTool = defineExpectation(
  "calls-tool",
  "the turn called the tool (at least n times), counting only calls that did not error",
  (turn, e) => {
    const wanted = e.atLeast ?? 1;
    const calls = allCalls(turn).filter((c) => c.toolCall.name === e.tool);
    const done = calls.filter((c) => c.toolCall.status === "done").length;
    const other = calls.length - done;
    const rest = other > 0 ? ` (${other} more ${other === 1 ? "call" : "calls"} errored or awaited approval)` : "";
    if (done >= wanted) return { pass: true, fact: `called ${e.tool} ${times(done)}` };
    if (done === 0) return { pass: false, fact: `did not call ${e.tool}${rest}` };
    return { pass: false, fact: `called ${e.tool} ${times(done)} without error, at least ${wanted} expected${rest}` };
  },
);
