/**
 * The hostile-input campaign of issue 42, kept: each `campaign-<area>.test.ts` replays its cases
 * against the commands (their `main` in process where a case fails before Evalite starts, the
 * compiled CLIs where a process must end or run) and this module judges each outcome the way the
 * campaign did:
 *
 * - **clean error**: the exit status expected of an input or settings error (2), and one line on
 *   stderr, naming what is wrong;
 * - **stack**: a stack trace or a test runner's frames anywhere in what it printed;
 * - **wrong code**: another exit status than the one expected (2 input, 1 a failed eval, 0 a pass);
 * - **silent pass**: exit 0 where the input was wrong or the system failed;
 * - **file lost**: a file of the person's that is gone afterwards;
 * - **key found**: a credential, in any of its encodings, in anything the command printed or wrote.
 *
 * Each test file prints its totals when it ends (`campaign <area>: N cases, …`), and every case is
 * a test that fails on any of the four faults.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";

export interface Replayed {
  /** What the person did. */
  name: string;
  /** The exit status the case must end with. */
  expect: 0 | 1 | 2;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Files of the person's that are gone. */
  lost?: string[];
  /** Where a credential was found (a file, `stdout`, …). */
  keys?: string[];
}

/** Whether `text` holds a stack trace or a test runner's frames. */
export function hasStack(text: string): boolean {
  const plain = stripAnsi(text);
  return /^\s+at \S.*(\(|:\d+:\d+)/m.test(plain) || /^\s*❯ \S+:\d+:\d+/m.test(plain) || /^Serialized Error:/m.test(plain);
}

export interface Verdict {
  clean: boolean;
  stack: boolean;
  wrongCode: boolean;
  silentPass: boolean;
  lost: number;
  keys: number;
}

export function judge(r: Replayed): Verdict {
  const stack = hasStack(r.stdout) || hasStack(r.stderr);
  const lines = stripAnsi(r.stderr).trim().split("\n").filter(Boolean);
  return {
    clean: r.expect === 2 && r.code === 2 && lines.length === 1 && !stack,
    stack,
    wrongCode: r.code !== r.expect,
    silentPass: r.expect !== 0 && r.code === 0,
    lost: r.lost?.length ?? 0,
    keys: r.keys?.length ?? 0,
  };
}

/** One area's campaign: its cases, judged, and its totals printed when the file ends. */
export class Campaign {
  private readonly cases: Array<Omit<Replayed, "lost" | "keys"> & Verdict> = [];

  constructor(readonly area: string) {
    afterAll(() => {
      const t = this.totals();
      console.log(
        `campaign ${area}: ${t.cases} cases, ${t.clean} clean errors, ${t.stacks} stacks, ${t.wrongCodes} wrong codes, ${t.silentPasses} silent passes, ${t.lost} files lost, ${t.keys} keys found`,
      );
    });
  }

  /** Judges a replayed case and fails the test on a stack, a wrong code, a silent pass, a lost file or a found key. */
  record(r: Replayed): Verdict {
    const verdict = judge(r);
    this.cases.push({ ...r, ...verdict });
    const shown = `${r.name}: exit ${r.code}\nstdout: ${r.stdout.slice(-1500)}\nstderr: ${r.stderr.slice(-1500)}`;
    expect(verdict.stack, shown).toBe(false);
    expect(r.code, shown).toBe(r.expect);
    if (r.expect === 2) expect(verdict.clean, shown).toBe(true);
    expect(r.lost ?? [], shown).toEqual([]);
    expect(r.keys ?? [], shown).toEqual([]);
    return verdict;
  }

  totals() {
    const c = this.cases;
    return {
      cases: c.length,
      clean: c.filter((x) => x.clean).length,
      stacks: c.filter((x) => x.stack).length,
      wrongCodes: c.filter((x) => x.wrongCode).length,
      silentPasses: c.filter((x) => x.silentPass).length,
      lost: c.reduce((n, x) => n + x.lost, 0),
      keys: c.reduce((n, x) => n + x.keys, 0),
    };
  }
}

/** Every file below `folder` (recursively), for a search for keys. */
export function filesBelow(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path);
      else if (stat?.isFile()) out.push(path);
    }
  };
  walk(folder);
  return out;
}

/**
 * The forms a key takes on the wire and in text, written here on their own (not the redactor's
 * list, so that a redactor that forgot a form cannot also hide it from this search): as it is,
 * percent-encoded as a path and as a query value, in either case of hex digits, JSON-escaped, and
 * base64 (standard and URL-safe) of the key alone.
 */
function keyForms(secret: string): string[] {
  const percent = [encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)];
  return [
    ...new Set([
      secret,
      JSON.stringify(secret).slice(1, -1),
      ...percent,
      ...percent.map((p) => p.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())),
      Buffer.from(secret).toString("base64"),
      Buffer.from(secret).toString("base64url"),
    ]),
  ];
}

/** Where any form of `secret` (raw, percent-encoded, JSON-escaped, base64) appears: in `texts` (by name) and in the files given. */
export function keysIn(secret: string, texts: Record<string, string>, files: readonly string[] = []): string[] {
  const forms = keyForms(secret);
  const found: string[] = [];
  for (const [name, text] of Object.entries(texts)) if (forms.some((f) => text.includes(f))) found.push(name);
  for (const file of files) {
    const bytes = readFileSync(file);
    if (forms.some((f) => bytes.includes(Buffer.from(f)))) found.push(file);
  }
  return found;
}
