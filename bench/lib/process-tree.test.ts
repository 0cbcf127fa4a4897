import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { endedChildrenCpuMs, treeCpuMs, treeListeningPorts, treeRss } from "./process-tree.js";

const MIB = 2 ** 20;

/**
 * A node process whose own child spins until it has used 300 ms of CPU and holds 96 MiB resident,
 * then says "ready" and idles: what the tree holds is known whatever the machine's load.
 */
const GRANDCHILD = `
const held = Buffer.alloc(96 * 2 ** 20, 1);
const start = process.cpuUsage();
for (;;) { const u = process.cpuUsage(start); if (u.user + u.system >= 300_000) break; }
process.stdout.write("ready " + held.length + "\\n");
setInterval(() => {}, 1000);`;
const CHILD = `
const { spawn } = require("node:child_process");
const grandchild = spawn(process.execPath, ["-e", ${JSON.stringify(GRANDCHILD)}], { stdio: ["ignore", "inherit", "inherit"] });
process.on("SIGTERM", () => { grandchild.kill("SIGTERM"); grandchild.on("exit", () => process.exit(0)); });`;

describe.skipIf(process.platform !== "linux")("process tree (Linux /proc)", () => {
  it("counts a descendant's memory and CPU in the tree, and an ended child's CPU in its parent's", async () => {
    const before = endedChildrenCpuMs();
    const child = spawn(process.execPath, ["-e", CHILD], { stdio: ["ignore", "pipe", "inherit"] });
    await once(child.stdout!, "data");
    // The grandchild alone holds 96 MiB and has used 300 ms; a tree reading of the child alone could not.
    expect(treeRss(child.pid!)).toBeGreaterThan(96 * MIB);
    expect(treeCpuMs(child.pid!)).toBeGreaterThanOrEqual(300);
    child.kill("SIGTERM");
    await once(child, "close");
    // Waited for: the child's CPU, its own waited-for grandchild's included, is now this process's.
    expect(endedChildrenCpuMs() - before).toBeGreaterThanOrEqual(300);
    expect(treeRss(child.pid!)).toBe(0);
  }, 60_000);

  it("finds the TCP ports a descendant listens on, and only those", async () => {
    const listener = spawn(
      process.execPath,
      ["-e", `const s = require("node:net").createServer().listen(0, "127.0.0.1", () => console.log(s.address().port));`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const [line] = (await once(listener.stdout!, "data")) as [Buffer];
    const port = Number(line.toString().trim());
    const idle = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      expect(treeListeningPorts(listener.pid!)).toEqual([port]);
      // A process that listens on nothing owns no port, though another one listens nearby.
      expect(treeListeningPorts(idle.pid!)).toEqual([]);
    } finally {
      listener.kill("SIGTERM");
      idle.kill("SIGTERM");
    }
  }, 60_000);
});
