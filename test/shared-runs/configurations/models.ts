/**
 * Runs whose models are the stub OpenAI-compatible server on 127.0.0.1 (test/stub-openai-server.ts),
 * never a live service: answers from a structured-answer model (one per preset) through a rate
 * limit, with the judge calibrated and the run's cost counted, then replayed from the model cache;
 * a dry run and a budget; one fault per preset (a 500, an empty message, a hang); a slow free-text
 * model that refuses in the question's language. Read by models-e2e, answers-stub-e2e,
 * judge-cost-e2e, model-faults and concurrent-runs.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { selectModels } from "@hybrid-search/engine/models";
import { loadAskCases, loadRefusalMarkers } from "../../../helpers/fixture-files.js";
import { scriptCommand } from "../../eval-run.js";
import { type AnswerCall, type RecordedRequest, type StubOptions, type StubServer, startStubServer } from "../../stub-openai-server.js";
import type { Configuration, StepContext } from "../configuration.js";
import { committedBaseline } from "./fixtures.js";

/** The API key every stub run sends; it must appear nowhere but in the requests' Authorization header. */
export const KEY = "sk-stub-SECRET-7f3a9c";

const ASK_CASES = loadAskCases();
const CASES = new Map(ASK_CASES.map((c) => [c.question, c]));
const MARKERS = loadRefusalMarkers();

/** What a test reads of a request the stub was sent (plain JSON): its kind, model, trial and whether the key was where it belongs. */
export interface SeenRequest {
  kind: RecordedRequest["kind"];
  model: string | null;
  trial: string | null;
  /** The Authorization header was `Bearer <KEY>`. */
  keyInHeader: boolean;
  /** The body held the key (it never may). */
  keyInBody: boolean;
  /** Answered 429 by the rate limit: not a call made. */
  rateLimited: boolean;
}

const seen = (requests: readonly RecordedRequest[]): SeenRequest[] =>
  requests.map((r) => ({
    kind: r.kind,
    model: typeof r.body.model === "string" ? r.body.model : null,
    trial: (r.headers["x-eval-trial"] as string | undefined) ?? null,
    keyInHeader: r.headers.authorization === `Bearer ${KEY}`,
    keyInBody: JSON.stringify(r.body).includes(KEY),
    rateLimited: r.rateLimited === true,
  }));

/** The stub's requests from `from` on, as the tests read them, kept as fact `name`. */
function keepRequests(ctx: StepContext, stub: StubServer, name: string, from = 0): void {
  ctx.fact(name, seen(stub.requests.slice(from)));
}

/** The models of a run: the stub at `url`, with the key. */
const modelsAt = (url: string, env: Record<string, string>) => ({
  OPENAI_COMPATIBLE_BASE_URL: url,
  OPENAI_COMPATIBLE_API_KEY: KEY,
  ...env,
});

/** Refusals that contain no refusal phrase of any language: only `refused` says so. */
export const UNMARKED: Record<string, string> = {
  en: "Sorry, that is beyond what I can say here.",
  de: "Dazu kann ich leider nichts sagen.",
  fr: "Désolé, je ne peux rien dire à ce sujet.",
  it: "Mi dispiace, su questo non posso dire nulla.",
};

/** The refs of the sources that are the case's required documents (the first source when it requires none). */
function requiredRefs(call: AnswerCall, mustCite: readonly string[]): number[] {
  const refs = call.sources.filter((s) => mustCite.includes(s.doc)).map((s) => s.ref);
  return refs.length > 0 ? refs : call.sources.slice(0, 1).map((s) => s.ref);
}

/**
 * The structured-answer models, one per preset: quality states every fact, balanced the first,
 * slim refuses — except a-001, where quality refuses and slim answers.
 */
function structuredAnswer(call: AnswerCall): ReturnType<NonNullable<StubOptions["answer"]>> {
  const c = CASES.get(call.question);
  if (!c) return undefined;
  const refuse = (language: string) => ({ answer: UNMARKED[language]!, refused: true, citations: [] });
  if (c.expectedRefusal) return refuse(c.language);
  const facts = c.expectedSubstrings ?? [];
  const full = {
    answer: `${facts.join("; ") || "The sources say so"} [${requiredRefs(call, c.mustCite ?? []).join("] [")}]`,
    refused: false,
  };
  const model = c.id === "a-001" ? ({ "stub-quality": "stub-slim", "stub-slim": "stub-quality" }[call.model] ?? call.model) : call.model;
  if (model === "stub-quality") return { ...full, citations: requiredRefs(call, c.mustCite ?? []) };
  if (model === "stub-balanced") {
    const refs = requiredRefs(call, c.mustCite ?? []).slice(0, 1);
    return { answer: `${facts[0] ?? "The sources say so"} [${refs[0]}]`, refused: false, citations: refs };
  }
  return refuse(c.language);
}

