/**
 * max-steps: the turn took at most `steps` steps (a step: one model call and the tools it called).
 * Fails as `took 7 steps, at most 5 expected`.
 *
 * **When to use:** a question that needs a known, small number of moves: a loop that wanders
 * costs time and tokens before it reaches the cap.
 * **When NOT to use:** as the only guard against a loop: stops-within-budget also says whether the
 * turn ended on its own.
 */
import { defineExpectation } from "./expectation.js";

export const maxSteps = defineExpectation("max-steps", "the turn took at most n steps", (turn, e) =>
  turn.steps.length <= e.steps
    ? { pass: true, fact: `took ${turn.steps.length} of at most ${e.steps} steps` }
    : { pass: false, fact: `took ${turn.steps.length} steps, at most ${e.steps} expected` },
);
