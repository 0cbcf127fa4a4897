/**
 * Vitest global setup (vitest.config.ts, after test/build-clis.ts): runs each shared run
 * configuration the test files of this run declare (`sharedRun("<name>")`, declared.ts) exactly
 * once, in the background while the other files run, at most one core's worth more at a time than
 * the machine has (`cores` of each configuration), in the order of CONFIGURATIONS, except that one
 * marked `alone` runs first with none beside it. Each configuration's result is written to
 * `<folder>/<name>.json` when its steps end; the tests wait for it (read.ts).
 * The folder reaches the tests as `inject("sharedRuns")`; it and every run's sandbox are removed
 * when the test run ends (its runs' reports and Evalite storage are read by the tests until then).
 *
 * Watch mode: a rerun makes the runs again (the code under test may have changed).
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type EvalRun, runEval } from "../eval-run.js";
import { type CommandRun, type Configuration, runCommand, type SharedResult, type StepContext } from "./configuration.js";
import { CONFIGURATIONS } from "./configurations/index.js";
import { declaredIn } from "./declared.js";
import { RUN_LOG_ENV, runningConfiguration } from "./run-log.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of the shared runs' results (setup.ts). */
    sharedRuns: string;
  }
}

/** What the tests read first: the configurations this test run makes, so a missing declaration is named, not waited for. */
export const MANIFEST = "manifest.json";

export default function setup(project: TestProject): () => Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "shared-runs-"));
  project.provide("sharedRuns", folder);
  process.env[RUN_LOG_ENV] = join(folder, "commands.jsonl");
  // The test files of this run (the state's paths are collected before global setup; an
  // experimental API of Vitest, pinned in package.json).
  let batch = start(folder, needed(project.vitest.state.getPaths()), 0);
  let round = 0;
  project.onTestsRerun(async (specifications) => {
    await batch.stop();
    batch = start(folder, needed(specifications.map((s) => s.moduleId)), ++round);
  });
  return async () => {
    await batch.stop();
    rmSync(folder, { recursive: true, force: true });
  };
}

/**
 * The configurations `files` declare, those to run `alone` first (before any other has started),
 * then in CONFIGURATIONS' order; a name it does not hold stops the run.
 */
export function needed(files: readonly string[]): string[] {
  const declared = new Set(files.flatMap(declaredIn));
  const unknown = [...declared].filter((name) => !(name in CONFIGURATIONS));
  if (unknown.length > 0)
    throw new Error(
      `sharedRun: no configuration named ${unknown.map((n) => JSON.stringify(n)).join(", ")} in test/shared-runs/configurations/ (known: ${Object.keys(CONFIGURATIONS).join(", ")})`,
    );
  const names = Object.keys(CONFIGURATIONS).filter((name) => declared.has(name));
  return [...names.filter((name) => CONFIGURATIONS[name]!.alone), ...names.filter((name) => !CONFIGURATIONS[name]!.alone)];
}

interface Batch {
  /** Waits for the configurations that started, and starts no other. */
  stop(): Promise<void>;
}

/** Starts `names` in the background, as many at a time as the cores allow; writes the manifest at once. */
function start(folder: string, names: readonly string[], round: number): Batch {
  const results = join(folder, `round-${round}`);
  mkdirSync(results, { recursive: true });
  writeFileSync(join(folder, MANIFEST), JSON.stringify({ results, names }));
  // One core's worth more than the machine has: a run's use of the cores varies (its start, an
  // index build, its waits on a model or a target), and these runs are the test run's critical
  // path — the files that read them wait — so a core they leave idle costs more than one they share
  // with another run.
  const cores = Math.max(2, availableParallelism()) + 1;
  const queue = [...names];
  const running = new Set<Promise<void>>();
  const sandboxes: string[] = [];
  let busy = 0;
  let stopped = false;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    while (queue.length > 0 && !stopped) {
      const next = queue[0]!;
      const configuration = CONFIGURATIONS[next]!;
      const need = configuration.alone ? cores : Math.min(cores, configuration.cores ?? 1);
      if (busy + need > cores) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      queue.shift();
      busy += need;
      const done = runConfiguration(next, configuration, results, sandboxes).finally(() => {
        busy -= need;
        running.delete(done);
        wake();
      });
      running.add(done);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake();
      await loop;
      await Promise.all(running);
      for (const dir of sandboxes) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one configuration's steps and writes what it left: its runs, its facts, or why its steps failed. */
async function runConfiguration(name: string, configuration: Configuration, results: string, sandboxes: string[]): Promise<void> {
  const started = Date.now();
  const work = join(results, `${name.replace(/\W+/g, "-")}-work`);
  mkdirSync(work, { recursive: true });
  const runs: Record<string, EvalRun | CommandRun> = {};
  const facts: Record<string, unknown> = {};
  const keep = (label: string, run: EvalRun | CommandRun) => {
    if (label in runs) throw new Error(`${name}: two runs labelled ${JSON.stringify(label)}`);
    runs[label] = run;
    return run;
  };
  const ctx: StepContext = {
    work,
    evalRun: async (label, args, env = {}, onStart) => {
      const run = await runEval(args, env, onStart);
      sandboxes.push(run.dir);
      return keep(label, run) as EvalRun;
    },
    command: async (label, shown, command, args, env) => keep(label, await runCommand(shown, command, args, env)) as CommandRun,
    fact: (key, value) => {
      facts[key] = value;
    },
  };
  const result: SharedResult = { name, runs, facts, ms: 0 };
  try {
    await runningConfiguration.run(name, () => configuration.steps(ctx));
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  result.ms = Date.now() - started;
  writeFileSync(join(results, `${name}.json.tmp`), JSON.stringify(result));
  // Renamed when complete: a reader never sees half a file.
  renameSync(join(results, `${name}.json.tmp`), join(results, `${name}.json`));
}
