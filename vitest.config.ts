import { defineConfig } from "vitest/config";

// Unit and integration tests. Eval files (*.eval.ts) are run by Evalite, not by this config.
export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.eval.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
