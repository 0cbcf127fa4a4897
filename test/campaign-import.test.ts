/**
 * The campaign's `eval:import` (issue 42): it writes only into a folder it creates, never deletes
 * what it did not write, and leaves no staging folder behind for good. Refusals are replayed in
 * process (bin/eval-import.ts's `main`); a file put into the target while a large import runs, and
 * an import killed mid-way, against the compiled CLI as a person runs it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main as draft } from "../bin/eval-draft.js";
import { main as importing } from "../bin/eval-import.js";
import { Campaign } from "./campaign.js";
import { ROOT, scriptCommand } from "./eval-run.js";

const campaign = new Campaign("import");
const scratch = mkdtempSync(join(tmpdir(), "campaign-import-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const SOURCE = join(ROOT, "test/datasets/qa-jsonl/golden.jsonl");

function run(command: typeof importing, argv: string[]) {
  const r = { code: 0, stdout: "", stderr: "" };
  r.code = command(argv, { stdout: (t) => void (r.stdout += t), stderr: (t) => void (r.stderr += t) }) as number;
  return r;
}

/** The files of the person's that are gone after the command: each of `kept` must still hold what it held. */
function lost(kept: Record<string, string>): string[] {
  return Object.entries(kept)
    .filter(([path, text]) => !existsSync(path) || readFileSync(path, "utf8") !== text)
    .map(([path]) => path);
}

