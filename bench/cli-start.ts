/**
 * `pnpm bench:start [--runs N]`: how long each CLI takes from invocation to its first line of
 * output, against `node -e 0` and against a pnpm script that runs `node -e 0`, measured in the same
 * session, interleaved, N runs each (default 10); medians, and the ratios to both floors.
 *
 * Each CLI is started two ways: as its package.json script runs it (`node …`, what pnpm starts
 * after its own start-up) and through pnpm itself (`pnpm <script>`, the command a user types; the
 * pnpm that runs this benchmark, from npm_execpath). `pnpm eval` is timed to its own first line
 * ("eval: dataset …", after its checks and Evalite's configuration), then stopped: Evalite's run is
 * not start-up. Everything runs offline against a temp index of fixtures/corpus.
 *
 * For the commands started as `node …` it also reads the CPU time (user + system) the process
 * has used when its first line arrives (Linux: /proc/<pid>/stat), a figure a loaded machine
 * changes far less than the wall time; "—" where the process was already gone.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { countFlagOrExit } from "../bin/lib/cli-args.js";

const runs = countFlagOrExit("bench:start", "runs", 10);

const root = resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "cli-start-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
const db = join(scratch, "index.db");
const qrels = join(scratch, "qrels.txt");
const run = join(scratch, "run.txt");
writeFileSync(qrels, "q1 0 d1 1\nq1 0 d2 0\n");
writeFileSync(run, "q1 Q0 d2 1 2.0 r\nq1 Q0 d1 2 1.0 r\n");
// A pnpm project whose only script is `node -e 0`: pnpm's own start-up, nothing else.
writeFileSync(join(scratch, "package.json"), JSON.stringify({ name: "noop", private: true, scripts: { noop: "node -e 0" } }));

const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
/** A package.json script's `node …` line as argv, run from the root as pnpm does. */
const scriptArgv = (name: string): string[] => {
  const [program, ...args] = scripts[name]!.split(" ");
  if (program !== "node") throw new Error(`package.json script "${name}" is not a "node …" command`);
  return [process.execPath, ...args];
};
const pnpm = process.env.npm_execpath;
const pnpmArgv = (...args: string[]): string[] | null => (pnpm ? [process.execPath, pnpm, ...args] : null);

interface Case {
  name: string;
  argv: string[] | null;
  cwd: string;
  /** The first line that is the command's own (pnpm's banner is not); null: time to exit. */
  first: RegExp | null;
  /** Stop it there (pnpm eval would go on to run every eval; start-up is over). */
  stop?: boolean;
  /** Read its CPU time at the first line: the process started is the command itself, not pnpm. */
  cpu?: boolean;
}

const engineArgs = ["stats", "--db", db];
const trecArgs = ["-m", "map", qrels, run];
const cases: Case[] = [
  // Waits after its output, so that its CPU time can be read; it is stopped there.
  {
    name: "node -e 0",
    argv: [process.execPath, "-e", "process.stdout.write('x'); setTimeout(() => {}, 5000)"],
    cwd: root,
    first: /x/,
    stop: true,
    cpu: true,
  },
  { name: "pnpm noop (node -e 0)", argv: pnpmArgv("noop"), cwd: scratch, first: null },
  { name: "engine stats (node)", argv: [...scriptArgv("engine"), ...engineArgs], cwd: root, first: /^collections:/m, cpu: true },
  { name: "pnpm engine stats", argv: pnpmArgv("engine", ...engineArgs), cwd: root, first: /^collections:/m },
  { name: "trec-eval (node)", argv: [...scriptArgv("trec-eval"), ...trecArgs], cwd: root, first: /^map\s/m, cpu: true },
  { name: "pnpm trec-eval", argv: pnpmArgv("trec-eval", ...trecArgs), cwd: root, first: /^map\s/m },
  { name: "eval:compare --help (node)", argv: [...scriptArgv("eval:compare"), "--help"], cwd: root, first: /^Usage:/m, cpu: true },
  { name: "pnpm eval:compare --help", argv: pnpmArgv("eval:compare", "--help"), cwd: root, first: /^Usage:/m },
  { name: "eval, to its first line (node)", argv: scriptArgv("eval"), cwd: root, first: /^eval: dataset /m, stop: true, cpu: true },
  { name: "pnpm eval, to its first line", argv: pnpmArgv("eval"), cwd: root, first: /^eval: dataset /m, stop: true },
  {
    name: "engine stats (tsx, as before)",
    argv: [process.execPath, "--import", "tsx", join(root, "packages/engine/src/entry.ts"), ...engineArgs],
    cwd: root,
    first: /^collections:/m,
    cpu: true,
  },
];

