// The dependency rules of this repository (docs/architecture.md), checked by `pnpm test`
// (test/dependencies.test.ts) and by `pnpm deps` (a readable report).
//
// Dependencies point one way: the system under test (packages/engine) and the measuring packages
// (packages/trec-eval, packages/eval-gate) depend on nothing of the suite or of each other; the
// target contract (packages/target-contract) depends on nothing of the workspace, and only the
// engine's server implements it among the packages; the suite (evals/, scorers/, helpers/) depends
// on them; bin/ and bench/ only wire; examples/ (target modules a user would write) use the
// packages only and are loaded by path, never imported.
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
    // The packages: each imports nothing of the workspace outside its own folder (npm packages and
    // Node's own are fine), except the target contract where a package implements it.
    ...[
      ["engine", "The system under test must not know how it is measured; it may implement the target contract.", ["target-contract"]],
      ["trec-eval", "The ruler (trec_eval's measures) must not depend on what it measures.", []],
      ["eval-gate", "The gate takes its inputs as data.", []],
      ["target-contract", "The contract between a target and the suite belongs to neither side of a call.", []],
    ].map(([pkg, why, allowed]) => ({
      name: `${pkg}-self-contained`,
      severity: "error",
      comment: `${why} packages/${pkg} imports nothing outside itself${allowed.length > 0 ? ` but packages/${allowed.join(", ")}` : ""}.`,
      from: { path: `^packages/${pkg}/` },
      to: { path: `^(?!packages/(${[pkg, ...allowed].join("|")})/)`, dependencyTypesNot: EXTERNAL },
    })),
    {
      name: "engine-core-without-contract",
      severity: "error",
      comment:
        "The engine answers in the contract's messages, declared once in the contract (its types.ts and turn.ts); only the engine's server (packages/engine/src/serve/) and its tests use the rest of the contract (validators, limiter, errors).",
      from: { path: "^packages/engine/", pathNot: "^packages/engine/(src/serve|test)/" },
      to: { path: "^packages/target-contract/", pathNot: "^packages/target-contract/src/(types|turn)\\.ts$" },
    },
    // A package is one unit with a public face (its package.json `exports`): what is outside it
    // imports it by name, so what it exposes is what it exports, and a move inside it breaks no one.
    {
      name: "packages-by-name",
      severity: "error",
      comment: "Import a package by its name (@hybrid-search/<package>/<subpath>), never by a relative path into its folder.",
      from: { pathNot: "^packages/" },
      to: { path: "^packages/", dependencyTypes: ["local"] },
    },
    {
      name: "packages-by-name-between-packages",
      severity: "error",
      comment: "A package imports another package by its name (@hybrid-search/<package>), never by a relative path into its folder.",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/", pathNot: "^packages/$1/", dependencyTypes: ["local"] },
    },
    {
      name: "scorers-are-pure",
      severity: "error",
      comment: "Scorers grade what they are given; data loading, tasks and wiring live in helpers/, evals/ and bin/.",
      from: { path: "^scorers/" },
      to: { path: "^(helpers|evals|bin|bench|test)/" },
    },
    {
      name: "grading-without-engine-analysis",
      severity: "error",
      comment:
        "Graders read text with grading's own normalizer (scorers/text/), never the engine's analyzer: a change to the engine's stemming must not change what a grade means.",
      from: { path: "^scorers/" },
      to: { path: "^packages/engine/src/(analysis\\.ts$|text/)" },
    },
    {
      name: "datasets-without-engine",
      severity: "error",
      comment:
        "The data layer reads a dataset itself (its files, documents, languages): what a dataset says must not depend on how the measured engine reads text. Its end-to-end tests may run the engine.",
      from: { path: "^helpers/datasets/", pathNot: "\\.test\\.ts$" },
      to: { path: "^packages/engine/" },
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
      comment:
        "Process entries (bin/entry/, packages/*/src/entry.ts), the benchmarks (bench/, packages/*/bench/*-bench.ts) and eval files are wiring that nothing else imports; bench/lib/ is the benchmarks' own library (and their tests').",
      from: {},
      to: { path: "^(bin/entry|evals)/|^bench/(?!lib/)|^packages/[^/]+/bench/[^/]+-bench\\.ts$|^packages/[^/]+/src/entry\\.ts$" },
    },
    {
      name: "bench-library-for-benchmarks",
      severity: "error",
      comment: "bench/lib/ serves the benchmarks and the tests of what they share; the suite never imports it.",
      from: { pathNot: "^(bench|test)/" },
      to: { path: "^bench/lib/" },
    },
    {
      name: "config-for-the-run",
      severity: "error",
      comment:
        "config/ is what evalite.config.ts loads (the run's storage, the compiled-suite plugin): the configuration, the commands and the tests import it, the suite does not.",
      from: { pathNot: "^(config|bin|test)/|^evalite\\.config\\.ts$" },
      to: { path: "^config/" },
    },
    {
      name: "examples-stand-alone",
      severity: "error",
      comment:
        "An example target module (examples/) is what a user writes: it imports the packages and npm packages only, and the run loads it by its path (EVAL_TARGET); nothing imports it.",
      from: { path: "^examples/" },
      to: { path: "^(helpers|scorers|evals|bin|bench|test)/" },
    },
    {
      name: "nothing-imports-examples",
      severity: "error",
      comment: "Example target modules are loaded by their path at run time (EVAL_TARGET), never imported.",
      from: {},
      to: { path: "^examples/" },
    },
    {
      name: "commands-for-entries-and-tests",
      severity: "error",
      comment:
        "A command in bin/ (its main) is run by its entry in bin/entry/ and by tests in test/; nothing else imports it. What the commands share (bin/lib/) the benchmarks may use too: both are entry points.",
      from: { pathNot: "^(bin|test|bench)/" },
      to: { path: "^bin/" },
    },
    {
      name: "benchmarks-use-only-bin-lib",
      severity: "error",
      comment: "A benchmark uses what the commands share (bin/lib/), never a command itself.",
      from: { path: "^bench/" },
      to: { path: "^bin/(?!lib/)" },
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
