/**
 * A shared run configuration: the setting an end-to-end test needs (the fixtures offline, a
 * weakened engine, the stub model server, a target, a user's dataset…), run once per test run by
 * the shared runs' global setup (setup.ts), and read by every test that needs it (read.ts). A
 * configuration is the steps that make its runs: start what it needs (a stub server, a target),
 * run `pnpm eval` (or another command) once or a few times in order, stop what it started, and
 * record what its tests read besides the runs (what a stub server was sent: `fact`).
 *
 * What a configuration records must be plain JSON: the tests read it in another thread.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { type EvalRun, ROOT } from "../eval-run.js";
import { logCommand } from "./run-log.js";

/** A command other than `pnpm eval` (Evalite's own CLI, `pnpm eval:calibrate`), as it ended. */
export interface CommandRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** What the steps of a configuration have to work with. */
export interface StepContext {
  /** A folder of this configuration's own, removed with the shared runs. */
  work: string;
  /** `pnpm eval <args>` (runEval), its run kept under `label` for the tests. */
  evalRun(label: string, args: string[], env?: Record<string, string>, onStart?: (child: ChildProcess) => void): Promise<EvalRun>;
  /**
   * A command from the repository's root with `env` as its whole environment, kept under `label`;
   * `shown` is how the log of commands names it (`evalite run evals/search.eval.ts`).
   */
  command(label: string, shown: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandRun>;
  /** Something the tests read besides the runs (plain JSON), e.g. what a stub server was sent. */
  fact(name: string, value: unknown): void;
}

export interface Configuration {
  /** What the runs are, and which tests read them: one line. */
  what: string;
  /**
   * How many cores its runs keep busy, on average, while they run (their CPU time over their wall
   * time): about 1.5 for a full run (`pnpm eval`'s process, Evalite's worker and the engine's
   * threads), 1 for a run of a few eval files, 0.5 for runs that mostly wait (on a model's rate
   * limit, hang or delay, on a target's timeouts), 2 for runs started together. The scheduler
   * keeps the sum within the machine's cores plus one (setup.ts).
   * @default 1
   */
  cores?: number;
  /**
   * Runs first, with no other configuration beside it: its verdict depends on time (the committed
   * floors' latency scores and ceilings), which other runs sharing the cores would stretch.
   * @default false
   */
  alone?: boolean;
  steps(ctx: StepContext): Promise<void>;
}

/** What a configuration left for its tests. */
export interface SharedResult {
  name: string;
  /** Each run by its label. */
  runs: Record<string, EvalRun | CommandRun>;
  facts: Record<string, unknown>;
  /** How long its steps took (ms). */
  ms: number;
  /** Why the steps themselves failed (a server that did not start, a step that threw); absent when they did not. */
  error?: string;
}

/** `node_modules/.bin/evalite <args>` from the root, as a person runs Evalite's own CLI. */
export const EVALITE_BIN = join(ROOT, "node_modules/.bin/evalite");

/** Runs `command args` from the root and collects what it printed; logged as `shown`, like a `pnpm eval` run. */
export async function runCommand(shown: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandRun> {
  const started = Date.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  logCommand({ command: shown, ms: Date.now() - started, code, signal });
  return { code, signal, stdout, stderr };
}
