/**
 * The judge's trust and the run's cost end to end, over real HTTP against the stub
 * OpenAI-compatible server (never a live model): labels written for the stub's answers and
 * `pnpm eval:calibrate` measuring its judge; then `pnpm eval ask` printing the judge's κ line,
 * tokens, cost (unknown for the one model the price table lacks) and cache hits; a second run
 * replaying every call from the model cache; `--dry-run` calling nothing; `--max-cost` stopping
 * mid-run and failing, with what was scored kept in the report.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "@hybrid-search/eval-gate/report";
import { ROOT, RUN_TIMEOUT_MS, runEval, scriptCommand } from "./eval-run.js";
import { startStubServer, type StubServer } from "./stub-openai-server.js";

const dir = mkdtempSync(join(tmpdir(), "judge-cost-"));
let stub: StubServer;
let env: Record<string, string>;

beforeAll(async () => {
  stub = await startStubServer("good");
  copyFileSync(join(ROOT, "evals/baseline.json"), join(dir, "baseline.json"));
  // A price for the answerers' model, none for the judge's: its cost is unknown, its tokens counted.
  writeFileSync(
    join(dir, "prices.json"),
    JSON.stringify({
      currency: "USD",
      per: "1M tokens",
      source: "test",
      retrieved: "2026-12-01",
      models: { "stub-model": { input: 1, output: 2 } },
    }),
  );
  env = {
    OPENAI_COMPATIBLE_BASE_URL: stub.url,
    OPENAI_COMPATIBLE_API_KEY: "sk-stub",
    ENGINE_MODEL: "stub-model",
    ENGINE_JUDGE_MODEL: "stub-judge",
    EVAL_BASELINE: join(dir, "baseline.json"),
    EVAL_PRICES: join(dir, "prices.json"),
  };
});

afterAll(async () => {
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

function calibrateCommand(args: string[], extra: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = scriptCommand("eval:calibrate");
  const child = spawn(command.command, [...command.args, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...extra },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

const report = (reportsDir: string): Report => {
  const name = readdirSync(reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json")!;
  return JSON.parse(readFileSync(join(reportsDir, name), "utf8")) as Report;
};

describe("the stub's judge: calibrated, then every run says how far to trust it and what it cost", () => {
  const storage = () => ({ EVALITE_STORAGE: join(dir, "shared", "evalite.db") });

  it(
    "labels of the stub's answers, pnpm eval:calibrate, pnpm eval ask twice on one cache",
    async () => {
      // What a labeller reads: the stub's answers, each with the hash a label names.
      const shown = await calibrateCommand(["--show", "a-001,a-003,a-004,a-005"], storage());
      expect(shown.code, shown.stderr).toBe(0);
      const shas = [...shown.stdout.matchAll(/^== (a-\d+) .*answerSha256 ([0-9a-f]{16})$/gm)].map((m) => [m[1]!, m[2]!]);
      expect(shas).toHaveLength(4);
      const grades = [3, 1, 2, 0];
      const labels = [
        JSON.stringify({ about: "test labels of the stub's answers", labellers: { tester: "the test" } }),
        ...shas.map(([id, sha], i) =>
          JSON.stringify({
            case: id,
            metric: "answer-relevance",
            scale: "0-3",
            grade: grades[i],
            labeller: "tester",
            preset: "balanced",
            answerSha256: sha,
          }),
        ),
      ];
      writeFileSync(join(dir, "labels.jsonl"), `${labels.join("\n")}\n`);
      const calibrated = await calibrateCommand([join(dir, "labels.jsonl")], storage());
      expect(calibrated.code, calibrated.stdout + calibrated.stderr).toBe(0);
      expect(calibrated.stdout).toMatch(/^ {2}llm-judge openai-compatible\.chat\/stub-judge +4 /m);
      const calibration = JSON.parse(readFileSync(join(dir, "judge-calibration.json"), "utf8"));
      expect(calibration.methods.map((m: { method: string }) => m.method)).toEqual(["heuristic", "llm-judge"]);

      const before = stub.requests.length;
      const first = await runEval(["ask"], { ...env, ...storage() });
      expect(first.code, first.stdout.slice(-3000)).toBe(0);
      const made = stub.requests.length - before;
      expect(made).toBeGreaterThan(0);
      const out = first.stdout;
      expect(out).toMatch(
        /^judge: llm-judge openai-compatible\.chat\/stub-judge \(prompts [0-9a-f]{16}\), κ answer-relevance (-?[\d.]+ \[[-\d.]+, [-\d.]+\]|undefined) vs 4 human labels, \d{4}-\d\d-\d\d$/m,
      );
      expect(out).toMatch(
        /^tokens: \d+ call\(s\) made, \d+ answered by the cache; [\d,]+ in \/ [\d,]+ out; cost unknown \(no price for stub-judge; known part \$[\d.]+\)/m,
      );
      expect(out).toMatch(
        /^ {2}answerer:slim openai-compatible\.chat\/stub-model: \d+ call\(s\) made, \d+ cache hit\(s\); [\d,]+ in \/ [\d,]+ out; cost \$[\d.]+$/m,
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

      // The second run beside the same storage: every call from the model cache, said per role and in the judge's scores.
      const second = await runEval(["ask"], { ...env, ...storage() });
      expect(second.code, second.stdout.slice(-3000)).toBe(0);
      expect(stub.requests.length - before).toBe(made);
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
    RUN_TIMEOUT_MS * 2,
  );

  it(
    "--dry-run calls no model and prints the calls per role and model with estimated tokens",
    async () => {
      const before = stub.requests.length;
      const run = await runEval(["ask", "--dry-run"], env);
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      expect(stub.requests.length).toBe(before);
      expect(run.stdout).toMatch(
        /^tokens \(dry run: estimates, no model called\): \d+ call\(s\) would be made, \d+ answered by the cache; ~[\d,]+ in \/ ~[\d,]+ out; cost unknown/m,
      );
      expect(run.stdout).toMatch(/^ {2}judge openai-compatible\.chat\/stub-judge: \d+ call\(s\) would be made/m);
      expect(run.stdout).toMatch(/^eval: --dry-run: no model was called; nothing was scored, gated or written/m);
      expect(readdirSync(dir).includes("reports")).toBe(false);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "--max-cost stops before the call that would pass the budget, fails the run saying so, and keeps what was scored",
    async () => {
      writeFileSync(
        join(dir, "all-priced.json"),
        JSON.stringify({
          currency: "USD",
          per: "1M tokens",
          source: "test",
          retrieved: "2026-12-01",
          models: { "stub-model": { input: 1, output: 1 }, "stub-judge": { input: 1, output: 1 } },
        }),
      );
      const run = await runEval(["ask", "--max-cost", "0.01"], { ...env, EVAL_PRICES: join(dir, "all-priced.json") });
      expect(run.code, run.stdout.slice(-3000)).toBe(1);
      expect(run.stdout).toMatch(/^budget: STOPPED: --max-cost \$0\.01 reached \(spent \$0\.00\d+\); \d+ call\(s\) not made, the first: /m);
      expect(run.stdout).toMatch(/^eval: FAIL \(--max-cost \$0\.01 reached: \d+ model call\(s\) not made/m);
      const r = report(run.reportsDir);
      expect(r.usage?.budget?.refused).toBeGreaterThan(0);
      expect(r.usage!.budget!.spent).toBeLessThanOrEqual(0.01);
      expect(r.cases.length).toBeGreaterThan(0);

      // A model without a price cannot be held to a budget: refused before anything runs.
      const unpriced = await runEval(["ask", "--max-cost", "1"], env);
      expect(unpriced.code).toBe(2);
      expect(unpriced.stderr.trim()).toMatch(/^eval: --max-cost needs a price for every model the run calls; .* has none for stub-judge/);
    },
    RUN_TIMEOUT_MS * 2,
  );
});
