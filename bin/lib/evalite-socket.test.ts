import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaliteSocketPath, MAX_SOCKET_PATH_BYTES } from "./evalite-socket.js";

const work = mkdtempSync(join(tmpdir(), "eval-run-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("evaliteSocketPath: where pnpm eval's Evalite server listens", () => {
  it("a socket in the run's own temp folder", () => {
    expect(evaliteSocketPath(work, "linux")).toBe(join(work, "evalite.sock"));
  });

  it("under /tmp when the temp folder's path is too long for a socket, in a folder of its own", () => {
    const deep = join(work, "x".repeat(120));
    const path = evaliteSocketPath(deep, "linux");
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(path).toMatch(/^\/tmp\/evalite-[^/]+\/evalite\.sock$/);
    expect(existsSync(dirname(path))).toBe(true);
    // Another run gets another folder.
    expect(evaliteSocketPath(deep, "linux")).not.toBe(path);
  });

  it("a named pipe on Windows, unique to the process and the folder", () => {
    expect(evaliteSocketPath("C:\\Temp\\eval-run-a1b2c3", "win32")).toBe(`\\\\.\\pipe\\evalite-${process.pid}-CTempevalruna1b2c3`);
  });
});
