/**
 * Runs `pnpm eval` (the compiled bin/eval.ts) in a sandbox: its own Evalite storage, output file and
 * reports folder (it listens on no port: helpers/evalite-socket.ts). Every run is counted in the
 * test run's log of commands (test/shared-runs/run-log.ts), which `pnpm test` sums up at its end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Evalite } from "evalite";
import { logCommand } from "./shared-runs/run-log.js";

export const ROOT = resolve(import.meta.dirname, "..");

/**
 * The test timeout per `pnpm eval` run a test makes. A full offline run takes about 30 s on the
 * project's 2-core machine when it is quiet and about 50 s when loaded; 300 s keeps a test green
 * on a machine several times slower (a pass must not depend on speed) and still ends a hung run.
 */
export const RUN_TIMEOUT_MS = 300_000;

/**
 * What `pnpm <script>` runs, as a command and arguments to spawn from any folder without pnpm: the
 * package.json script (a `node ...` line), its `node` this process's executable and its file
 * arguments made absolute (pnpm runs scripts from ROOT).
 */
export function scriptCommand(script: string): { command: string; args: string[] } {
  const line = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts[script];
  const [program, ...args] = line?.split(" ") ?? [];
  if (program !== "node") throw new Error(`package.json script "${script}" is not a plain "node ..." command: ${line}`);
  return { command: process.execPath, args: args.map((arg) => (existsSync(join(ROOT, arg)) ? join(ROOT, arg) : arg)) };
}

export interface EvalRun {
  code: number | null;
  /** The signal that ended the run, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** This run's results as Evalite's JSON export (--outputPath), when written. */
  output?: Evalite.Exported.Output;
  dir: string;
  /** Where the run's report set went (EVAL_REPORTS_DIR, `<dir>/reports` unless given). */
  reportsDir: string;
}

/** `onStart` gets the running `pnpm eval` process (to interrupt it, say). */
export async function runEval(args: string[], env: Record<string, string> = {}, onStart?: (child: ChildProcess) => void): Promise<EvalRun> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), "eval-run-"));
  const outputPath = join(dir, "results.json");
  const command = scriptCommand("eval");
  const child = spawn(command.command, [...command.args, ...args, "--outputPath", outputPath], {
    cwd: ROOT,
    env: {
      ...process.env,
      EVALITE_STORAGE: join(dir, "evalite.db"),
      EVAL_REPORTS_DIR: join(dir, "reports"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  onStart?.(child);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((res) =>
    child.on("exit", (code, signal) => res([code, signal])),
  );
  const run: EvalRun = {
    code,
    signal,
    stdout,
    stderr,
    dir,
    reportsDir: env.EVAL_REPORTS_DIR ?? join(dir, "reports"),
  };
  if (existsSync(outputPath)) run.output = JSON.parse(readFileSync(outputPath, "utf8")) as Evalite.Exported.Output;
  logCommand({ command: `pnpm eval ${args.join(" ")}`.trim(), ms: Date.now() - started, code, signal });
  return run;
}

/** What a command printed and returned. */
export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `pnpm eval <args>` in process, through bin/eval.ts's `main`, with `env` set in process.env for
 * the call: for what it refuses before Evalite starts (a run needs its own process: runEval).
 */
export async function evalInProcess(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  // Imported here, not at the top: the shared runs' global setup loads this module for runEval alone.
  const { main: evalMain } = await import("../bin/eval.js");
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  const r = { code: 0, stdout: "", stderr: "" };
  try {
    r.code = await evalMain(args, {
      stdout: (s) => (r.stdout += s),
      stderr: (s) => (r.stderr += s),
      exit: (status) => {
        throw new Error(`pnpm eval ${args.join(" ")} reached Evalite and exited ${status}; use runEval for a run`);
      },
    });
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return r;
}
