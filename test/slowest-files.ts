/**
 * A Vitest reporter (vitest.config.ts, after the default one): at the end of the test run, the ten
 * slowest test files with their times, and the commands that ran evals (`pnpm eval`, `evalite run`,
 * `pnpm eval:calibrate`: test/shared-runs/run-log.ts) — how many, how long, and the shared
 * configurations that made most of them. The suite's time goal is `pnpm test` within two minutes
 * (docs/benchmarks.md); what makes it grow shows here as it happens.
 */
import type { Reporter, TestModule } from "vitest/node";
import { type LoggedCommand, readLog, RUN_LOG_ENV } from "./shared-runs/run-log.js";

const SHOWN = 10;

/** A file's time from its import to its last test and hook. */
export function fileSeconds(module: Pick<TestModule, "diagnostic">): number {
  const d = module.diagnostic();
  return (d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration) / 1000;
}

/** The lines printed: the slowest files, then the commands that ran evals. */
export function summary(files: ReadonlyArray<{ name: string; seconds: number }>, commands: readonly LoggedCommand[]): string[] {
  const lines = [`Slowest test files (of ${files.length}):`];
  for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN))
    lines.push(`  ${f.seconds.toFixed(1).padStart(6)} s  ${f.name}`);
  const total = commands.reduce((sum, c) => sum + c.ms, 0) / 1000;
  const shared = commands.filter((c) => c.configuration !== undefined);
  const configurations = new Map<string, { n: number; ms: number }>();
  for (const c of shared) {
    const entry = configurations.get(c.configuration!) ?? { n: 0, ms: 0 };
    entry.n++;
    entry.ms += c.ms;
    configurations.set(c.configuration!, entry);
  }
  lines.push(
    `Commands that ran evals: ${commands.length} (${total.toFixed(1)} s in all, overlapping): ${shared.length} by ${configurations.size} shared configuration(s), ${commands.length - shared.length} by the tests themselves`,
  );
  const longest = [...configurations].sort((a, b) => b[1].ms - a[1].ms).slice(0, 5);
  if (longest.length > 0)
    lines.push(`  longest shared: ${longest.map(([name, c]) => `${name} ${(c.ms / 1000).toFixed(1)} s (${c.n})`).join(", ")}`);
  return lines;
}

export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const files = testModules.map((m) => ({ name: `${m.project.name}:${m.relativeModuleId}`, seconds: fileSeconds(m) }));
    const log = process.env[RUN_LOG_ENV];
    process.stdout.write(`\n${summary(files, log ? readLog(log) : []).join("\n")}\n`);
  }
}