/** CPU milliseconds (user + system) process `pid` has used so far, or null when it is gone (Linux's /proc; 100 ticks a second). */
function cpuMsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Milliseconds from spawn to the first output matching `first` (or to exit), and the CPU time it
 * had used then (`cpu` cases); the process then ends, or is stopped.
 */
function timeToFirstLine(c: Case, argv: string[]): Promise<{ ms: number; cpuMs: number | null }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: c.cwd,
      env: { ...process.env, EVALITE_PORT: "0", EVALITE_STORAGE: join(scratch, "evalite.db"), EVAL_REPORTS_DIR: scratch },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    let at: number | null = null;
    let cpuMs: number | null = null;
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (at === null && c.first?.test(out)) {
        at = performance.now() - started;
        if (c.cpu) cpuMs = cpuMsOf(child.pid!);
        if (c.stop) process.kill(-child.pid!, "SIGTERM");
      }
    });
    child.stderr.resume();
    child.on("exit", (code, signal) => {
      if (at === null && c.first === null && code === 0) at = performance.now() - started;
      if (at === null) fail(new Error(`${c.name}: no matching output (exit ${code ?? signal}): ${out.slice(0, 200)}`));
      else done({ ms: at, cpuMs });
    });
  });
}

const index = spawnSync(scriptArgv("engine")[0]!, [...scriptArgv("engine").slice(1), "index", join(root, "fixtures/corpus"), "--db", db], {
  cwd: root,
  encoding: "utf8",
});
if (index.status !== 0) throw new Error(`indexing the fixtures failed: ${index.stderr}`);

const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
const cpuTimes = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let i = 0; i < runs; i++) {
  for (const c of cases) {
    if (!c.argv) continue;
    const { ms, cpuMs } = await timeToFirstLine(c, c.argv);
    times.get(c.name)!.push(ms);
    if (cpuMs !== null) cpuTimes.get(c.name)!.push(cpuMs);
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const node = median(times.get("node -e 0")!);
const noop = pnpm ? median(times.get("pnpm noop (node -e 0)")!) : null;
console.log(
  `${runs} runs each, interleaved; medians (min–max) in ms; ratios of medians; CPU: the process's user + system time at its first line`,
);
console.log(
  `${"command".padEnd(34)} ${"first line".padStart(10)} ${"range".padStart(13)} ${"÷ node -e 0".padStart(12)} ${"÷ pnpm noop".padStart(12)} ${"CPU".padStart(8)}`,
);
for (const c of cases) {
  const xs = times.get(c.name)!;
  if (xs.length === 0) {
    console.log(`${c.name.padEnd(34)} (not run: start this benchmark through pnpm, which sets npm_execpath)`);
    continue;
  }
  const m = median(xs);
  const viaPnpm = c.name.startsWith("pnpm ");
  const cpu = cpuTimes.get(c.name)!;
  console.log(
    `${c.name.padEnd(34)} ${m.toFixed(0).padStart(10)} ${`${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`.padStart(13)} ${`${(m / node).toFixed(1)}×`.padStart(12)} ${(viaPnpm && noop ? `${(m / noop).toFixed(2)}×` : "").padStart(12)} ${(cpu.length > 0 ? median(cpu).toFixed(0) : c.cpu ? "—" : "").padStart(8)}`,
  );
}
