import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";
import { declaredIn } from "./test/shared-runs/declared.js";

/**
 * Vitest's order (the previous run's longest files first, larger files first when it has no
 * record), except that the long files start first — the browser's (test/ui/: Chromium, its own
 * `evalite serve`), the end-to-end files of test/ that spawn processes themselves, then the
 * packages' integration tests (packages/<name>/test/, which build indexes of 10,000 documents,
 * start servers and processes), then the unit tests beside the code — and the other files that
 * read shared runs (test/shared-runs/) come last: their runs are made in the background meanwhile
 * (the shared runs' global setup), so the other files fill the cores while the runs wait on their
 * models and targets, and the readers find them made. The longest files begin while the short ones
 * fill the other worker, so a fresh clone's run (CI's, with no record) does not end on one long
 * file running alone.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const path = relative(spec.project.config.root, spec.moduleId);
      if (path.startsWith("test/ui/")) return 0;
      if (declaredIn(spec.moduleId).length > 0) return 4;
      if (path.startsWith("test/")) return 1;
      return /^packages\/[^/]+\/test\//.test(path) ? 2 : 3;
    };
    return [0, 1, 2, 3, 4].flatMap((r) => sorted.filter((spec) => rank(spec) === r));
  }
}

/**
 * Files that must have their own module graph: each mocks a module (vi.mock) that the other files
 * import unmocked, and prompts.test.ts counts a module's file reads, which a module loaded by an
 * earlier file in the same worker would already have made.
 */
const OWN_MODULES = ["packages/engine/test/prompts.test.ts", "test/refusal-markers-input.test.ts"];

const EXCLUDE = ["**/node_modules/**", "**/*.eval.ts"];

/** What both projects share: vitest.config.ts's root options are not inherited by its projects. */
const common = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Worker threads, not forked processes: a file's worker starts and imports for about a fifth
  // less CPU (85 files without test/: 130 CPU-seconds against 161). No test changes its working
  // folder (which a thread cannot), and better-sqlite3 loads in threads.
  pool: "threads",
} as const;

// Unit and integration tests. Eval files (*.eval.ts) are run by Evalite, not by this config.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which runs the
    // files one after another. The long files mostly wait on the processes and servers they start,
    // so two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    // The end-to-end tests spawn the compiled CLIs: build them first (incremental); then start the
    // shared runs the test files declare (test/shared-runs/). The root's global setup runs once for
    // the whole run, whichever projects have files in it.
    globalSetup: ["./test/build-clis.ts", "./test/shared-runs/setup.ts"],
    // At the end, the ten slowest files and the commands that ran evals (test/slowest-files.ts).
    reporters: ["default", "./test/slowest-files.ts"],
    projects: [
      {
        // One module graph per worker, not per file (`isolate: false`): a worker imports the
        // engine, Evalite, the gate and their dependencies once, not once per file that uses them
        // (the 93 files outside test/: 78 CPU-seconds against 115; the whole suite about 15 %
        // less, docs/benchmarks.md).
        // Every file here leaves the modules it imports as it found them (a test that sets
        // process.env puts it back).
        test: { ...common, name: "shared", include: ["**/*.test.ts"], exclude: [...EXCLUDE, ...OWN_MODULES], isolate: false },
      },
      { test: { ...common, name: "isolated", include: OWN_MODULES, exclude: EXCLUDE, isolate: true } },
    ],
  },
});
