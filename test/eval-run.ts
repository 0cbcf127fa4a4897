/** Runs `pnpm eval` (bin/eval.ts) in a sandbox: its own Evalite storage, port, output file and reports folder. */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Evalite } from "evalite";

export const ROOT = resolve(import.meta.dirname, "..");

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
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bin/entry/eval.ts"), ...args, "--outputPath", outputPath], {
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
