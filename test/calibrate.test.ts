/**
 * `pnpm eval:calibrate` on the fixtures' labels file (fixtures/labels/answers.jsonl), offline: the
 * heuristic judge's agreement table, each figure reproduced by an independent calculation here (the
 * closed forms of κ, quadratic-weighted κ through moments, ρ as a Pearson correlation of mid-ranks
 * written out again); a mock judge that disagrees with the labels in a known pattern (κ as a hand
 * calculation); a judge that flips on alternate trials; and labels files the command refuses.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { textReply } from "@hybrid-search/engine/testing";
import { type Calibration, calibrate, judgeLine } from "@hybrid-search/eval-gate/calibration";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-calibrate.js";
import { answerCases, judgeLabels, type LabelledAnswer, openEngine, readLabelsFile } from "../bin/lib/calibration-run.js";
import { loadDataset } from "../helpers/dataset.js";
import { loadAskCases } from "../helpers/fixture-files.js";
import { evalModels } from "../helpers/models.js";

const LABELS = join(import.meta.dirname, "../fixtures/labels/answers.jsonl");
const dir = mkdtempSync(join(tmpdir(), "calibrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function calibrateCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const r = { code: 0, stdout: "", stderr: "" };
  try {
    r.code = await main(args, { stdout: (s) => (r.stdout += s), stderr: (s) => (r.stderr += s) });
  } finally {
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  }
  return r;
}

// ------------------------------------------------------------------ the independent calculation

/** Cohen's κ of two 0/1 lists from the 2×2 table: 2(ad − bc) / ((a+b)(b+d) + (a+c)(c+d)), a = both 1. */
function kappa2x2(x: number[], y: number[]): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  x.forEach((v, i) => {
    if (v === 1 && y[i] === 1) a++;
    else if (v === 1) b++;
    else if (y[i] === 1) c++;
    else d++;
  });
  return (2 * (a * d - b * c)) / ((a + c) * (c + d) + (a + b) * (b + d));
}

/** Quadratic-weighted κ from moments: 2·cov / (var x + var y + (x̄ − ȳ)²), population moments. */
function kappaQuadraticByMoments(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let cov = 0;
  let vx = 0;
  let vy = 0;
  for (let i = 0; i < n; i++) {
    cov += (x[i]! - mx) * (y[i]! - my);
    vx += (x[i]! - mx) ** 2;
    vy += (y[i]! - my) ** 2;
  }
  const denominator = (vx + vy) / n + (mx - my) ** 2;
  return denominator === 0 ? Number.NaN : (2 * cov) / n / denominator;
}

