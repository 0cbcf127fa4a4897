/**
 * The judge's trust and the run's cost end to end, over real HTTP against the stub
 * OpenAI-compatible server (never a live model): labels written for the stub's answers and
 * `pnpm eval:calibrate` measuring its judge; then `pnpm eval ask` printing the judge's κ line,
 * tokens, cost (unknown for the one model the price table lacks) and cache hits; a second run
 * replaying every call from the model cache; `--dry-run` calling nothing; `--max-cost` stopping
 * mid-run and failing, with what was scored kept in the report.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "@hybrid-search/eval-gate/report";
import { RUN_TIMEOUT_MS } from "./eval-run.js";
import type { SeenRequest } from "./shared-runs/configurations/models.js";
import { sharedRun } from "./shared-runs/read.js";

/**
 * The structured-answer models of answers-stub-e2e.test.ts (one per preset, priced; the judge
 * stub-judge, unpriced) on one Evalite storage: `pnpm eval:calibrate --show`, labels of what it
 * showed, `pnpm eval:calibrate`, then `pnpm eval ask` twice (test/shared-runs/configurations/models.ts).
 */
const answers = sharedRun("models:answers");
const dryRun = sharedRun("models:dry-run");
const maxCost = sharedRun("models:max-cost");

const report = (reportsDir: string): Report => {
  const name = readdirSync(reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json")!;
  return JSON.parse(readFileSync(join(reportsDir, name), "utf8")) as Report;
};

describe("the stub's judge: calibrated, then every run says how far to trust it and what it cost", () => {
  it(
    "labels of the stub's answers, pnpm eval:calibrate, pnpm eval ask twice on one cache",
    async () => {
      // What a labeller reads: the stub's answers, each with the hash a label names.
      const shown = await answers.command("show");
      expect(shown.code, shown.stderr).toBe(0);
      const shas = [...shown.stdout.matchAll(/^== (a-\d+) .*answerSha256 ([0-9a-f]{16})$/gm)].map((m) => [m[1]!, m[2]!]);
      expect(shas).toHaveLength(4);
      const calibrated = await answers.command("calibrate");
      expect(calibrated.code, calibrated.stdout + calibrated.stderr).toBe(0);
      expect(calibrated.stdout).toMatch(/^ {2}llm-judge openai-compatible\.chat\/stub-judge +4 /m);
      const calibration = await answers.fact<{ methods: Array<{ method: string }> }>("calibration");
      expect(calibration.methods.map((m) => m.method)).toEqual(["heuristic", "llm-judge"]);

      const first = await answers.run("first");
      expect(first.code, first.stdout.slice(-3000)).toBe(0);
      // Every answer call first got 429 (the rate limit), then an answer: the calls made are the answered requests.
      const made = (await answers.fact<SeenRequest[]>("firstRequests")).filter((r) => !r.rateLimited).length;
      expect(made).toBeGreaterThan(0);
      const out = first.stdout;
      expect(out).toMatch(
        /^judge: llm-judge openai-compatible\.chat\/stub-judge \(prompts [0-9a-f]{16}\), κ answer-relevance (-?[\d.]+ \[[-\d.]+, [-\d.]+\]|undefined) vs 4 human labels, \d{4}-\d\d-\d\d$/m,
      );
      expect(out).toMatch(
        /^tokens: \d+ call\(s\) made, \d+ answered by the cache; [\d,]+ in \/ [\d,]+ out; cost unknown \(no price for stub-judge; known part \$[\d.]+\)/m,
      );
      expect(out).toMatch(
        /^ {2}answerer:slim openai-compatible\.chat\/stub-slim: \d+ call\(s\) made, \d+ cache hit\(s\); [\d,]+ in \/ [\d,]+ out; cost \$[\d.]+$/m,
      );
      expect(out).toMatch(
        /^ {2}judge openai-compatible\.chat\/stub-judge: \d+ call\(s\) made, \d+ cache hit\(s\); [\d,]+ in \/ [\d,]+ out; cost unknown$/m,
      );
      const r1 = report(first.reportsDir);
      expect(r1.usage?.total.calls).toBe(made);
      expect(r1.usage?.total.unknownCostModels).toEqual(["stub-judge"]);
      expect(r1.judge.calibration?.[0]).toMatch(
        /^judge: llm-judge openai-compatible\.chat\/stub-judge \(prompts [0-9a-f]{16}\), κ answer-relevance/,
      );

      // The second run beside the same storage: every call from the model cache (0 requests to the
      // model), said per role and in the judge's scores.
      const second = await answers.run("second");
      expect(second.code, second.stdout.slice(-3000)).toBe(0);
      expect(await answers.fact("secondCalls")).toBe(0);
      expect(`${first.stdout}${first.stderr}${second.stdout}${second.stderr}`).not.toMatch(/Cache (fetch|write) failed/);
      expect(second.stdout).toMatch(/^tokens: 0 call\(s\) made, \d+ answered by the cache; 0 in \/ 0 out; cost \$0 /m);
      const r2 = report(second.reportsDir);
      expect(r2.judge.cached).toBe(r2.judge.llmJudge);
      const judgedGraders = new Set(["context-relevance", "faithfulness", "answer-relevance", "topic-coverage"]);
      const judged = second
        .output!.suites.flatMap((s) => s.evals.flatMap((e) => e.scores))
        .filter((s) => {
          const m = s.metadata as { method?: string; grader?: string } | undefined;
          return m?.method === "llm-judge" && judgedGraders.has(m.grader ?? "");
        });
      expect(judged.length).toBeGreaterThan(0);
      expect(judged.every((s) => (s.metadata as { cached?: boolean }).cached === true)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "--dry-run calls no model and prints the calls per role and model with estimated tokens",
    async () => {
      const run = await dryRun.run();
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      expect(await dryRun.fact<SeenRequest[]>("requests")).toEqual([]);
      expect(run.stdout).toMatch(
        /^tokens \(dry run: estimates, no model called\): \d+ call\(s\) would be made, \d+ answered by the cache; ~[\d,]+ in \/ ~[\d,]+ out; cost unknown/m,
      );
      expect(run.stdout).toMatch(/^ {2}judge openai-compatible\.chat\/stub-judge: \d+ call\(s\) would be made/m);
      expect(run.stdout).toMatch(/^eval: --dry-run: no model was called; nothing was scored, gated or written/m);
      expect(existsSync(run.reportsDir)).toBe(false);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "--max-cost stops before the call that would pass the budget, fails the run saying so, and keeps what was scored",
    async () => {
      const run = await maxCost.run();
      expect(run.code, run.stdout.slice(-3000)).toBe(1);
      expect(run.stdout).toMatch(/^budget: STOPPED: --max-cost \$0\.01 reached \(spent \$0\.00\d+\); \d+ call\(s\) not made, the first: /m);
      expect(run.stdout).toMatch(/^eval: FAIL \(--max-cost \$0\.01 reached: \d+ model call\(s\) not made/m);
      const r = report(run.reportsDir);
      expect(r.usage?.budget?.refused).toBeGreaterThan(0);
      expect(r.usage!.budget!.spent).toBeLessThanOrEqual(0.01);
      expect(r.cases.length).toBeGreaterThan(0);

      // A model without a price cannot be held to a budget: refused before anything runs.
      const unpriced = await maxCost.run("unpriced");
      expect(unpriced.code).toBe(2);
      expect(unpriced.stderr.trim()).toMatch(/^eval: --max-cost needs a price for every model the run calls; .* has none for stub-judge/);
    },
    RUN_TIMEOUT_MS,
  );
});
