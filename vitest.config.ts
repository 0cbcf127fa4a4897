import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Vitest's order (the previous run's longest files first, larger files first when it has no
 * record), except that the end-to-end files (test/, each spawning `pnpm eval` runs that take tens
 * of seconds) always start first: the longest files begin while the short ones fill the other
 * worker, so a fresh clone's first run does not end on one long file running alone.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const endToEnd = (spec: TestSpecification) => relative(spec.project.config.root, spec.moduleId).startsWith("test/");
    return [...sorted.filter(endToEnd), ...sorted.filter((spec) => !endToEnd(spec))];
  }
}

// Unit and integration tests. Eval files (*.eval.ts) are run by Evalite, not by this config.
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.eval.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which runs the
    // files one after another. The long files mostly wait on the processes and servers they start,
    // so two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Worker threads, not forked processes: a file's worker starts and imports for about a fifth
    // less CPU (85 files without test/: 130 CPU-seconds against 161). No test changes its working
    // folder (which a thread cannot), and better-sqlite3 loads in threads.
    pool: "threads",
    sequence: { sequencer: EndToEndFirst },
    // The end-to-end tests spawn the compiled CLIs: build them first (incremental).
    globalSetup: ["./test/build-clis.ts"],
  },
});