/** One model per preset (Evalite's cache collapses identical calls within a run, so presets sharing a model would replay each other). */
export const PRESET_MODELS = {
  ENGINE_MODEL_SLIM: "stub-slim",
  ENGINE_MODEL_BALANCED: "stub-balanced",
  ENGINE_MODEL_QUALITY: "stub-quality",
};

/** A price table (prices.schema.json) with `models`. */
function prices(ctx: StepContext, name: string, models: Record<string, { input: number; output: number }>): string {
  const file = join(ctx.work, name);
  writeFileSync(file, JSON.stringify({ currency: "USD", per: "1M tokens", source: "test", retrieved: "2026-12-01", models }));
  return file;
}

/** The three faults, one per preset: a model id that names a stub behaviour gets that behaviour. */
export const FAULTS = { ENGINE_MODEL_SLIM: "server-error", ENGINE_MODEL_BALANCED: "empty", ENGINE_MODEL_QUALITY: "timeout" };

/** `steps` with a stub server of `behaviour` running; what it was sent is kept as fact `requests`. */
async function withStub(
  ctx: StepContext,
  behaviour: Parameters<typeof startStubServer>[0],
  options: StubOptions,
  steps: (stub: StubServer) => Promise<void>,
): Promise<void> {
  const stub = await startStubServer(behaviour, 0, options);
  try {
    await steps(stub);
  } finally {
    await stub.close();
    keepRequests(ctx, stub, "requests");
  }
}

/** `pnpm eval:calibrate <args>` (the compiled CLI), kept under `label`. */
function calibrate(ctx: StepContext, label: string, args: string[], env: Record<string, string>) {
  const { command, args: prefix } = scriptCommand("eval:calibrate");
  return ctx.command(label, `pnpm eval:calibrate ${args.join(" ")}`, command, [...prefix, ...args], { ...process.env, ...env });
}