let n = 0;
const place = () => {
  const dir = join(scratch, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A question/reference JSONL file of `count` questions: large enough that importing it takes seconds. */
function largeSource(count: number): string {
  const file = join(scratch, `large-${count}.jsonl`);
  if (!existsSync(file))
    writeFileSync(
      file,
      `${Array.from({ length: count }, (_, i) => JSON.stringify({ id: `q${i}`, user_input: `question ${i}?`, reference: `answer ${i}`, reference_contexts: [`passage ${i} holds answer ${i}.`] })).join("\n")}\n`,
    );
  return file;
}

describe("campaign: eval:import refuses a target it did not create, in one line", () => {
  const REFUSALS: Array<[string, () => { target: string; kept: Record<string, string> }, RegExp]> = [
    [
      "onto an existing file",
      () => {
        const target = join(place(), "notes.txt");
        writeFileSync(target, "mine");
        return { target, kept: { [target]: "mine" } };
      },
      /notes\.txt is a file; eval:import writes only into a new or empty folder/,
    ],
    [
      "onto the source file itself",
      () => {
        const target = join(place(), "golden.jsonl");
        const text = readFileSync(SOURCE, "utf8");
        writeFileSync(target, text);
        return { target, kept: { [target]: text } };
      },
      /golden\.jsonl is a file/,
    ],
    [
      "into a path below a file",
      () => {
        const file = join(place(), "report.pdf");
        writeFileSync(file, "mine");
        return { target: join(file, "out"), kept: { [file]: "mine" } };
      },
      /out is below .*report\.pdf, which is a file, not a folder/,
    ],
    [
      "onto a dangling symbolic link",
      () => {
        const target = join(place(), "link");
        symlinkSync(join(scratch, "nowhere"), target);
        return { target, kept: {} };
      },
      /link is a symbolic link to nothing \(a dangling link\)/,
    ],
    [
      "onto a symbolic link to an empty folder",
      () => {
        const dir = place();
        mkdirSync(join(dir, "real"));
        symlinkSync(join(dir, "real"), join(dir, "link"));
        return { target: join(dir, "link"), kept: {} };
      },
      /link is a symbolic link: give the folder it names itself/,
    ],
    [
      "into a folder that is not empty",
      () => {
        const target = join(place(), "mine");
        mkdirSync(target);
        writeFileSync(join(target, "notes.md"), "mine");
        return { target, kept: { [join(target, "notes.md")]: "mine" } };
      },
      /mine is not empty/,
    ],
  ];

  it.each(REFUSALS)("%s: exit 2, nothing of the person's touched", (name, make, message) => {
    const { target, kept } = make();
    const r = run(importing, [SOURCE, target]);
    campaign.record({ name: `eval:import ${name}`, expect: 2, ...r, lost: lost(kept) });
    expect(r.stderr).toMatch(message);
    if (name.includes("dangling")) expect(readdirSync(dirname(target))).toEqual(["link"]);
  });

  it("eval:draft, which writes through the same code, refuses a file too", async () => {
    const target = join(place(), "notes.txt");
    writeFileSync(target, "mine");
    const r = { code: 0, stdout: "", stderr: "" };
    r.code = await draft([join(ROOT, "test/datasets/golden-qa"), target, "--offline"], {
      stdout: (t) => void (r.stdout += t),
      stderr: (t) => void (r.stderr += t),
    });
    campaign.record({ name: "eval:draft onto a file", expect: 2, ...r, lost: lost({ [target]: "mine" }) });
    expect(r.stderr).toMatch(/notes\.txt is a file; eval:draft writes only into a new or empty folder/);
  });
});

describe("campaign: eval:import never deletes what it did not write, and cleans up after a killed run", () => {
  const command = scriptCommand("eval:import");

  it("a file the person puts into the empty target while a large import runs stays, and the import says it wrote nothing", async () => {
    const source = largeSource(40_000);
    const target = join(place(), "race");
    mkdirSync(target);
    const child = spawn(command.command, [...command.args, source, target], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    // Once it has read the source (its first line), the person adds a note to the folder.
    while (!stdout.includes("eval:import: read ") && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(target, "my-notes.md"), "mine");
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    campaign.record({
      name: "a file added to the target during a large import",
      expect: 2,
      code,
      stdout: "",
      stderr,
      lost: lost({ [join(target, "my-notes.md")]: "mine" }),
    });
    expect(stderr).toMatch(
      /race received files while eval:import was writing \(my-notes\.md\); nothing of yours was touched and nothing was written/,
    );
    expect(readdirSync(dirname(target))).toEqual(["race"]);
    expect(readdirSync(target)).toEqual(["my-notes.md"]);
  });

  it("a killed import's staging folder is removed by the next import into the same place, with a line", async () => {
    const source = largeSource(40_000);
    const dir = place();
    const target = join(dir, "out");
    const child = spawn(command.command, [...command.args, source, target], { cwd: ROOT, stdio: "ignore" });
    const staging = `.out.writing-${child.pid}`;
    while (!readdirSync(dir).includes(staging) && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    // Mid-way through writing its corpus: a signal leaves it no way out to clean up.
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("exit", resolve));
    expect(readdirSync(dir)).toEqual([staging]);
    const r = run(importing, [SOURCE, target]);
    campaign.record({ name: "the import after a killed one", expect: 0, ...r });
    expect(r.stdout).toContain(
      `eval:import: removed ${join(dir, staging)}, the staging folder of a eval:import that was stopped before it finished (process ${child.pid})`,
    );
    expect(readdirSync(dir)).toEqual(["out"]);
  });

  it("a staging folder of a process still running, or one without the marker, is not the import's to remove", () => {
    const dir = place();
    const running = join(dir, `.out.writing-${process.pid}`);
    const foreign = join(dir, ".out.writing-1");
    mkdirSync(running);
    writeFileSync(join(running, ".eval-staging.json"), JSON.stringify({ pid: process.pid, command: "eval:import" }));
    mkdirSync(foreign);
    writeFileSync(join(foreign, "mine.md"), "mine");
    const r = spawnSync(command.command, [...command.args, SOURCE, join(dir, "out")], { cwd: ROOT, encoding: "utf8" });
    campaign.record({
      name: "others' staging-like folders",
      expect: 0,
      code: r.status,
      stdout: r.stdout,
      stderr: r.stderr,
      lost: lost({ [join(foreign, "mine.md")]: "mine" }),
    });
    expect(readdirSync(dir).sort()).toEqual([".out.writing-1", `.out.writing-${process.pid}`, "out"]);
  });
});
