/**
 * `pnpm eval:init` in process (bin/eval-init.ts's main): what it writes and says, and its one-line
 * errors; `pnpm eval search` on what it wrote — a run of a one-file filter on the in-process
 * engine, so it also shows what such a filter runs and builds; and the full `pnpm eval` it suggests
 * next: every eval the starter feeds, --update-baseline setting its first floors from that real
 * run (logged with date, commit and reason), then the next run gated by them. The runs are shared
 * (test/shared-runs/configurations/datasets.ts: `init:search`, `init:floors`). What the starter dataset holds is tested in bin/lib/starter-dataset.test.ts; the
 * compiled CLI is spawned in test/compiled-clis.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-init.js";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import type { Baseline } from "@hybrid-search/eval-gate/baseline";
import { ROOT, RUN_TIMEOUT_MS } from "./eval-run.js";
import { HYBRID } from "./shared-runs/configurations/fixtures.js";
import { sharedRun } from "./shared-runs/read.js";

const oneFile = sharedRun("init:search");
const floors = sharedRun("init:floors");

const scratch = mkdtempSync(join(tmpdir(), "eval-init-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function init(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe("pnpm eval:init", () => {
  it("bad arguments and a non-empty folder are one line and exit 2; a new folder gets the starter dataset", () => {
    expect(init([])).toEqual({ code: 2, stdout: "", stderr: "eval:init: one folder is needed, got 0; Usage: pnpm eval:init <folder>\n" });
    const full = join(scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "x"), "");
    const refused = init([full]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^[^\n]+ is not empty; eval:init writes only into a new or empty folder[^\n]*\n$/);
    const fresh = join(scratch, "new");
    const ok = init([fresh]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^eval:init: wrote a starter dataset to .*: 4 documents, 5 judged queries, 5 answer cases/);
  });

  it(
    "a one-file filter on the starter dataset: EVAL_DATASET=<folder> pnpm eval search exits 0, every query scored, running evals/search.eval.ts only (not vsearch.eval.ts) and building only the dataset's index",
    async () => {
      const r = await oneFile.run();
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/eval: dataset next \(5 queries, 5 answer cases\): the suite's fixture format \(detected: /);
      // A new dataset has no floors yet: said so, and the run passes because every eval scored something.
      expect(r.stdout).toMatch(/gate: NOT GATED: no offline@next floors/);
      const evals = r.output!.suites.find((s) => s.name === "Search (BM25)")!.evals;
      expect(evals).toHaveLength(5);
      for (const s of evals.flatMap((e) => e.scores)) expect(s.score >= 0 && s.score <= 1, `${s.name} = ${s.score}`).toBe(true);
      // `search` names one file exactly (Evalite's own filter also ran vsearch.eval.ts), and the run
      // builds only the index that file measures, not the lanes'.
      expect(new Set(r.output!.suites.map((s) => s.filepath))).toEqual(new Set([join(ROOT, "evals/search.eval.ts")]));
      const out = stripAnsi(r.stdout);
      expect(out.match(/evals\/\w+\.eval\.ts/g)).toEqual(["evals/search.eval.ts"]);
      expect(out.match(/^index: building .*$/gm)).toEqual(["index: building dataset next…"]);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "pnpm eval:init my-ds && EVAL_DATASET=my-ds pnpm eval runs every eval the starter feeds, answers and cross-language included; --update-baseline sets its own floors (no foreign history), and the next run is gated by them",
    async () => {
      const folder = join(scratch, "my-ds");
      expect(init([folder]).stdout).toContain(
        `Next: EVAL_DATASET=${folder} pnpm eval (every eval it feeds, answers and cross-language included`,
      );
      // The configuration's runs: a copy of the project's baseline, which holds the fixtures' floors
      // and cases, which the new dataset must not inherit.
      const first = await floors.run("first");
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.stdout).toMatch(/gate: NOT GATED: no offline@my-ds floors/);
      expect(first.stdout).toMatch(/no cases recorded for this mode yet/);
      const measured = first.output!.suites.filter((s) => s.evals.length > 0).map((s) => s.name);
      for (const name of [
        "Search (BM25)",
        "Vector search",
        "Hybrid query (balanced)",
        "Thoroughness [thorough]",
        "Tier order over all queries",
        "Cross-language recall",
        "Cross-language recall matrix",
        "Query expansion",
        "Answers: refusal and citations [offline extractive]",
        "Answers: facts [offline extractive]",
        "Answers: required citations [offline extractive]",
        "Answers: forbidden content [offline extractive]",
        "Answers: topics [offline extractive]",
        "Answers: RAG triad [offline extractive]",
        "Answers: questions [offline extractive]",
      ])
        expect(measured, name).toContain(name);
      expect(first.output!.suites.find((s) => s.name === "Answers: questions [offline extractive]")!.evals).toHaveLength(5);
      // What the starter cannot feed is skipped and says why: no query holds an identifier, and it
      // brings no turn cases (saying how to add them).
      const skippedLine = /^eval: 2 eval\(s\) skipped, not scored: (.*)$/m.exec(first.stdout);
      expect(skippedLine, first.stdout).not.toBeNull();
      expect(skippedLine![1]!.split("; ").sort()).toEqual([
        "Agent turns (dataset my-ds has no turn cases: a turn-cases.json in the suite's turn-case format, or a v10r-style golden-cases.json, in its folder adds them (docs/evals.md, The agent eval))",
        "Expansion keeps identifiers (no query of dataset my-ds holds an identifier or a quoted phrase)",
      ]);
      const set = (await floors.fact<Baseline>("after")).floors;
      expect(Object.keys(set["offline@my-ds"] ?? {})).toEqual(
        expect.arrayContaining(["Answers: questions", "Cross-language recall", "Search (BM25)"]),
      );
      const second = await floors.run("second");
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(second.stdout).not.toMatch(/NOT GATED/);
      expect(second.stdout).toMatch(/^gate: offline@my-ds floors from \S+: [1-9]\d* checked, 0 fell, 0 missing/m);
      expect(second.stdout).toMatch(/^cases: .*0 regressed/m);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "--update-baseline sets floors, ceilings and recorded cases from a real run, and logs them with date, commit and reason",
    async () => {
      const first = await floors.run("first");
      expect(first.stdout).toMatch(
        /baseline: .*baseline\.json: [1-9]\d* floor\(s\) added, 0 raised, 0 lowered, 0 removed; [1-9]\d* ceiling\(s\) added, 0 tightened, 0 loosened, 0 removed/,
      );
      expect(first.stdout).toMatch(/baseline: cases: \d+ recorded as passing, \d+ as failing, 0 removed/);
      const before = await floors.fact<Baseline>("before");
      const b = await floors.fact<Baseline>("after");
      expect(b.version).toBe(2);
      // The fixtures' floors and history stay as they were: the new dataset's are its own.
      expect(b.floors.offline).toEqual(before.floors.offline);
      // A latency ceiling for the engine-timed eval: at least 3 × its p95, at least 2 s (the offline minimum).
      expect(b.ceilings["offline@my-ds"]![HYBRID]!.all).toBeGreaterThanOrEqual(2000);
      const cases = b.cases["offline@my-ds"]![HYBRID]!;
      expect(cases.pass.length + cases.fail.length).toBe(5);
      const floor = b.floors["offline@my-ds"]![HYBRID]!["nDCG@10"]!.all!;
      expect(floor).toBeGreaterThan(0.3);
      expect(b.log).toHaveLength(before.log.length + 1);
      const entry = b.log.at(-1)!;
      expect(entry).toMatchObject({ mode: "offline@my-ds", action: "raise", reason: "the starter's first floors" });
      expect(entry.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.changes.find((c) => c.key === `${HYBRID}|nDCG@10|all`)).toMatchObject({ from: null, to: floor, n: 5 });
      expect(entry.cases!.length).toBe(Object.values(b.cases["offline@my-ds"]!).reduce((n, r) => n + r.pass.length + r.fail.length, 0));
    },
    RUN_TIMEOUT_MS,
  );
});