export const MODELS: Record<string, Configuration> = {
  "models:faults": {
    what: "`pnpm eval ask` with one fault per preset — slim's calls get 500, balanced's an empty message, quality's hang past ENGINE_TIMEOUT_MS — and a cooperative judge (model-faults, models-e2e)",
    // It mostly waits on the stub model.
    cores: 0.5,
    steps: (ctx) =>
      withStub(ctx, "good", {}, async (stub) => {
        await ctx.evalRun(
          "main",
          ["ask"],
          modelsAt(stub.url, {
            ...FAULTS,
            // Not a behaviour's name: the stub answers it as a cooperative judge.
            ENGINE_JUDGE_MODEL: "stub-judge",
            ENGINE_MAX_RETRIES: "0",
            // An instant 500 or empty reply must not time out on a loaded machine; the hanging calls wait this long.
            ENGINE_TIMEOUT_MS: "3000",
          }),
        );
      }),
  },
  "models:slow-text": {
    what: "`pnpm eval ask` with a slow free-text model (the server rejects the JSON format) that refuses every question in its language, on a baseline whose latency ceilings it exceeds (answers-stub-e2e)",
    // It mostly waits on the stub model.
    cores: 0.5,
    steps: (ctx) => {
      const refusalIn = (language: string) => `${MARKERS[language]![0]!.replace(/^./, (c) => c.toUpperCase())} an answer to this question.`;
      return withStub(
        ctx,
        "good",
        {
          jsonAnswers: false,
          answer: (call) => {
            const c = CASES.get(call.question);
            return c ? { answer: refusalIn(c.language), refused: true, citations: [] } : undefined;
          },
          delayMs: (_model, kind) => (kind === "answer" ? 400 : 0),
        },
        async (stub) => {
          const env = modelsAt(stub.url, { ...PRESET_MODELS, ENGINE_MAX_RETRIES: "0", ENGINE_TIMEOUT_MS: "20000" });
          const mode = selectModels({ ...process.env, ...env }).configuration;
          const baseline = join(ctx.work, "baseline.json");
          writeFileSync(
            baseline,
            JSON.stringify({
              version: 2,
              tolerance: { absolute: 0.01, perSqrtN: 0.1, minSliceN: 5 },
              passMarks: { default: 0.5, metrics: {} },
              ceilingTolerance: { factor: 3, minMs: 1000 },
              floors: {},
              cases: {},
              log: [],
              ceilings: { [mode]: { "Answers: questions": { "preset=slim": 300, "preset=balanced": 300, "preset=quality": 300 } } },
            }),
          );
          await ctx.evalRun("main", ["evals/ask.eval.ts"], { ...env, EVAL_BASELINE: baseline });
        },
      );
    },
  },
  "models:answers": {
    what: "the structured-answer models (one per preset) behind a rate limit (every answer call first gets 429): labels of their answers and `pnpm eval:calibrate` for the judge, then `pnpm eval ask` with prices, then again on the same storage, every call from the model cache (answers-stub-e2e, models-e2e, judge-cost-e2e, concurrent-runs)",
    // It mostly waits on the stub model.
    cores: 0.5,
    steps: (ctx) =>
      // The judge's calls are not limited: a judge retries a failed call itself, with a header of
      // its own (the cache keys the attempt), so a judge call limited once would be made again by
      // the second run instead of replayed.
      withStub(ctx, "rate-limit", { answer: structuredAnswer, rateLimits: (kind) => kind === "answer" }, async (stub) => {
        const env = modelsAt(stub.url, {
          ...PRESET_MODELS,
          ENGINE_JUDGE_MODEL: "stub-judge",
          // The rate limit's 429 is retried once.
          ENGINE_MAX_RETRIES: "1",
          EVAL_BASELINE: committedBaseline(ctx),
          // A price for the answerers' models, none for the judge's: its cost is unknown, its tokens counted.
          EVAL_PRICES: prices(ctx, "prices.json", {
            "stub-slim": { input: 1, output: 2 },
            "stub-balanced": { input: 1, output: 2 },
            "stub-quality": { input: 1, output: 2 },
          }),
          EVALITE_STORAGE: join(ctx.work, "shared", "evalite.db"),
        });
        // What a labeller reads: the answers, each with the hash a label names.
        const shown = await calibrate(ctx, "show", ["--show", "a-001,a-003,a-004,a-005"], env);
        const shas = [...shown.stdout.matchAll(/^== (a-\d+) .*answerSha256 ([0-9a-f]{16})$/gm)].map((m) => [m[1]!, m[2]!]);
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
        writeFileSync(join(ctx.work, "labels.jsonl"), `${labels.join("\n")}\n`);
        await calibrate(ctx, "calibrate", [join(ctx.work, "labels.jsonl")], env);
        const calibration = join(ctx.work, "judge-calibration.json");
        ctx.fact("calibration", existsSync(calibration) ? JSON.parse(readFileSync(calibration, "utf8")) : null);
        const before = stub.requests.length;
        await ctx.evalRun("first", ["ask"], env);
        keepRequests(ctx, stub, "firstRequests", before);
        const between = stub.requests.length;
        await ctx.evalRun("second", ["ask"], env);
        ctx.fact("secondCalls", stub.requests.length - between);
      }),
  },
  "models:dry-run": {
    what: "`pnpm eval ask --dry-run` with the stub as every model and a judge: no call made (judge-cost-e2e)",
    steps: (ctx) =>
      withStub(ctx, "good", {}, async (stub) => {
        await ctx.evalRun(
          "main",
          ["ask", "--dry-run"],
          modelsAt(stub.url, {
            ENGINE_MODEL: "stub-model",
            ENGINE_JUDGE_MODEL: "stub-judge",
            EVAL_PRICES: prices(ctx, "prices.json", { "stub-model": { input: 1, output: 2 } }),
          }),
        );
      }),
  },
  "models:max-cost": {
    what: "`pnpm eval ask --max-cost 0.01` with every model priced: it stops before the call that would pass the budget; then `--max-cost 1` with the judge unpriced, refused before anything runs (judge-cost-e2e)",
    steps: (ctx) =>
      withStub(ctx, "good", {}, async (stub) => {
        const env = modelsAt(stub.url, { ENGINE_MODEL: "stub-model", ENGINE_JUDGE_MODEL: "stub-judge" });
        const allPriced = prices(ctx, "all-priced.json", { "stub-model": { input: 1, output: 1 }, "stub-judge": { input: 1, output: 1 } });
        await ctx.evalRun("main", ["ask", "--max-cost", "0.01"], { ...env, EVAL_PRICES: allPriced });
        const judgeUnpriced = prices(ctx, "judge-unpriced.json", { "stub-model": { input: 1, output: 2 } });
        await ctx.evalRun("unpriced", ["ask", "--max-cost", "1"], { ...env, EVAL_PRICES: judgeUnpriced });
      }),
  },
  "models:faults-expansion": {
    what: "`pnpm eval '*p*'` (temporal and expansion) with the expander on the balanced preset, whose model answers an empty message (model-faults)",
    steps: (ctx) =>
      withStub(ctx, "good", {}, async (stub) => {
        await ctx.evalRun(
          "main",
          ["*p*"],
          modelsAt(stub.url, {
            ...FAULTS,
            ENGINE_JUDGE_MODEL: "stub-judge",
            ENGINE_MAX_RETRIES: "0",
            ENGINE_TIMEOUT_MS: "3000",
            ENGINE_EXPANSION_PRESET: "balanced",
          }),
        );
      }),
  },
};
