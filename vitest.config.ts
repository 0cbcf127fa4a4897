import { defineConfig } from "vitest/config";

// Unit and integration tests. Eval files (*.eval.ts) are run by Evalite, not by this config.
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.eval.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The end-to-end tests spawn the compiled CLIs: build them first (incremental).
    globalSetup: ["./test/build-clis.ts"],
  },
});
