/**
 * The commands that write a dataset folder (`eval:import`, `eval:draft`, `eval:harvest`) write only
 * into a folder they create: the target must not exist, or be an empty folder. What they write goes
 * into a staging folder beside it first, then is moved into place in one rename, so a failure
 * leaves nothing half written, and nothing is ever deleted that the command did not write:
 *
 * - a target that is a file, a path below a file, a symbolic link (a dangling one included) or a
 *   folder that is not empty is refused with one line (exit 2), before anything is read;
 * - a file someone puts into the (empty) target while the command writes stays: the rename, which
 *   replaces only an empty folder, fails, and the command says so (exit 2), its staging removed;
 * - the staging folder is removed on every way out the command sees (an error, `process.exit`); a
 *   killed command's (a signal gives it no chance) is found by the next command writing into the
 *   same place — it carries a marker naming the process that wrote it — and removed, with a line.
 */
import {
  type Stats,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "./cli-args.js";

/** The file in a staging folder that says which process wrote it. */
const MARKER = ".eval-staging.json";

/** What `stat` says of a path, or null when nothing is there. */
function lstatOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** The nearest ancestor of `path` that exists (the root at worst). */
function existingAncestor(path: string): string {
  let at = dirname(path);
  while (lstatOf(at) === null && dirname(at) !== at) at = dirname(at);
  return at;
}

/**
 * The target as an absolute path, once it is known to be a place a new folder can go: a UsageError
 * (one line, exit 2) otherwise. `say` gets a line for each killed command's staging folder removed.
 */
export function newFolder(command: string, target: string, say: (line: string) => void = () => undefined): string {
  const folder = resolve(target);
  const refuse = (why: string): never => {
    throw new UsageError(`${target} ${why}; ${command} writes only into a new or empty folder, so nothing of yours is overwritten`);
  };
  const stat = lstatOf(folder);
  if (stat === null) {
    const above = existingAncestor(folder);
    if (!statSafe(above)?.isDirectory()) refuse(`is below ${above}, which is a file, not a folder`);
  } else if (stat.isSymbolicLink()) {
    refuse(existsSync(folder) ? "is a symbolic link: give the folder it names itself" : "is a symbolic link to nothing (a dangling link)");
  } else if (!stat.isDirectory()) refuse("is a file");
  else if (readdirSync(folder).length > 0) refuse("is not empty");
  removeStaleStaging(folder, say);
  return folder;
}

function statSafe(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** The staging folder of `folder` for process `pid`. */
const stagingOf = (folder: string, pid: number): string => join(dirname(folder), `.${basename(folder)}.writing-${pid}`);

/** Removes the staging folders beside `folder` that a process no longer running left (each holds our marker). */
function removeStaleStaging(folder: string, say: (line: string) => void): void {
  const parent = dirname(folder);
  if (!existsSync(parent)) return;
  const prefix = `.${basename(folder)}.writing-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    const staging = join(parent, name);
    let marker: { pid?: unknown; command?: unknown } | null = null;
    try {
      marker = JSON.parse(readFileSync(join(staging, MARKER), "utf8")) as { pid?: unknown; command?: unknown };
    } catch {
      marker = null;
    }
    // Only a folder this code wrote (its marker names the process in its name), of a process that is gone.
    if (marker === null || marker.pid !== pid || alive(pid)) continue;
    rmSync(staging, { recursive: true, force: true });
    say(
      `removed ${staging}, the staging folder of a ${String(marker.command ?? "command")} that was stopped before it finished (process ${pid})`,
    );
  }
}

/** Whether a process of this host is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `write` on a staging folder beside `folder`, then moves the result into place with one
 * rename, which replaces only a folder that is still empty; nothing stays behind when it throws.
 */
export function writeNewFolder<T>(folder: string, write: (staging: string) => T, command = "the command"): T {
  const staging = stagingOf(folder, process.pid);
  const cleanUp = (): void => rmSync(staging, { recursive: true, force: true });
  cleanUp();
  mkdirSync(dirname(folder), { recursive: true });
  mkdirSync(staging);
  writeFileSync(join(staging, MARKER), JSON.stringify({ pid: process.pid, command, started: new Date().toISOString() }));
  process.once("exit", cleanUp);
  try {
    const result = write(staging);
    rmSync(join(staging, MARKER));
    try {
      renameSync(staging, folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST")
        throw new UsageError(
          `${folder} received files while ${command} was writing (${readdirSync(folder).slice(0, 3).join(", ")}${readdirSync(folder).length > 3 ? ", …" : ""}); nothing of yours was touched and nothing was written: run it again into an empty folder`,
        );
      if (code === "ENOTDIR" || code === "EISDIR")
        throw new UsageError(`${folder} became a file while ${command} was writing; nothing was written`);
      throw error;
    }
    return result;
  } finally {
    process.off("exit", cleanUp);
    cleanUp();
  }
}
