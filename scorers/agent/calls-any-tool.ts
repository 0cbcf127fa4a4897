/**
 * calls-any-tool: the turn called at least one tool without an error: it looked something up
 * before answering. Fails as `called no tool`, or `no call succeeded (2 errored)`.
 *
 * **When to use:** a question whose answer must come from the index, whichever tool finds it.
 * **When NOT to use:** when one tool is required (calls-tool).
 */
import { allCalls, defineExpectation } from "./expectation.js";

export const callsAnyTool = defineExpectation("calls-any-tool", "the turn called some tool without an error", (turn) => {
  const calls = allCalls(turn);
  const done = calls.filter((c) => c.toolCall.status === "done");
  if (done.length > 0) return { pass: true, fact: `called ${[...new Set(done.map((c) => c.toolCall.name))].join(", ")}` };
  return { pass: false, fact: calls.length === 0 ? "called no tool" : `no call succeeded (${calls.length} errored or awaited approval)` };
});
