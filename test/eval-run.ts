/** Runs `pnpm eval` (the compiled bin/eval.ts) in a sandbox: its own Evalite storage, port, output file and reports folder. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Evalite } from "evalite";

export const ROOT = resolve(import.meta.dirname, "..");

/**
 * What `pnpm <script>` runs, as a command and its arguments to spawn from ROOT without pnpm: the
 * package.json script (a `node ...` line; its `node` is this process's executable).
 */
export function scriptCommand(script: string): { command: string; args: string[] } {
  const line = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts[script];
  const [program, ...args] = line?.split(" ") ?? [];
  if (program !== "node") throw new Error(`package.json script "${script}" is not a plain "node ..." command: ${line}`);
  return { command: process.execPath, args };
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.unref();
    server.on("error", rej);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => res(port));
    });
  });
}

export interface EvalRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** This run's results as Evalite's JSON export (--outputPath), when written. */
  output?: Evalite.Exported.Output;
  dir: string;
  /** Where the run's report set went (EVAL_REPORTS_DIR, `<dir>/reports` unless given). */
  reportsDir: string;
}

export async function runEval(args: string[], env: Record<string, string> = {}): Promise<EvalRun> {
  const dir = mkdtempSync(join(tmpdir(), "eval-run-"));
  const outputPath = join(dir, "results.json");
  const port = await freePort();
  const command = scriptCommand("eval");
  const child = spawn(command.command, [...command.args, ...args, "--outputPath", outputPath], {
    cwd: ROOT,
    env: {
      ...process.env,
      EVALITE_STORAGE: join(dir, "evalite.db"),
      EVALITE_PORT: String(port),
      EVAL_REPORTS_DIR: join(dir, "reports"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((res) => child.on("exit", res));
  const run: EvalRun = { code, stdout, stderr, dir, reportsDir: env.EVAL_REPORTS_DIR ?? join(dir, "reports") };
  if (existsSync(outputPath)) run.output = JSON.parse(readFileSync(outputPath, "utf8")) as Evalite.Exported.Output;
  return run;
}