/** Spearman's ρ: ranks by counting (ties: 1 + below + (equal − 1)/2), then Pearson. */
function rho(x: number[], y: number[]): number {
  const rank = (v: number[]) => v.map((a) => 1 + v.filter((b) => b < a).length + (v.filter((b) => b === a).length - 1) / 2);
  const rx = rank(x);
  const ry = rank(y);
  const m = (v: number[]) => v.reduce((s, a) => s + a, 0) / v.length;
  const [mx, my] = [m(rx), m(ry)];
  const sxy = rx.reduce((s, a, i) => s + (a - mx) * (ry[i]! - my), 0);
  const sxx = rx.reduce((s, a) => s + (a - mx) ** 2, 0);
  const syy = ry.reduce((s, a) => s + (a - my) ** 2, 0);
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

// ------------------------------------------------------------------ shared answers

let answers: LabelledAnswer[];
const labelsFile = readLabelsFile(LABELS, LABELS);

beforeAll(async () => {
  const models = evalModels({ ENGINE_PROVIDER: "offline" });
  const cases = loadAskCases();
  const engine = await openEngine(loadDataset(), models);
  const wanted = [...new Set(labelsFile.labels.map((l) => l.case))].map((id) => ({
    case: cases.find((c) => c.id === id)!,
    preset: "balanced" as const,
  }));
  answers = await answerCases(engine, wanted, models);
}, 120_000);

describe("the fixtures' labels, heuristic judge, offline", () => {
  it("prints the agreement table, writes it beside the baseline's path given, and every figure has an independent calculation", async () => {
    const out = join(dir, "judge-calibration.json");
    const r = await calibrateCli([LABELS, "--out", out], { ENGINE_PROVIDER: "offline" });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("48 labels of 12 cases by engineer-i");
    expect(r.stdout).toMatch(/^heuristic:$/m);
    expect(r.stdout).toMatch(/^ {2}Faithfulness +0-3 +12 /m);
    expect(r.stdout).toContain("inter-annotator: no case was labelled by two people");
    const calibration = JSON.parse(readFileSync(out, "utf8")) as Calibration;
    expect(calibration.labels).toMatchObject({ count: 48, cases: 12, labellers: ["engineer-i"] });
    const [heuristic] = calibration.methods;
    expect(heuristic).toMatchObject({ method: "heuristic", model: null });

    // The heuristic's scores, by the same graders, and the statistics computed again here.
    const { judged } = await judgeLabels(labelsFile.labels, answers, { judge: undefined, timeoutMs: 1000, trials: 1 });
    for (const m of heuristic!.metrics) {
      const labels = labelsFile.labels.filter((l) => l.metric === m.metric);
      const person = labels.map((l) => (l.grade === "pass" ? 1 : l.grade === "fail" ? 0 : (l.grade as number)));
      const score = labels.map(
        (l) => judged.find((j) => j.method === "heuristic" && j.metric === m.metric && j.case === l.case)!.scores[0]!,
      );
      expect(m.labels, m.metric).toBe(12);
      expect(m.stale).toBe(0);
      if (m.scale === "pass-fail") {
        const judge = score.map((s) => (s >= m.passMark ? 1 : 0));
        expect(m.agreement).toBeCloseTo(person.filter((p, i) => p === judge[i]).length / 12, 12);
        expect(m.kappa.value).toBeCloseTo(kappa2x2(person, judge), 12);
        expect(m.confusion.tp).toBe(person.filter((p, i) => p === 1 && judge[i] === 1).length);
        expect(m.confusion.fp).toBe(person.filter((p, i) => p === 0 && judge[i] === 1).length);
      } else {
        const judge = score.map((s) => Math.round(s * 3 + 1e-9));
        expect(m.agreement).toBeCloseTo(person.filter((p, i) => p === judge[i]).length / 12, 12);
        const k = kappaQuadraticByMoments(person, judge);
        if (Number.isNaN(k)) expect(m.kappa.value).toBeNull();
        else expect(m.kappa.value).toBeCloseTo(k, 12);
        expect(m.confusion.tp).toBe(person.filter((p, i) => p / 3 >= m.passMark && score[i]! >= m.passMark).length);
      }
      const r2 = rho(person, score);
      if (Number.isNaN(r2)) expect(m.spearman.value).toBeNull();
      else expect(m.spearman.value).toBeCloseTo(r2, 12);
      if (m.kappa.value !== null && m.kappa.ci !== null) {
        expect(m.kappa.ci[0]).toBeLessThanOrEqual(m.kappa.value + 1e-12);
        expect(m.kappa.ci[1]).toBeGreaterThanOrEqual(m.kappa.value - 1e-12);
      }
    }
    // The heuristic calls every extractive answer faithful (it only quotes): a constant score says
    // nothing about which answers people found unfaithful — κ 0 (chance), ρ undefined.
    const faithfulness = heuristic!.metrics.find((m) => m.metric === "faithfulness")!;
    expect(faithfulness.kappa.value).toBe(0);
    expect(faithfulness.spearman.value).toBeNull();
    expect(judgeLine(calibration, { method: "heuristic", model: null, judgeConfig: null })).toMatch(
      /^judge: heuristic, κ context-relevance [-\d.]+ \[[-\d.]+, [-\d.]+\], faithfulness 0\.00 .* vs 48 human labels, \d{4}-\d\d-\d\d$/,
    );
  }, 180_000);
});

// ------------------------------------------------------------------ a mock judge

const promptOf = (call: LanguageModelV3CallOptions): string =>
  call.prompt
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("")))
    .join("\n");

/** A judge that covers every topic of the listed questions and none of the others (completeness's schema). */
function topicJudge(covers: (question: string, call: LanguageModelV3CallOptions) => boolean): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "mock",
    modelId: "topic-judge",
    doGenerate: async (call) => {
      const text = promptOf(call);
      const question = /<question>\n([\s\S]*?)\n<\/question>/.exec(text)?.[1] ?? "";
      const topics = [...text.matchAll(/<topic n="(\d+)">/g)].map((m) => Number(m[1]));
      const covered = covers(question, call);
      return textReply(JSON.stringify({ reasoning: "mock", topics: topics.map((topic) => ({ topic, covered })) }));
    },
  });
}

