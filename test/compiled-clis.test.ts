/**
 * The compiled CLIs end to end, as `pnpm <script>` runs them (package.json's `node ...` command,
 * without pnpm): a real process with its argv, working folder, streams and exit status. Everything
 * else about the commands is tested in process through their `main(argv, io)`; the full
 * `pnpm eval` runs are the shared runs the end-to-end files read (test/shared-runs/). Also
 * the stale-build check (bin/check-build.mjs) on a throwaway project.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, scriptCommand } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "compiled-clis-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `pnpm <script> <args>` from `cwd`, stdout read as `encoding`. */
function run(script: string, args: string[], cwd: string, encoding: BufferEncoding = "utf8"): Outcome {
  const { command, args: prefix } = scriptCommand(script);
  const r = spawnSync(command, [...prefix, ...args], { cwd, encoding, env: { ...process.env, npm_lifecycle_event: script } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A one-line error: exit 2, nothing on stdout, `line` alone on stderr. */
function expectOneLineError(r: Outcome, line: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^[^\n]+\n$/);
  expect(r.stderr).toMatch(line);
}

describe("the compiled CLIs, spawned as pnpm runs them", () => {
  it("pnpm engine: indexes and searches with paths relative to its working folder; a missing index is one line", () => {
    const dir = join(scratch, "engine");
    mkdirSync(join(dir, "corpus/en"), { recursive: true });
    writeFileSync(join(dir, "corpus/en/billing.md"), "# Cancel your subscription\n\nCancel at any time in Settings.\n");
    writeFileSync(join(dir, "corpus/en/upload.md"), "# Uploading files\n\nUploads continue in the background.\n");
    const indexed = run("engine", ["index", "corpus", "--db", "index.db"], dir);
    expect(indexed.stderr).toBe("");
    expect(indexed.status).toBe(0);
    expect(indexed.stdout).toMatch(/^indexed corpus as collection "corpus" into index\.db in \d+\.\d\d s\n {2}documents: 2 \(2 added,/);
    const found = run("engine", ["search", "cancel subscription", "--db", "index.db", "--limit", "1"], dir);
    expect(found.status).toBe(0);
    expect(found.stdout).toMatch(/^ 1\. en\/billing\.md /);
    expectOneLineError(run("engine", ["search", "x", "--db", "missing.db"], dir), /^engine: missing\.db: no index here/);
  });

  it("pnpm trec-eval: trec_eval's bytes on stdout (a latin1 run tag stays one byte); bad input is one line", () => {
    const dir = join(scratch, "trec-eval");
    mkdirSync(dir);
    writeFileSync(join(dir, "qrels"), "1 0 a 1\n1 0 b 0\n");
    writeFileSync(join(dir, "run"), Buffer.from("1 Q0 b 1 2 r\xe9\n1 Q0 a 2 1 r\xe9\n", "latin1"));
    const r = run("trec-eval", ["-m", "runid", "-m", "recip_rank", "qrels", "run"], dir, "latin1");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("runid                 \tall\tr\xe9\nrecip_rank            \tall\t0.5000\n");
    expectOneLineError(run("trec-eval", ["qrels"], dir), /^trec-eval: expected two files: <qrels> <run> \(usage: /);
  });

  it("pnpm eval and eval:compare: help on stdout with exit 0, a bad argument in one line with exit 2", () => {
    const help = run("eval", ["--help"], ROOT);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pnpm eval /);
    expectOneLineError(run("eval", ["no-such-eval"], ROOT), /^eval: no eval file is named "no-such-eval" \(eval names: agent, ask, /);
    const compareHelp = run("eval:compare", ["--help"], ROOT);
    expect(compareHelp).toEqual({ status: 0, stdout: "Usage: pnpm eval:compare <a.json> <b.json> [--force] [--json]\n", stderr: "" });
    expectOneLineError(run("eval:compare", ["a.json"], ROOT), /^eval:compare: two reports are needed, got 1; Usage: /);
  });

  it("pnpm eval:watch: help on stdout with exit 0, a filter that selects nothing in one line with exit 2", () => {
    const help = run("eval:watch", ["--help"], ROOT);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pnpm eval:watch \[filter\] /);
    expectOneLineError(run("eval:watch", ["searc"], ROOT), /^eval:watch: no eval file is named "searc" \(eval names: agent, ask, /);
  });

  it("pnpm eval:export: help on stdout with exit 0, a bad argument in one line with exit 2", () => {
    expect(run("eval:export", ["--help"], ROOT)).toEqual({
      status: 0,
      stdout: "Usage: pnpm eval:export [--runId N] [--output folder]\n",
      stderr: "",
    });
    expectOneLineError(run("eval:export", ["--runId", "0"], ROOT), /^eval:export: --runId must be a positive integer, got "0"$/m);
  });

  it("pnpm eval:calibrate: help on stdout with exit 0, a bad argument or labels file in one line with exit 2", () => {
    const help = run("eval:calibrate", ["--help"], ROOT);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pnpm eval:calibrate <labels\.jsonl> /);
    expectOneLineError(run("eval:calibrate", ["a.jsonl", "b.jsonl"], ROOT), /^eval:calibrate: one labels file is needed, got 2; Usage: /);
    expectOneLineError(run("eval:calibrate", ["no-such-labels.jsonl"], ROOT), /^eval:calibrate: no-such-labels\.jsonl: file not found$/m);
  });

  it("pnpm eval:init: writes a starter dataset into a folder relative to its working folder; a bad argument is one line", () => {
    const dir = join(scratch, "init");
    mkdirSync(dir);
    const written = run("eval:init", ["starter"], dir);
    expect(written.stderr).toBe("");
    expect(written.status).toBe(0);
    expect(written.stdout).toMatch(/^eval:init: wrote a starter dataset to \S+starter: 4 documents, /);
    expect(readFileSync(join(dir, "starter/queries.json"), "utf8")).toContain('"judgments"');
    expectOneLineError(run("eval:init", ["a", "b"], dir), /^eval:init: one folder is needed, got 2; Usage: pnpm eval:init <folder>$/m);
  });

  it("pnpm eval:import: writes a dataset into a folder relative to its working folder; a malformed source is one line and writes nothing", () => {
    const dir = join(scratch, "import");
    mkdirSync(dir);
    const written = run("eval:import", [join(ROOT, "test/datasets/golden-qa"), "imported"], dir);
    expect(written.stderr).toBe("");
    expect(written.status).toBe(0);
    expect(written.stdout).toMatch(
      /^eval:import: wrote imported in the suite's fixture format: corpus\/ \(5 documents\), ask-cases\.json, schemas\//m,
    );
    expect(readFileSync(join(dir, "imported/ask-cases.json"), "utf8")).toContain('"mustCite"');
    writeFileSync(join(dir, "broken.jsonl"), '{"question": "Where?", "reference": "Here."}\n{"question": \n');
    expectOneLineError(
      run("eval:import", ["broken.jsonl", "out"], dir),
      /^eval:import: \S*broken\.jsonl: line 2 \(\/\): \[invalid-json\] invalid JSON at column 14: /m,
    );
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});

describe("bin/check-build.mjs: a stale build does not run", () => {
  const check = join(ROOT, "bin/check-build.mjs");
  const hourAgo = new Date(Date.now() - 3_600_000);
  /** A minute after now, read when a test runs: this file's earlier tests can take longer than a minute. */
  const inAMinute = (): Date => new Date(Date.now() + 60_000);

  /** <name>/src/a.ts compiled to <name>/dist/entry.js, built now, its source an hour older; `references` as tsconfig paths. */
  function project(name: string, references: string[] = []): { dir: string; source: string; info: string } {
    const dir = join(scratch, name);
    mkdirSync(join(dir, "src"), { recursive: true });
    mkdirSync(join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "tsconfig.build.json"), JSON.stringify({ references: references.map((path) => ({ path })) }));
    const source = join(dir, "src/a.ts");
    writeFileSync(source, "export {};\n");
    utimesSync(source, hourAgo, hourAgo);
    writeFileSync(join(dir, "dist/entry.js"), 'process.stdout.write("ran\\n");\n');
    const info = join(dir, "dist/.tsbuildinfo");
    writeFileSync(info, JSON.stringify({ fileNames: ["../../node_modules/typescript/lib/lib.d.ts", "../src/a.ts"] }));
    return { dir, source, info };
  }

  const start = (dir: string): Outcome => {
    const r = spawnSync(process.execPath, ["--import", check, "dist/entry.js"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, npm_lifecycle_event: "tool" },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("runs a build newer than its sources, and names the source that changed, the one deleted, the build missing", () => {
    const p = project("fresh");
    expect(start(p.dir)).toEqual({ status: 0, stdout: "ran\n", stderr: "" });
    utimesSync(p.source, inAMinute(), inAMinute());
    expect(start(p.dir)).toEqual({
      status: 2,
      stdout: "",
      stderr: "tool: the compiled CLI is out of date: src/a.ts changed after the last build; run `pnpm build`\n",
    });
    unlinkSync(p.source);
    expect(start(p.dir).stderr).toBe(
      "tool: the compiled CLI is out of date: src/a.ts was compiled but no longer exists; run `pnpm build`\n",
    );
    unlinkSync(p.info);
    expect(start(p.dir).stderr).toBe("tool: the compiled CLI is out of date: . has not been built; run `pnpm build`\n");
  });

  it("follows the projects a build references", () => {
    const lib = project("lib");
    const app = project("app", ["../lib/tsconfig.build.json"]);
    expect(start(app.dir).status).toBe(0);
    utimesSync(lib.source, inAMinute(), inAMinute());
    expect(start(app.dir).stderr).toBe(
      "tool: the compiled CLI is out of date: ../lib/src/a.ts changed after the last build; run `pnpm build`\n",
    );
  });

  it("leaves a referenced project's declarations to that project's record, and finds the file list anywhere in a record", () => {
    const lib = project("lib2");
    const app = project("app2", ["../lib2/tsconfig.build.json"]);
    // app's build read lib's declaration, which a later build of lib rewrote: lib's own record decides.
    const declaration = join(lib.dir, "dist/a.d.ts");
    writeFileSync(declaration, "export {};\n");
    writeFileSync(app.info, JSON.stringify({ version: "5.9.3", fileNames: ["../src/a.ts", "../../lib2/dist/a.d.ts"] }));
    utimesSync(declaration, inAMinute(), inAMinute());
    expect(start(app.dir)).toEqual({ status: 0, stdout: "ran\n", stderr: "" });
    utimesSync(app.source, inAMinute(), inAMinute());
    expect(start(app.dir).stderr).toBe("tool: the compiled CLI is out of date: src/a.ts changed after the last build; run `pnpm build`\n");
  });

  it("leaves any other script alone (a child process that inherited the preload)", () => {
    const other = join(scratch, "other.mjs");
    writeFileSync(other, 'process.stdout.write("ran\\n");\n');
    const r = spawnSync(process.execPath, ["--import", check, other], { encoding: "utf8" });
    expect(r.stdout).toBe("ran\n");
    expect(r.status).toBe(0);
  });

  it("is what every CLI script preloads, on the build pnpm build makes", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    for (const name of [
      "engine",
      "trec-eval",
      "eval",
      "eval:compare",
      "eval:export",
      "eval:init",
      "eval:import",
      "eval:draft",
      "eval:harvest",
      "eval:review",
    ]) {
      expect(scripts[name], name).toMatch(
        /^node (--conditions=compiled )?--import \.\/bin\/check-build\.mjs (packages\/[a-z-]+\/)?dist\/\S+\.js$/,
      );
    }
    expect(scripts.prepare).toBe(scripts.build);
  });
});
