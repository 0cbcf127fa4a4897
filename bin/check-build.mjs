/**
 * Preloaded by the CLI scripts (`node --import ./bin/check-build.mjs <project>/dist/...`): refuses to
 * run compiled JavaScript that is older than its TypeScript, so an edit is never silently ignored.
 *
 * The project is the folder above the entry's `dist/`; its build (`tsc -b`) records the files it
 * read in `dist/.tsbuildinfo`, and every project it references has one too. An input newer than its
 * project's build record, or one that is gone, is a stale build: one line on
 * stderr naming the file and the command that rebuilds, exit status 2. Plain JavaScript, not
 * compiled: it must work when the build is missing or broken. Costs a few milliseconds, in every
 * CLI's start: one stat per source file, and of each build record only its list of files is parsed
 * (the rest is most of it). A referenced project's declarations (`<reference>/dist/*.d.ts`) are not
 * stat'ed: they are that project's output, and its sources are checked against its own record.
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
 * declarations of the projects it references; npm packages' types and the referenced projects'
 * own outputs left out), and the projects it references (tsconfig.build.json).
 */
function readBuild(project) {
  const info = join(project, "dist", ".tsbuildinfo");
  const built = statSync(info, { throwIfNoEntry: false });
  if (built === undefined) return null;
  const config = JSON.parse(readFileSync(join(project, "tsconfig.build.json"), "utf8"));
  const references = (config.references ?? []).map((r) => dirname(resolve(project, r.path)));
  const outputs = references.map((reference) => join(reference, "dist") + sep);
  return {
    builtAt: built.mtimeMs,
    inputs: fileNames(readFileSync(info, "utf8"))
      .filter((name) => !name.includes("node_modules/"))
      .map((name) => resolve(dirname(info), name))
      .filter((path) => !outputs.some((output) => path.startsWith(output))),
    references,
  };
}

/** The `fileNames` of a .tsbuildinfo, parsed without the rest of the record (most of it); the whole record only when the list is not found. */
function fileNames(text) {
  const key = '"fileNames":';
  const at = text.indexOf(key);
  const end = at < 0 ? -1 : arrayEnd(text, at + key.length);
  return end < 0 ? (JSON.parse(text).fileNames ?? []) : JSON.parse(text.slice(at + key.length, end + 1));
}

/** Where the JSON array of strings starting at `from` ends (its `]`), or -1. */
function arrayEnd(text, from) {
  if (text[from] !== "[") return -1;
  let inString = false;
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "]") return i;
  }
  return -1;
}

/** The first reason the build of `project` (or of a project it references) is out of date, or null. */
function staleness(project, seen = new Set()) {
  if (seen.has(project)) return null;
  seen.add(project);
  const build = readBuild(project);
  if (build === null) return `${relative(process.cwd(), project) || "."} has not been built`;
  for (const source of build.inputs) {
    const stat = statSync(source, { throwIfNoEntry: false });
    if (stat === undefined) return `${relative(process.cwd(), source)} was compiled but no longer exists`;
    if (stat.mtimeMs > build.builtAt) return `${relative(process.cwd(), source)} changed after the last build`;
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
