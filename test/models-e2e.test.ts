/**
 * The model paths end to end, over real HTTP, against the stub OpenAI-compatible server on
 * 127.0.0.1 (never a live service): the answer and expansion evals run with the stub as the model
 * for each behaviour — good answers, schema-breaking JSON, 429 with retry-after, 500, a timeout —
 * and each run must complete with every affected score labeled, nothing silently scored, and the
 * API key nowhere but in the request headers.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main as engineMain } from "@hybrid-search/engine/cli";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, RUN_TIMEOUT_MS, runEval, type EvalRun } from "./eval-run.js";
import { startStubServer, type StubBehaviour, type StubServer } from "./stub-openai-server.js";

const KEY = "sk-stub-SECRET-7f3a9c";
/** The eval files the model paths run, by path: each run measures one file only. */
const ASK_EVAL = "evals/ask.eval.ts";
const EXPANSION_EVAL = "evals/expansion.eval.ts";
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Score = { name: string; score: number; metadata?: Record<string, unknown> };
type Suite = NonNullable<EvalRun["output"]>["suites"][number];

/** `pnpm eval <filter>` (one file filter per run) with the stub as every model. */
async function runWith(
  behaviour: StubBehaviour,
  filter: string,
  env: Record<string, string> = {},
): Promise<{ run: EvalRun; stub: StubServer }> {
  const stub = await startStubServer(behaviour);
  try {
    const run = await runEval([filter], {
      OPENAI_COMPATIBLE_BASE_URL: stub.url,
      OPENAI_COMPATIBLE_API_KEY: KEY,
      ENGINE_MODEL: "stub-model",
      ENGINE_MAX_RETRIES: "1",
      ...env,
    });
    dirs.push(run.dir);
    return { run, stub };
  } finally {
    await stub.close();
  }
}

const suites = (run: EvalRun, prefix: string): Suite[] => (run.output?.suites ?? []).filter((s) => s.name.startsWith(prefix));
const scores = (run: EvalRun, prefix: string, name: string): Score[] =>
  suites(run, prefix).flatMap((s) => s.evals.flatMap((e) => (e.scores as Score[]).filter((x) => x.name === name)));
const outputs = (run: EvalRun, prefix: string): Array<Record<string, unknown>> =>
  suites(run, prefix).flatMap((s) => s.evals.map((e) => (e as unknown as { output: Record<string, unknown> }).output));

/** Every byte the run left behind: Evalite's storage (with its cache), the JSON output, logs. */
function leftBehind(run: EvalRun): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(run.dir);
  return files.map((f) => readFileSync(f).toString("latin1")).join("\n") + run.stdout + run.stderr;
}

function expectKeyOnlyInHeaders(run: EvalRun, stub: StubServer): void {
  expect(leftBehind(run)).not.toContain(KEY);
  expect(stub.requests.length).toBeGreaterThan(0);
  for (const r of stub.requests) {
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(r.body)).not.toContain(KEY);
  }
}

function expectNothingSilentlyScored(run: EvalRun): void {
  for (const suite of run.output!.suites) {
    for (const e of suite.evals) {
      expect(e.status, suite.name).toBe("success");
      for (const s of e.scores as Score[]) {
        expect(Number.isFinite(s.score) && s.score >= 0 && s.score <= 1, `${suite.name} ${s.name}`).toBe(true);
      }
    }
  }
}

/** A run made once, on first use, and shared by the tests that read it: one run's report serves several assertions. */
function sharedRun(
  behaviour: StubBehaviour,
  filter: string,
  env: Record<string, string> = {},
): () => Promise<{ run: EvalRun; stub: StubServer }> {
  let started: Promise<{ run: EvalRun; stub: StubServer }> | undefined;
  return () => (started ??= runWith(behaviour, filter, env));
}

/** Answers of one preset. */
const ofPreset = (preset: string) => (a: Record<string, unknown>) => a.preset === preset;

