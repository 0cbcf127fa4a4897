// The dependency rules of this repository (docs/architecture.md), checked by `pnpm test`
// (test/dependencies.test.ts) and by `pnpm deps` (a readable report).
//
// Dependencies point one way: the system under test (packages/engine) and the measuring packages
// (packages/trec-eval, packages/eval-gate) depend on nothing of the suite or of each other; the
// suite (evals/, scorers/, helpers/) depends on them; bin/ and bench/ only wire.
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
    {
      name: "engine-self-contained",
      severity: "error",
      comment: "The system under test imports nothing outside packages/engine: it must not know how it is measured.",
      from: { path: "^packages/engine/" },
      to: { path: "^(?!packages/engine/)", dependencyTypesNot: ["npm", "npm-dev", "core", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "trec-eval-self-contained",
      severity: "error",
      comment: "The ruler (trec_eval's measures) imports nothing outside packages/trec-eval, least of all what it measures.",
      from: { path: "^packages/trec-eval/" },
      to: { path: "^(?!packages/trec-eval/)", dependencyTypesNot: ["npm", "npm-dev", "core", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "eval-gate-self-contained",
      severity: "error",
      comment: "The gate takes its inputs as data: it imports nothing outside packages/eval-gate.",
      from: { path: "^packages/eval-gate/" },
      to: { path: "^(?!packages/eval-gate/)", dependencyTypesNot: ["npm", "npm-dev", "core", "npm-optional", "npm-peer", "npm-no-pkg", "npm-unknown"] },
    },
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
      comment: "bin/, bench/ and eval files are entry points: wiring that nothing else imports.",
      from: {},
      to: { path: "^(bin|bench|evals)/|/bench/" , pathNot: "^packages/[^/]+/bench/[^/]+\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/" },
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
