/**
 * The commands that write a dataset folder (`eval:import`, `eval:draft`, `eval:harvest`) write only
 * into a new or empty folder, so nothing of the user's is overwritten, and write it beside the
 * target first and move it into place, so a failure leaves nothing half written.
 */
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "./cli-args.js";

/** The target as an absolute path; a UsageError (one line, exit 2) when it exists and is not empty. */
export function newFolder(command: string, target: string): string {
  const folder = resolve(target);
  if (existsSync(folder) && readdirSync(folder).length > 0)
    throw new UsageError(`${target} is not empty; ${command} writes only into a new or empty folder, so nothing of yours is overwritten`);
  return folder;
}

/** Runs `write` on a staging folder beside `folder`, then moves the result into place; nothing stays behind when it throws. */
export function writeNewFolder<T>(folder: string, write: (staging: string) => T): T {
  const staging = join(dirname(folder), `.${basename(folder)}.writing-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    const result = write(staging);
    if (existsSync(folder)) rmSync(folder, { recursive: true });
    renameSync(staging, folder);
    return result;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
