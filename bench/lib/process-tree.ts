/**
 * What a process and all its descendants use, read from Linux's /proc: the benchmarks'
 * (`pnpm bench:eval`, `pnpm bench:watch`) peak memory and CPU time of a command they started,
 * and the TCP ports a command listens on (the reliability tests: `pnpm eval` listens on none).
 * On a system without /proc they read 0 or nothing, which the benchmarks print as "n/a".
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Linux's page size on the machines this runs on (x86-64, arm64 with 4 KiB pages). */
const PAGE_BYTES = 4096;
/** Linux reports CPU times in clock ticks of USER_HZ, 100 per second on every architecture it supports. */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  pid: number;
  ppid: number;
  /** Resident set, bytes. */
  rss: number;
  /** CPU time of the process and of its children it has waited for, milliseconds. */
  cpuMs: number;
  /** The part of `cpuMs` that its waited-for children used. */
  childrenCpuMs: number;
}

/** One line of /proc/<pid>/stat, parsed; undefined when the process ended while we looked. */
function readStat(pid: number): ProcessStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces and parentheses), numbered from 3 (state):
  // ppid 4, utime 14, stime 15, cutime 16, cstime 17, rss 24 — index = field − 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = (...indexes: number[]): number => (indexes.reduce((sum, i) => sum + Number(fields[i]), 0) * 1000) / TICKS_PER_SECOND;
  return { pid, ppid: Number(fields[1]), rss: Number(fields[21]) * PAGE_BYTES, cpuMs: ms(11, 12, 13, 14), childrenCpuMs: ms(13, 14) };
}

/** The process `pid` and its living descendants. */
function tree(pid: number): ProcessStat[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, ProcessStat[]>();
  let self: ProcessStat | undefined;
  for (const entry of entries) {
    const stat = readStat(Number(entry));
    if (!stat) continue;
    if (stat.pid === pid) self = stat;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  }
  const found: ProcessStat[] = [];
  const pending = self ? [self] : [];
  while (pending.length > 0) {
    const next = pending.pop()!;
    found.push(next);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return found;
}

/** Resident set of `pid` and all its descendants, in bytes; 0 where /proc is missing. */
export function treeRss(pid: number): number {
  return tree(pid).reduce((sum, p) => sum + p.rss, 0);
}

/**
 * CPU time (user + system) of `pid` and its descendants so far, in milliseconds, including the
 * children that have ended and been waited for (a worker process that exited counts in its
 * parent's). The difference of two readings is the CPU the tree used between them, whatever the
 * machine's load; 0 where /proc is missing.
 */
export function treeCpuMs(pid: number): number {
  return tree(pid).reduce((sum, p) => sum + p.cpuMs, 0);
}

/**
 * CPU time (user + system) of this process's children that have ended and been waited for, and of
 * their own waited-for descendants, in milliseconds. Read before and after a command that runs
 * alone, the difference is that command's CPU time; 0 where /proc is missing.
 */
export function endedChildrenCpuMs(): number {
  return readStat(process.pid)?.childrenCpuMs ?? 0;
}

/** The inodes of `pid`'s open sockets (its /proc/<pid>/fd links `socket:[inode]`). */
function socketInodes(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const inodes: string[] = [];
  for (const fd of fds) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.push(inode);
    } catch {
      // closed while we looked
    }
  }
  return inodes;
}

/** TCP state 0A in /proc/net/tcp: LISTEN. */
const TCP_LISTEN = "0A";

/**
 * The TCP ports (IPv4 and IPv6) that `pid` or any of its descendants listens on now; empty where
 * /proc is missing. A socket is matched to its process by inode, so a port another process listens
 * on is never counted.
 */
export function treeListeningPorts(pid: number): number[] {
  const owned = new Set(tree(pid).flatMap((p) => socketInodes(p.pid)));
  const ports = new Set<number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    // Columns: sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === TCP_LISTEN && owned.has(f[9]!)) ports.add(Number.parseInt(f[1]!.split(":")[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
