/**
 * The campaign's `eval:calibrate` (issue 42): a calibration from zero current labels — a labels
 * file with its header only, or whose every label graded an answer the engine no longer gives — is
 * refused (one line, exit 2) and the committed file stays as it was; a labels file that is not
 * UTF-8 text is named as such, never quoted; an `--out` it cannot write is one line before any
 * answer is made. Replayed in process (bin/eval-calibrate.ts's `main`), offline.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main as calibrate } from "../bin/eval-calibrate.js";
import { Campaign } from "./campaign.js";
import { ROOT } from "./eval-run.js";

const campaign = new Campaign("calibrate");
const scratch = mkdtempSync(join(tmpdir(), "campaign-calibrate-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const LABELS = readFileSync(join(ROOT, "fixtures/labels/answers.jsonl"), "utf8");
const [HEADER, ...LINES] = LABELS.trim().split("\n");

async function run(argv: string[]) {
  const saved = process.env.ENGINE_PROVIDER;
  process.env.ENGINE_PROVIDER = "offline";
  const r = { code: 0, stdout: "", stderr: "" };
  try {
    r.code = await calibrate(argv, { stdout: (t) => void (r.stdout += t), stderr: (t) => void (r.stderr += t) });
  } finally {
    if (saved === undefined) delete process.env.ENGINE_PROVIDER;
    else process.env.ENGINE_PROVIDER = saved;
  }
  return r;
}

let n = 0;
/** A labels file holding `text`, and a copy of the committed calibration as the --out the run would replace. */
function labelsAndOut(text: string | Buffer): { labels: string; out: string; before: string } {
  const dir = join(scratch, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "labels.jsonl"), text);
  copyFileSync(join(ROOT, "evals/judge-calibration.json"), join(dir, "judge-calibration.json"));
  return {
    labels: join(dir, "labels.jsonl"),
    out: join(dir, "judge-calibration.json"),
    before: readFileSync(join(dir, "judge-calibration.json"), "utf8"),
  };
}

describe("campaign: eval:calibrate never replaces the committed calibration with nothing", () => {
  const CASES: Array<[string, string | Buffer, RegExp]> = [
    [
      "a labels file with its header only",
      `${HEADER}\n`,
      /labels\.jsonl: holds its header and no label: a calibration needs labels; nothing written$/m,
    ],
    [
      "labels that are all stale (every answer hash changed)",
      `${[HEADER, ...LINES.map((l) => l.replace(/"answerSha256": "[0-9a-f]+"/, '"answerSha256": "0000000000000000"'))].join("\n")}\n`,
      /^eval:calibrate: not written: none of the \d+ label\(s\) grades the answer the engine gives now \(\d+ stale: .*\); .*judge-calibration\.json is untouched$/m,
    ],
    [
      "a labels file saved as UTF-16",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LABELS, "utf16le")]),
      /labels\.jsonl: \[encoding\] the file is UTF-16LE \(byte-order mark FF FE\) text, not UTF-8: save it as UTF-8$/m,
    ],
    ["a label line holding null", `${HEADER}\nnull\n`, /labels\.jsonl:2: must be a JSON object \(a header or a label\)$/m],
    [
      "a label line cut off",
      `${HEADER}\n${LINES[0]!.slice(0, 40)}\n`,
      /labels\.jsonl: line 2 \(\/\): \[invalid-json\] invalid JSON at column \d+/,
    ],
  ];

  it.each(CASES)("%s: one line, exit 2, the committed file untouched", async (name, text, message) => {
    const { labels, out, before } = labelsAndOut(text);
    const r = await run([labels, "--out", out]);
    const kept = readFileSync(out, "utf8") === before;
    campaign.record({ name, expect: 2, code: r.code, stdout: "", stderr: r.stderr, lost: kept ? [] : [out] });
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain("\u0000");
  });

  it.each([
    [
      "--out below a file",
      (dir: string) => join(dir, "labels.jsonl", "calibration.json"),
      /--out .*calibration\.json is below .*labels\.jsonl, which is a file, not a folder$/m,
    ],
    ["--out naming a folder", (dir: string) => dir, /--out .* is a folder; it names the calibration's file$/m],
  ] as const)("%s: one line, exit 2, before any answer is made", async (name, out, message) => {
    const { labels } = labelsAndOut(LABELS);
    const r = await run([labels, "--out", out(join(labels, ".."))]);
    campaign.record({ name, expect: 2, code: r.code, stdout: "", stderr: r.stderr });
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
  });
});
