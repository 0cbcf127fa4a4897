/**
 * The model paths end to end, over real HTTP, against the stub OpenAI-compatible server on
 * 127.0.0.1 (never a live service). Runs of the answer eval (shared runs,
 * test/shared-runs/configurations/models.ts): good answers and an LLM judge behind a rate limit
 * (every answer call first gets 429 with retry-after), and one fault per preset (500, an empty message, a
 * timeout); runs of the expansion eval with the stub as the expander (the concurrent runs of
 * concurrent-runs.test.ts). Each run completes with every affected score labeled, nothing silently
 * scored, and the API key nowhere but in the request headers. What a model that breaks its schema
 * or fails scores in expansion and in the judge is shown in process, through the same provider and
 * HTTP, without a run around it; what the verdict makes of it is judgeRun's
 * (packages/eval-gate/src/judge-run.test.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main as engineMain } from "@hybrid-search/engine/cli";
import { ModelExpander, selectModels } from "@hybrid-search/engine/models";
import { afterAll, describe, expect, it } from "vitest";
import { loadQueries, validateExpansion } from "../helpers/fixture-files.js";
import { anchorsKeptScore, type ExpansionOutput, queryAnchors, schemaValidScore, variantScore } from "../scorers/expansion.js";
import { askCase, askResult, CODES } from "../scorers/test-data/ask.js";
import { triadScore } from "../scorers/triad/index.js";
import { ROOT, RUN_TIMEOUT_MS, type EvalRun } from "./eval-run.js";
import { KEY, type SeenRequest } from "./shared-runs/configurations/models.js";
import { sharedRun } from "./shared-runs/read.js";
import { startStubServer, type StubBehaviour, type StubServer } from "./stub-openai-server.js";

const answers = sharedRun("models:answers");
const faults = sharedRun("models:faults");
const together = sharedRun("concurrent:together");

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Score = { name: string; score: number; metadata?: Record<string, unknown> };
type Suite = NonNullable<EvalRun["output"]>["suites"][number];

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

/** The key in every request's Authorization header, in no body, and nowhere in what the run left. */
function expectKeyOnlyInHeaders(run: EvalRun, requests: readonly SeenRequest[]): void {
  expect(leftBehind(run)).not.toContain(KEY);
  expect(requests.length).toBeGreaterThan(0);
  for (const r of requests) {
    expect(r.keyInHeader).toBe(true);
    expect(r.keyInBody).toBe(false);
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

/** Answers of one preset. */
const ofPreset = (preset: string) => (a: Record<string, unknown>) => a.preset === preset;

describe("answers over HTTP, through the stub server", () => {
  it(
    "good answers: model answers with citations and an LLM-judged triad",
    async () => {
      // The structured-answer models (one per preset) behind a rate limit, with the stub judge.
      const run = await answers.run("first");
      expect(run.stdout).toMatch(
        /models: openai-compatible at http:\/\/127\.0\.0\.1:\d+\/v1; presets slim=stub-slim, balanced=stub-balanced, quality=stub-quality; judge=stub-judge/,
      );
      expectNothingSilentlyScored(run);
      const all = outputs(run, "Answers: refusal and citations");
      expect(all.length).toBe(3 * 30);
      const answered = all.filter((a) => a.refused === false);
      expect(answered.length).toBeGreaterThan(0);
      for (const a of answered) {
        expect(a.answerer).toMatch(/^openai-compatible\.chat\/stub-(slim|balanced|quality)$/);
        expect(a.answer).toMatch(/\[\d+\]/);
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
      expectKeyOnlyInHeaders(run, await answers.fact<SeenRequest[]>("firstRequests"));
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "429 with retry-after: retried, then answered",
    async () => {
      const run = await answers.run("first");
      const all = outputs(run, "Answers: refusal and citations");
      expect(all.some((a) => a.refused === false && /\[\d+\]/.test(String(a.answer)))).toBe(true);
      expect(all.every((a) => a.error === undefined)).toBe(true);
      const answerCalls = (await answers.fact<SeenRequest[]>("firstRequests")).filter((r) => r.kind === "answer");
      expect(answerCalls.length).toBeGreaterThan(all.filter((a) => a.refusal !== "insufficient-evidence").length / 3);
      // An answer call the stub had not seen was refused with 429 first, then made (one the
      // calibration before made already was answered at once): no more limited than answered.
      const limited = answerCalls.filter((r) => r.rateLimited).length;
      expect(limited).toBeGreaterThan(0);
      expect(limited).toBeLessThanOrEqual(answerCalls.length - limited);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "server-error: the run completes, failed answers score 0 labeled failed, never as a pass",
    async () => {
      // slim's model gets 500 on every call (the run of one fault per preset, model-faults.test.ts's).
      const run = await faults.run();
      expectNothingSilentlyScored(run);
      const slim = outputs(run, "Answers: refusal and citations").filter(ofPreset("slim"));
      const failed = slim.filter((a) => typeof a.error === "string");
      expect(failed.length).toBeGreaterThan(0);
      // On a loaded machine an instant 500 can still reach the client after its timeout: failed all the same.
      expect(failed.some((a) => /failed: .*(500|internal server error)/i.test(String(a.error)))).toBe(true);
      for (const a of failed) {
        expect(String(a.error)).toMatch(/failed: (.*(500|internal server error)|no answer within)/i);
        expect(a.answer).toBe("");
      }
      // The others never called the model: the sources were too weak to answer from.
      for (const a of slim.filter((x) => x.error === undefined)) expect(a.refusal).toBe("insufficient-evidence");
      const refusalScores = scores(run, "Answers: refusal and citations [slim]", "Refusal").filter((x) => x.metadata!.status === "failed");
      expect(refusalScores.length).toBe(failed.length);
      expect(refusalScores.every((x) => x.score === 0)).toBe(true);
      expectKeyOnlyInHeaders(run, await faults.fact<SeenRequest[]>("requests"));
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "timeout: the run completes, failed answers score 0 labeled failed, never as a pass",
    async () => {
      // quality's model holds every call open, so every call times out however fast the machine is.
      const run = await faults.run();
      expectNothingSilentlyScored(run);
      const all = outputs(run, "Answers: refusal and citations");
      const failed = all.filter((a) => typeof a.error === "string");
      const quality = all.filter(ofPreset("quality")).filter((a) => typeof a.error === "string");
      expect(quality.length).toBeGreaterThan(0);
      for (const a of quality)
        expect(String(a.error)).toMatch(/^answer model openai-compatible\.chat\/timeout failed: no answer within \d+ ms/);
      for (const a of failed) expect(a.answer).toBe("");
      const refusalScores = scores(run, "Answers: refusal and citations", "Refusal").filter((x) => x.metadata!.status === "failed");
      expect(refusalScores.length).toBe(failed.length);
      expect(refusalScores.every((x) => x.score === 0)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("query expansion over HTTP, through the stub server", () => {
  it(
    "good: model expansions, schema-valid, one call per trial",
    async () => {
      // The stub as the expander of the runs started together (concurrent-runs.test.ts), the model cache off.
      const run = await together.run("run 1");
      expectNothingSilentlyScored(run);
      // No floors for this model configuration: a pass, said loudly, because something was scored.
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /\ngate: NOT GATED: no openai-compatible\S* floors in evals\/baseline\.json, so no mean of this run is held to a floor/,
      );
      const valid = scores(run, "Query expansion", "Schema valid");
      expect(valid.length).toBe(67 * 3);
      expect(valid.every((x) => x.score === 1 && x.metadata!.expander === "openai-compatible.chat/stub-model")).toBe(true);
      // Trials are distinct calls: each case's three expansion trials sent three different headers.
      const requests = await together.fact<SeenRequest[]>("requests");
      const trials = requests.filter((r) => r.kind === "expansion").map((r) => r.trial);
      expect(new Set(trials)).toEqual(new Set(["1", "2", "3"]));
      expectKeyOnlyInHeaders(run, requests);
    },
    RUN_TIMEOUT_MS,
  );
});

/** The stub with `behaviour` as every model, and the model selection a run with it makes. */
async function modelsOf(behaviour: StubBehaviour, env: Record<string, string> = {}) {
  const stub = await startStubServer(behaviour);
  const selection = selectModels({
    OPENAI_COMPATIBLE_BASE_URL: stub.url,
    OPENAI_COMPATIBLE_API_KEY: KEY,
    ENGINE_MODEL: "stub-model",
    ENGINE_MAX_RETRIES: "0",
    ...env,
  });
  return { stub, selection };
}

/** Every fixture query expanded once by the selection's expander, as the expansion eval's task returns it. */
async function expandAll(selection: ReturnType<typeof selectModels>): Promise<ExpansionOutput[]> {
  const expander = new ModelExpander(selection.expansionModel()!, selection.limits);
  return Promise.all(loadQueries().map(async (q) => ({ query: q.query, ...(await expander.expand(q.query)) })));
}

function expectKeyOnlyInStubHeaders(stub: StubServer): void {
  expect(stub.requests.length).toBeGreaterThan(0);
  for (const r of stub.requests) {
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(r.body)).not.toContain(KEY);
  }
}

describe("what a failing model scores, over HTTP, in process", () => {
  it("schema-breaking JSON: expansion scored 0 with AJV's errors", async () => {
    const { stub, selection } = await modelsOf("bad-json");
    try {
      const expanded = await expandAll(selection);
      const valid = expanded.map((o) => schemaValidScore(o, validateExpansion));
      expect(valid.length).toBe(67);
      expect(valid.every((x) => x.score === 0)).toBe(true);
      expect(JSON.stringify(valid[0]!.metadata!.errors)).toMatch(/vectorQueries|must be array/);
      expectKeyOnlyInStubHeaders(stub);
    } finally {
      await stub.close();
    }
  });

  it("500 on every expansion call: expansion scores are not scored (failed), never the pass of the unexpanded query", async () => {
    const { stub, selection } = await modelsOf("server-error");
    try {
      const expanded = await expandAll(selection);
      const anchored = expanded.filter((o) => queryAnchors(o.query).length > 0);
      expect(anchored.length).toBe(19);
      for (const [metric, all] of [
        ["Schema valid", expanded.map((o) => schemaValidScore(o, validateExpansion))],
        ["Has vector variants", expanded.map((o) => variantScore(o, "vector"))],
        ["Keeps identifiers and quotes", anchored.map((o) => anchorsKeptScore(o))],
      ] as const) {
        expect(all.length, metric).toBeGreaterThan(0);
        expect(
          all.every((s) => s.score === 0 && s.metadata!.status === "failed" && /^model call failed: /.test(String(s.metadata!.fallback))),
          metric,
        ).toBe(true);
      }
      expect(String(expanded[0]!.fallback!.reason)).toMatch(/^model call failed: stub: internal server error/);
      expectKeyOnlyInStubHeaders(stub);
    } finally {
      await stub.close();
    }
  });

  it("schema-breaking JSON: the judge falls back to the labeled heuristic", async () => {
    const { stub, selection } = await modelsOf("good", { ENGINE_JUDGE_MODEL: "bad-json" });
    try {
      const c = askCase({ expectedSubstrings: ["10"], mustCite: [CODES.docId] });
      const answer = askResult("Tessera creates 10 recovery codes [1].", [CODES]);
      for (const metric of ["context-relevance", "faithfulness", "answer-relevance"] as const) {
        const g = await triadScore(metric, c, answer, { judge: selection.judgeModel()! });
        expect(g.metadata, metric).toMatchObject({ method: "heuristic", fallbackFrom: "llm-judge" });
        expect(String(g.metadata.judgeError), metric).not.toBe("");
        expect(g.metadata.status ?? "scored", metric).toBe("scored");
      }
      expect(stub.requests.filter((r) => r.kind === "judge").length).toBeGreaterThan(0);
      expectKeyOnlyInStubHeaders(stub);
    } finally {
      await stub.close();
    }
  });
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