describe("a mock judge that disagrees with the labels in a known pattern", () => {
  const topicLabels = () => labelsFile.labels.filter((l) => l.metric === "topic-coverage");
  const questionOf = (id: string) => answers.find((a) => a.case.id === id)!.case.question;

  it("passes two cases people failed, agrees elsewhere: κ = 7/11 by hand", async () => {
    // People pass a-012, a-017, a-027 and fail the other nine; the judge also passes a-001 and a-002.
    // tp 3, fn 0, fp 2, tn 7: p_o = 10/12; p_e = (3/12)(5/12) + (9/12)(7/12) = 78/144;
    // κ = (120/144 − 78/144) / (66/144) = 42/66 = 7/11.
    const passes = new Set(["a-012", "a-017", "a-027", "a-001", "a-002"].map(questionOf));
    const judge = topicJudge((q) => passes.has(q));
    const labels = topicLabels();
    const { judged, fallbacks } = await judgeLabels(labels, answers, { judge, timeoutMs: 5000, trials: 1 });
    expect(fallbacks).toBe(0);
    const c = calibrate({
      labels,
      judged,
      methods: [{ method: "llm-judge", model: "mock/topic-judge", judgeConfig: "x" }],
      passMark: () => 0.5,
      labelsFile: { file: "answers.jsonl", sha256: labelsFile.sha256, labellers: ["engineer-i"] },
      createdAt: new Date("2026-12-01T00:00:00Z"),
      commit: null,
    });
    const m = c.methods[0]!.metrics[0]!;
    expect(m.confusion).toEqual({ tp: 3, fn: 0, fp: 2, tn: 7 });
    expect(m.kappa.value).toBeCloseTo(7 / 11, 12);
    expect(m.agreement).toBeCloseTo(10 / 12, 12);
    expect(judgeLine(c, { method: "llm-judge", model: "mock/topic-judge", judgeConfig: "x" })).toMatch(
      /^judge: llm-judge mock\/topic-judge, κ topic-coverage 0\.64 \[[-\d.]+, [-\d.]+\] vs 12 human labels, 2026-12-01$/,
    );
    // Other prompts than those calibrated: the κ is another judge's.
    expect(judgeLine(c, { method: "llm-judge", model: "mock/topic-judge", judgeConfig: "y" })).toMatch(
      /κ never measured for its current prompts/,
    );
    expect(judgeLine(null, { method: "llm-judge", model: "mock/topic-judge", judgeConfig: "x" })).toBe(
      "judge: llm-judge mock/topic-judge, κ never measured against human labels (pnpm eval:calibrate <labels>)",
    );
  }, 60_000);

  it("a judge that flips on alternate trials has a flip rate of 1", async () => {
    const judge = topicJudge((_q, call) => call.headers?.["x-eval-trial"] === "1");
    const labels = topicLabels();
    const { judged } = await judgeLabels(labels, answers, { judge, timeoutMs: 5000, trials: 2 });
    const c = calibrate({
      labels,
      judged,
      methods: [{ method: "llm-judge", model: "mock/topic-judge", judgeConfig: null }],
      passMark: () => 0.5,
      labelsFile: { file: "answers.jsonl", sha256: labelsFile.sha256, labellers: ["engineer-i"] },
      createdAt: new Date(),
      commit: null,
    });
    const consistency = c.methods[0]!.metrics[0]!.selfConsistency!;
    expect(consistency).toMatchObject({ trials: 2, cases: 12, flipRate: 1 });
    // Scores 1 and 0 in every case: SD √(1/2).
    expect(consistency.meanSd).toBeCloseTo(Math.SQRT1_2, 12);
  }, 60_000);
});

describe("labels the command refuses, each in one line", () => {
  const header = JSON.stringify({ about: "test", labellers: { p1: "a person" } });
  const label = (over: Record<string, unknown>) =>
    JSON.stringify({
      case: "a-001",
      metric: "faithfulness",
      scale: "0-3",
      grade: 3,
      labeller: "p1",
      preset: "balanced",
      answerSha256: "a8897611aa52366f",
      ...over,
    });
  const cases: Array<[string, string[], RegExp]> = [
    [
      "grade off the scale",
      [header, label({ grade: 4 })],
      /bad\.jsonl:2: \/grade: must be "pass" or "fail" on the pass-fail scale, an integer from 0 to 3/,
    ],
    ["unknown field", [header, label({ score: 1 })], /bad\.jsonl:2: \/: unknown field "score"/],
    ["no header", [label({})], /bad\.jsonl:1: the file must start with its header/],
    ["unknown labeller", [header, label({ labeller: "p2" })], /bad\.jsonl:2: \/labeller: "p2" is not described/],
    ["unknown case", [header, label({ case: "a-999" })], /bad\.jsonl:2: \/case: no answer case "a-999"/],
    ["metric not judged", [header, label({ metric: "refusal" })], /bad\.jsonl:2: \/metric: "refusal" is not a judged metric/],
    ["triad on a refusal case", [header, label({ case: "a-023" })], /bad\.jsonl:2: \/metric: faithfulness does not apply to case a-023/],
    [
      "two scales",
      [header, label({}), label({ case: "a-002", scale: "pass-fail", grade: "pass" })],
      /bad\.jsonl:3: \/scale: faithfulness is graded on the 0-3 scale on line 2/,
    ],
    [
      "graded twice",
      [header, label({}), label({ grade: 2 })],
      /bad\.jsonl:3: p1 already graded faithfulness of case a-001 \(balanced\) on line 2/,
    ],
    [
      "not JSON",
      [header, "{"],
      /bad\.jsonl: line 2 \(\/\): \[invalid-json\] invalid JSON at column 2: expected a double-quoted property name but found the end of the file$/m,
    ],
    ["null", [header, "null"], /bad\.jsonl:2: must be a JSON object \(a header or a label\)$/m],
  ];
  for (const [what, lines, message] of cases)
    it(what, async () => {
      const path = join(dir, "bad.jsonl");
      writeFileSync(path, `${lines.join("\n")}\n`);
      const r = await calibrateCli([path, "--out", join(dir, "never.json")], { ENGINE_PROVIDER: "offline" });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    });
});
