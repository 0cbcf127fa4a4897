/**
 * `pnpm bench:eval`: how long the offline Definition-of-Done run takes, against the framework's
 * floor measured in the same session — `evalite run` of one trivial eval (one case, one scorer,
 * SQLite storage like ours) in a scratch folder. Prints medians of N runs each, interleaved, and
 * the ratio. Usage: pnpm bench:eval [--runs N] (default 3).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { countFlagOrExit } from "../helpers/cli-args.js";

const runs = countFlagOrExit("bench:eval", "runs", 3);

const root = resolve(import.meta.dirname, "..");

const scratch = mkdtempSync(join(tmpdir(), "eval-floor-"));
const cleanup = (): void => rmSync(scratch, { recursive: true, force: true });
process.on("exit", cleanup);
writeFileSync(join(scratch, "package.json"), JSON.stringify({ type: "module", private: true }));
symlinkSync(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
writeFileSync(
  join(scratch, "evalite.config.ts"),
  `import { defineConfig } from "evalite/config";\nimport { createSqliteStorage } from "evalite/sqlite-storage";\nexport default defineConfig({ storage: () => createSqliteStorage(process.env.EVALITE_STORAGE!) });\n`,
);
writeFileSync(
  join(scratch, "trivial.eval.ts"),
  `import { evalite } from "evalite";\nevalite("Trivial", { data: [{ input: "a", expected: "a" }], task: (i) => i, scorers: [{ name: "same", scorer: ({ output, expected }) => (output === expected ? 1 : 0) }] });\n`,
);

function time(cmd: string, args: string[], cwd: string, storage: string): number {
  const started = performance.now();
  // Reports of timed runs go to the scratch folder, not reports/.
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, EVALITE_STORAGE: storage, EVALITE_PORT: "0", EVAL_REPORTS_DIR: join(scratch, "reports") },
    stdio: "ignore",
  });
  const ms = performance.now() - started;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}`);
  return ms;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const suite: number[] = [];
const floor: number[] = [];
for (let i = 0; i < runs; i++) {
  floor.push(time(join(root, "node_modules/.bin/evalite"), ["run"], scratch, join(scratch, `floor-${i}.db`)));
  // What `pnpm eval` runs (package.json), without pnpm.
  const evalCli = ["--conditions=compiled", "--import", join(root, "bin/check-build.mjs"), join(root, "dist/bin/entry/eval.js")];
  suite.push(time(process.execPath, evalCli, root, join(scratch, `suite-${i}.db`)));
}
const s = median(suite);
const f = median(floor);
console.log(
  `pnpm eval (offline, every eval file): median ${(s / 1000).toFixed(2)} s over ${runs} runs [${suite.map((x) => (x / 1000).toFixed(2)).join(", ")}]`,
);
console.log(
  `evalite run, one trivial eval:        median ${(f / 1000).toFixed(2)} s over ${runs} runs [${floor.map((x) => (x / 1000).toFixed(2)).join(", ")}]`,
);
console.log(`ratio: ${(s / f).toFixed(2)}× the framework's floor; target: pnpm eval under 30 s — ${s < 30_000 ? "met" : "MISSED"}`);