describe("answers over HTTP, through the stub server", () => {
  // Every call first gets 429 (retry-after: 0), then the cooperative reply: the run shows both
  // that rate limits are retried and what good answers and an LLM judge give.
  const rateLimited = sharedRun("rate-limit", ASK_EVAL);
  // Per preset (a model id naming a stub behaviour): slim's answers get 500, balanced's and
  // quality's get text without citations, and the judge (quality's model) breaks its schema.
  const failing = sharedRun("good", ASK_EVAL, {
    ENGINE_MODEL_SLIM: "server-error",
    ENGINE_MODEL_BALANCED: "bad-json",
    ENGINE_MODEL_QUALITY: "bad-json",
    ENGINE_MAX_RETRIES: "0",
  });

  it(
    "good answers: model answers with citations and an LLM-judged triad",
    async () => {
      const { run, stub } = await rateLimited();
      expect(run.stdout).toMatch(/models: openai-compatible at http:\/\/127\.0\.0\.1:\d+\/v1; presets slim=stub-model/);
      expectNothingSilentlyScored(run);
      const answers = outputs(run, "Answers: refusal and citations");
      expect(answers.length).toBe(3 * 30);
      const answered = answers.filter((a) => a.refused === false);
      expect(answered.length).toBeGreaterThan(0);
      for (const a of answered) {
        expect(a.answerer).toBe("openai-compatible.chat/stub-model");
        expect(a.answer).toMatch(/\[1\]/);
      }
      for (const metric of ["Context relevance", "Faithfulness", "Answer relevance"]) {
        const judged = scores(run, "Answers: RAG triad", metric);
        expect(judged.length).toBeGreaterThan(0);
        expect(new Set(judged.map((x) => x.metadata!.method))).toEqual(new Set(["llm-judge"]));
      }
      // Faithfulness by claims: every statement with its verdict in the score, both judge calls in the case's trace.
      const claimed = scores(run, "Answers: RAG triad", "Faithfulness").filter((x) => x.metadata!.vacuous !== true);
      expect(claimed.length).toBeGreaterThan(0);
      for (const x of claimed) {
        expect(x.metadata).toMatchObject({ judgePrompt: "faithfulness@2", supported: x.metadata!.claims });
        expect(x.metadata!.perClaim).toEqual(
          expect.arrayContaining([expect.objectContaining({ statement: expect.any(String), verdict: "supported", refs: [1] })]),
        );
      }
      const traced = suites(run, "Answers: RAG triad")
        .flatMap((s) => s.evals)
        .flatMap((e) => (e as unknown as { traces: Array<{ output: unknown }> }).traces)
        .map((t) => JSON.stringify(t.output));
      // (Evalite discards a scorer's own traces: the columns report the claims, helpers/claims-trace.ts.)
      expect(traced.length).toBe(claimed.length);
      for (const t of traced)
        expect(t).toMatch(/\| statement +\| verdict +\| refs +\| reason +\|.*\| supported +\| 1 +\| The first source states it\. +\|/);
      // Answer correctness against the ten fixture cases' reference answers, judged, in the report.
      const correctness = scores(run, "Answers: answer correctness", "Answer correctness");
      expect(correctness.length).toBe(3 * 10);
      expect(new Set(correctness.map((x) => x.metadata!.method))).toEqual(new Set(["llm-judge"]));
      const reportFile = readdirSync(run.reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json")!;
      const report = JSON.parse(readFileSync(join(run.reportsDir, reportFile), "utf8")) as {
        aggregates: Array<{ eval: string; metrics: Array<{ metric: string }> }>;
      };
      expect(
        report.aggregates.some((a) => a.eval === "Answers: answer correctness" && a.metrics.some((m) => m.metric === "Answer correctness")),
      ).toBe(true);
      expectKeyOnlyInHeaders(run, stub);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "429 with retry-after: retried, then answered",
    async () => {
      const { run, stub } = await rateLimited();
      const answers = outputs(run, "Answers: refusal and citations");
      expect(answers.some((a) => a.refused === false && String(a.answer).includes("[1]"))).toBe(true);
      expect(answers.every((a) => a.error === undefined)).toBe(true);
      const answerCalls = stub.requests.filter((r) => r.kind === "answer");
      expect(answerCalls.length).toBeGreaterThan(answers.filter((a) => a.refusal !== "insufficient-evidence").length / 3);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "server-error: the run completes, failed answers score 0 labeled failed, never as a pass",
    async () => {
      const { run, stub } = await failing();
      expectNothingSilentlyScored(run);
      const slim = outputs(run, "Answers: refusal and citations").filter(ofPreset("slim"));
      const failed = slim.filter((a) => typeof a.error === "string");
      expect(failed.length).toBeGreaterThan(0);
      for (const a of failed) {
        expect(String(a.error)).toMatch(/failed: .*(500|internal server error)/i);
        expect(a.answer).toBe("");
      }
      // The others never called the model: the sources were too weak to answer from.
      for (const a of slim.filter((x) => x.error === undefined)) expect(a.refusal).toBe("insufficient-evidence");
      const refusalScores = scores(run, "Answers: refusal and citations [slim]", "Refusal").filter((x) => x.metadata!.status === "failed");
      expect(refusalScores.length).toBe(failed.length);
      expect(refusalScores.every((x) => x.score === 0)).toBe(true);
      expectKeyOnlyInHeaders(run, stub);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "schema-breaking JSON: the judge falls back to the labeled heuristic",
    async () => {
      const { run } = await failing();
      const faith = scores(run, "Answers: RAG triad", "Faithfulness");
      expect(faith.length).toBeGreaterThan(0);
      const judged = faith.filter((x) => x.metadata!.status === "scored");
      expect(judged.length).toBeGreaterThan(0);
      for (const x of judged) {
        expect(x.metadata).toMatchObject({ method: "heuristic", fallbackFrom: "llm-judge" });
        expect(String(x.metadata!.judgeError)).not.toBe("");
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "timeout: the run completes, failed answers score 0 labeled failed, never as a pass",
    async () => {
      // The stub holds every call open, so every call times out however fast the machine is.
      const { run, stub } = await runWith("timeout", ASK_EVAL, { ENGINE_MAX_RETRIES: "0", ENGINE_TIMEOUT_MS: "100" });
      expectNothingSilentlyScored(run);
      const failed = outputs(run, "Answers: refusal and citations").filter((a) => typeof a.error === "string");
      expect(failed.length).toBeGreaterThan(0);
      expect(String(failed[0]!.error)).toMatch(/failed: .*(abort|timeout|timed out)/i);
      for (const a of failed) expect(a.answer).toBe("");
      const refusalScores = scores(run, "Answers: refusal and citations", "Refusal").filter((x) => x.metadata!.status === "failed");
      expect(refusalScores.length).toBe(failed.length);
      expect(refusalScores.every((x) => x.score === 0)).toBe(true);
      expectKeyOnlyInHeaders(run, stub);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("query expansion over HTTP, through the stub server", () => {
  it(
    "good: model expansions, schema-valid, one call per trial",
    async () => {
      const expansion = await runWith("good", EXPANSION_EVAL);
      expectNothingSilentlyScored(expansion.run);
      // No floors for this model configuration: a pass, said loudly, because something was scored.
      expect(expansion.run.code, expansion.run.stdout + expansion.run.stderr).toBe(0);
      expect(expansion.run.stdout).toMatch(
        /\ngate: NOT GATED: no openai-compatible\S* floors in evals\/baseline\.json, so no mean of this run is held to a floor/,
      );
      const valid = scores(expansion.run, "Query expansion", "Schema valid");
      expect(valid.length).toBe(67 * 3);
      expect(valid.every((x) => x.score === 1 && x.metadata!.expander === "openai-compatible.chat/stub-model")).toBe(true);
      // Trials are distinct calls: each case's three expansion trials sent three different headers.
      const trials = expansion.stub.requests.filter((r) => r.kind === "expansion").map((r) => r.headers["x-eval-trial"]);
      expect(new Set(trials)).toEqual(new Set(["1", "2", "3"]));
      expectKeyOnlyInHeaders(expansion.run, expansion.stub);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "schema-breaking JSON: expansion scored 0 with AJV's errors",
    async () => {
      const expansion = await runWith("bad-json", EXPANSION_EVAL);
      expectNothingSilentlyScored(expansion.run);
      const valid = scores(expansion.run, "Query expansion", "Schema valid");
      expect(valid.length).toBe(67 * 3);
      expect(valid.every((x) => x.score === 0)).toBe(true);
      expect(JSON.stringify(valid[0]!.metadata!.errors)).toMatch(/vectorQueries|must be array/);
      expectKeyOnlyInHeaders(expansion.run, expansion.stub);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "500 on every expansion call: expansion scores are not scored (failed), never the pass of the unexpanded query",
    async () => {
      const { run, stub } = await runWith("server-error", EXPANSION_EVAL, { ENGINE_MAX_RETRIES: "0" });
      expectNothingSilentlyScored(run);
      for (const [suite, metric] of [
        ["Query expansion", "Schema valid"],
        ["Query expansion", "Has vector variants"],
        ["Expansion keeps identifiers", "Keeps identifiers and quotes"],
      ] as const) {
        const all = scores(run, suite, metric);
        expect(all.length, metric).toBeGreaterThan(0);
        expect(
          all.every((s) => s.score === 0 && s.metadata!.status === "failed" && /^model call failed: /.test(String(s.metadata!.fallback))),
          metric,
        ).toBe(true);
      }
      expect(run.stdout).toMatch(
        /cases: \d+ \(retrieval cases and questions\): 0 pass, \d+ fail, 0 error; [^;]*; (\d+) of \1 scores not scored/,
      );
      // Nothing could be scored, and every case errored: no silent pass, although this mode has no floors.
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        /\neval: FAIL \(nothing could be scored: 86 case\(s\), not scored: failed \d+; 86 case\(s\) errored: the target, a model or the task failed \(Query expansion 67, Expansion keeps identifiers 19\): "model call failed: stub: internal server error" ×\d+\); exit 1\n/,
      );
      expectKeyOnlyInHeaders(run, stub);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("pnpm engine ask over HTTP", () => {
  it(
    "a provider failure is one line on stderr and exit 2; a batch still writes every answer",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "ask-cli-"));
      dirs.push(dir);
      const db = join(dir, "index.db");
      // In process, through the CLI's main(argv, io), with `env` as its environment: the compiled
      // CLI's exit status and streams are tested as a process in compiled-clis.test.ts.
      const cli = async (args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> => {
        const r = { status: 0, stdout: "", stderr: "" };
        r.status = await engineMain(args, {
          stdout: (s) => void (r.stdout += s),
          stderr: (s) => void (r.stderr += s),
          env: { ...process.env, ...env },
        });
        return r;
      };
      expect((await cli(["index", join(ROOT, "fixtures/corpus"), "--db", db])).status).toBe(0);
      const stub = await startStubServer("server-error");
      try {
        const env = {
          OPENAI_COMPATIBLE_BASE_URL: stub.url,
          OPENAI_COMPATIBLE_API_KEY: KEY,
          ENGINE_MODEL: "stub-model",
          ENGINE_MAX_RETRIES: "0",
        };
        const one = await cli(["ask", "How many recovery codes do I get with two-factor authentication?", "--db", db], env);
        expect(one.status).toBe(2);
        expect(one.stderr.trim().split("\n").pop()).toMatch(/^engine: answer model openai-compatible\.chat\/stub-model failed: .*/);
        expect(one.stderr).not.toMatch(/\n\s+at /);
        const json = await cli(["ask", "How many recovery codes do I get with two-factor authentication?", "--db", db, "--json"], env);
        expect(json.status).toBe(2);
        expect(JSON.parse(json.stdout).error).toMatch(/^answer model openai-compatible\.chat\/stub-model failed: /);
        expect(json.stderr.trim().split("\n").pop()).toMatch(/^engine: answer model openai-compatible\.chat\/stub-model failed: .*/);
        const questions = join(dir, "q.jsonl");
        writeFileSync(
          questions,
          `${JSON.stringify({ id: "a", question: "How many recovery codes do I get with two-factor authentication?" })}\n${JSON.stringify({ id: "b", text: "What is the phone number of Tessera's headquarters in Lisbon?" })}\n`,
        );
        const out = join(dir, "answers.jsonl");
        const batch = await cli(["ask", "--batch", questions, "--db", db, "--out", out], env);
        expect(batch.status).toBe(2);
        expect(batch.stderr).toMatch(/engine: 1 of 2 answers failed; their lines carry the error/);
        const lines = readFileSync(out, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l));
        expect(lines.map((l) => l.id)).toEqual(["a", "b"]);
        expect(lines[0].error).toMatch(/failed/);
        expect(lines[1]).toMatchObject({ refused: true, refusal: "insufficient-evidence" });
        expect(one.stdout + one.stderr + batch.stdout + batch.stderr + readFileSync(out, "utf8")).not.toContain(KEY);
      } finally {
        await stub.close();
      }
    },
    RUN_TIMEOUT_MS,
  );
});
