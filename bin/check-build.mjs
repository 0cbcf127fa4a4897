/**
 * Preloaded by the CLI scripts (`node --import ./bin/check-build.mjs <project>/dist/...`): refuses to
 * run compiled JavaScript that is older than its TypeScript, so an edit is never silently ignored.
 *
 * The project is the folder above the entry's `dist/`; its build (`tsc -b`) records the files it
 * read in `dist/.tsbuildinfo`, and every project it references has one too. An input newer than its
 * project's build record, or one that is gone, is a stale build: one line on
 * stderr naming the file and the command that rebuilds, exit status 2. Plain JavaScript, not
 * compiled: it must work when the build is missing or broken. Costs a few milliseconds (one stat per
 * source file).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const REBUILD = "pnpm build";

/**
 * The project whose compiled entry this process runs (`<project>/dist/...` beside a
 * tsconfig.build.json), or null for any other script (a child process that inherited the preload).
 */
function projectOf(entry) {
  const at = resolve(entry).lastIndexOf(`${sep}dist${sep}`);
  const project = at < 0 ? null : resolve(entry).slice(0, at);
  return project !== null && existsSync(join(project, "tsconfig.build.json")) ? project : null;
}

/**
 * The files a project's build read (tsc -b's `fileNames`: its sources, those they import, and the
 * declarations of the projects it references; npm packages' types left out), and the projects it
 * references (tsconfig.build.json).
 */
function readBuild(project) {
  const info = join(project, "dist", ".tsbuildinfo");
  if (!existsSync(info)) return null;
  const inputs = JSON.parse(readFileSync(info, "utf8")).fileNames ?? [];
  const config = JSON.parse(readFileSync(join(project, "tsconfig.build.json"), "utf8"));
  return {
    builtAt: statSync(info).mtimeMs,
    inputs: inputs.filter((name) => !name.includes("node_modules/")).map((name) => resolve(dirname(info), name)),
    references: (config.references ?? []).map((r) => dirname(resolve(project, r.path))),
  };
}

/** The first reason the build of `project` (or of a project it references) is out of date, or null. */
function staleness(project, seen = new Set()) {
  if (seen.has(project)) return null;
  seen.add(project);
  const build = readBuild(project);
  if (build === null) return `${relative(process.cwd(), project) || "."} has not been built`;
  for (const source of build.inputs) {
    const shown = relative(process.cwd(), source);
    if (!existsSync(source)) return `${shown} was compiled but no longer exists`;
    if (statSync(source).mtimeMs > build.builtAt) return `${shown} changed after the last build`;
  }
  for (const reference of build.references) {
    const reason = staleness(reference, seen);
    if (reason !== null) return reason;
  }
  return null;
}

const project = process.argv[1] === undefined ? null : projectOf(process.argv[1]);
const reason = project === null ? null : staleness(project);
if (reason !== null) {
  // Named as the user called it: the pnpm script, else the compiled file.
  const command = process.env.npm_lifecycle_event ?? relative(process.cwd(), process.argv[1]);
  process.stderr.write(`${command}: the compiled CLI is out of date: ${reason}; run \`${REBUILD}\`\n`);
  process.exit(2);
}
