// The dependency rules of this repository (docs/architecture.md), checked by `pnpm test`
// (test/dependencies.test.ts) and by `pnpm deps` (a readable report).
//
// Dependencies point one way: the system under test (packages/engine) and the measuring packages
// (packages/trec-eval, packages/eval-gate) depend on nothing of the suite or of each other; the
// suite (evals/, scorers/, helpers/) depends on them; bin/ and bench/ only wire.
/** Dependencies on npm packages and Node built-ins, which any package may have. */
const EXTERNAL = ["npm", "npm-dev", "core", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle makes two modules one; split the shared part out instead.",
      from: {},
      to: { circular: true },
    },
    // The three packages: each imports nothing outside its own folder (npm packages and Node's own are fine).
    ...[
      ["engine", "The system under test must not know how it is measured."],
      ["trec-eval", "The ruler (trec_eval's measures) must not depend on what it measures."],
      ["eval-gate", "The gate takes its inputs as data."],
    ].map(([pkg, why]) => ({
      name: `${pkg}-self-contained`,
      severity: "error",
      comment: `${why} packages/${pkg} imports nothing outside itself.`,
      from: { path: `^packages/${pkg}/` },
      to: { path: `^(?!packages/${pkg}/)`, dependencyTypesNot: EXTERNAL },
    })),
    {
      name: "scorers-are-pure",
      severity: "error",
      comment: "Scorers grade what they are given; data loading, tasks and wiring live in helpers/, evals/ and bin/.",
      from: { path: "^scorers/" },
      to: { path: "^(helpers|evals|bin|bench|test)/" },
    },
    {
      name: "helpers-below-evals",
      severity: "error",
      comment: "helpers/ serve eval files and bin/; they never import them.",
      from: { path: "^helpers/" },
      to: { path: "^(evals|bin|bench|test)/" },
    },
    {
      name: "nothing-imports-entry-points",
      severity: "error",
      comment: "Process entries (bin/entry/, packages/*/src/entry.ts), bench/ and eval files are wiring that nothing else imports.",
      from: {},
      to: {
        path: "^(bin/entry|bench|evals)/|/bench/|^packages/[^/]+/src/entry\\.ts$",
        pathNot: "^packages/[^/]+/bench/[^/]+\\.ts$",
      },
    },
    {
      name: "commands-for-entries-and-tests",
      severity: "error",
      comment: "A command in bin/ (its main) is run by its entry in bin/entry/ and by tests in test/; nothing else imports it.",
      from: { pathNot: "^(bin|test)/" },
      to: { path: "^bin/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // dist/: the compiled CLIs (pnpm build), a copy of the sources' graph.
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".json"],
    },
  },
};
