/**
 * How a test reads a shared run (configuration.ts): declare it at the top of the file,
 *
 *     const weakened = sharedRun("gate:weakened");
 *
 * and await it in the tests that read it (`(await weakened.run()).code`, `await weakened.fact("…")`).
 * The global setup (setup.ts) runs every configuration the files of the test run declare, once,
 * whichever files read it; the declaration is found in the file's text (declared.ts), so the name
 * is a literal. Everything read is the run as it ended: its exit code and signal, stdout and
 * stderr, its Evalite export (`output`), its sandbox (`dir`: Evalite's storage) and report set
 * (`reportsDir`), there until the test run ends. Read, never write: other tests read the same run.
 *
 * A test that awaits a run gives itself RUN_TIMEOUT_MS (test/eval-run.ts): the run may still be
 * in progress, or queued behind others, when the test starts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import type { EvalRun } from "../eval-run.js";
import type { CommandRun, SharedResult } from "./configuration.js";

export interface SharedRun {
  /** The configuration's result, once its steps ended; throws when they failed. */
  result(): Promise<SharedResult>;
  /** The `pnpm eval` run kept under `label` ("main" unless the configuration makes several). */
  run(label?: string): Promise<EvalRun>;
  /** A command other than `pnpm eval` kept under `label`. */
  command(label: string): Promise<CommandRun>;
  /** A fact the configuration recorded. */
  fact<T>(name: string): Promise<T>;
}

const POLL_MS = 200;
/** One wait per configuration and round of runs in a worker, however many tests read it. */
const waiting = new Map<string, Promise<SharedResult>>();

export function sharedRun(name: string): SharedRun {
  const result = (): Promise<SharedResult> => {
    const { results, names } = manifest();
    const key = join(results, name);
    let pending = waiting.get(key);
    if (!pending) {
      pending = waitFor(name, results, names);
      waiting.set(key, pending);
    }
    return pending;
  };
  const labelled = async (label: string): Promise<EvalRun | CommandRun> => {
    const r = await result();
    const run = r.runs[label];
    if (!run) throw new Error(`shared run ${name} has no run labelled ${JSON.stringify(label)} (it has ${Object.keys(r.runs).join(", ")})`);
    return run;
  };
  return {
    result,
    run: async (label = "main") => (await labelled(label)) as EvalRun,
    command: async (label) => (await labelled(label)) as CommandRun,
    fact: async <T>(key: string) => {
      const r = await result();
      if (!(key in r.facts)) throw new Error(`shared run ${name} recorded no fact ${JSON.stringify(key)}`);
      return r.facts[key] as T;
    },
  };
}

/** The round of runs in progress (setup.ts): where its results go, and which configurations it makes. */
function manifest(): { results: string; names: string[] } {
  return JSON.parse(readFileSync(join(inject("sharedRuns"), "manifest.json"), "utf8")) as { results: string; names: string[] };
}

async function waitFor(name: string, results: string, names: readonly string[]): Promise<SharedResult> {
  if (!names.includes(name))
    throw new Error(`shared run ${name} was not started: the test run's files do not declare it (sharedRun("${name}") in the file's text)`);
  const file = join(results, `${name}.json`);
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  const r = JSON.parse(readFileSync(file, "utf8")) as SharedResult;
  if (r.error) throw new Error(`shared run ${name}: its steps failed: ${r.error}`);
  return r;
}
