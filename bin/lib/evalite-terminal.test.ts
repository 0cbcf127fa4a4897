import { describe, expect, it } from "vitest";
import { EvaliteErrors, EvaliteTerminal, evaliteLineKind, stripAnsi } from "./evalite-terminal.js";

const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;

/** Evalite 1.0.0-beta.16's output of a run of two files (as `pnpm eval` saw it, colours included), one chunk per write. */
const EVALITE_OUTPUT = [
  "\n",
  ` \x1b[35m\x1b[1mEVALITE\x1b[22m\x1b[39m ${dim("running...")}\n`,
  "\n",
  "Port 3006 unavailable, using port 3007\n",
  "index: building dataset cjk lane…\n",
  "index: dataset cjk lane, 40 documents / 131 passages, corpus 9b3ae6fb9a0e\n",
  ` \x1b[33m⏳\x1b[39m ${dim("evals/cjk.eval.ts")}  ${dim("(104 evals)")}\n`,
  `\x1b[90mstdout${dim(" | evals/cjk.eval.ts")}${dim(" > ")}${dim("CJK lane [zh-hans]")}\n\x1b[22m\x1b[39mCJK lane by language: ja: Recall@10 1.000\n`,
  "\n",
  ` \x1b[1m\x1b[32m99%\x1b[39m\x1b[22m evals/cjk.eval.ts  ${dim("(104 evals)")}\n`,
  ` \x1b[33m⏳\x1b[39m ${dim("evals/search.eval.ts")}  ${dim("(58 evals)")}\n`,
  ` \x1b[31m✖\x1b[39m evals/search.eval.ts  ${dim("(58 evals)")}\n`,
  "\n",
  `      ${dim("Score")}  \x1b[1m\x1b[33m76%\x1b[39m\x1b[22m\n`,
  `  ${dim("Threshold")}  \x1b[1m70%\x1b[22m${dim(" (passed)")}\n`,
  ` ${dim("Eval Files")}  2\n`,
  `      ${dim("Evals")}  162\n`,
  `  ${dim("Wall time")}  12.1 s (this run, from its start)\n`,
  `   ${dim("Duration")}  819ms (Evalite's: its longest eval case)\n`,
];

function render(options: { verbose: boolean; tty: boolean }, chunks = EVALITE_OUTPUT): string {
  let out = "";
  const terminal = new EvaliteTerminal((text) => (out += text), options);
  for (const chunk of chunks) terminal.push(chunk);
  terminal.end();
  return out;
}

describe("pnpm eval's view of Evalite's output", () => {
  it("knows Evalite's lines by their text, colours or not", () => {
    expect(evaliteLineKind(` \x1b[33m⏳\x1b[39m ${dim("evals/ask.eval.ts")}  ${dim("(164 evals)")}`)).toBe("file-start");
    expect(evaliteLineKind(" 63% evals/ask.eval.ts  (164 evals)")).toBe("file-done");
    expect(evaliteLineKind(" ✖ evals/ask.eval.ts  (unknown evals)")).toBe("file-done");
    expect(evaliteLineKind(" - evals/ask.eval.ts  (1 eval)")).toBe("file-done");
    expect(evaliteLineKind("  Threshold  70% (failed)")).toBe("threshold");
    expect(evaliteLineKind("Port 3006 unavailable, using port 3009")).toBe("port");
    expect(evaliteLineKind("stdout | evals/cjk.eval.ts > CJK lane [zh-hans] > CJK lane [zh-hans]")).toBe("console-header");
    expect(evaliteLineKind("gate: offline floors from evals/baseline.json: 495 checked")).toBe("other");
    expect(evaliteLineKind("index: building dataset fixtures…")).toBe("other");
  });

  it("by default: one line per eval file once scored, the evals' own lines, no banner, summary, threshold, port or Vitest header", () => {
    expect(stripAnsi(render({ verbose: false, tty: false }))).toBe(
      [
        "index: building dataset cjk lane…",
        "index: dataset cjk lane, 40 documents / 131 passages, corpus 9b3ae6fb9a0e",
        "CJK lane by language: ja: Recall@10 1.000",
        " 99% evals/cjk.eval.ts  (104 evals)",
        " ✖ evals/search.eval.ts  (58 evals)",
        "",
      ].join("\n"),
    );
  });

  it("on a terminal, a file's start line shows while it runs and its scored line replaces it", () => {
    const out = render({ verbose: false, tty: true });
    const start = ` \x1b[33m⏳\x1b[39m ${dim("evals/cjk.eval.ts")}  ${dim("(104 evals)")}`;
    // Shown without a newline, cleared for the eval's own line, shown again, cleared for the score.
    expect(out).toContain(
      `${start}\r\x1b[2K\x1b[22m\x1b[39mCJK lane by language: ja: Recall@10 1.000\n${start}\r\x1b[2K \x1b[1m\x1b[32m99%`,
    );
    expect(stripAnsi(out).replace(/[^\n]*\r/g, "")).toBe(stripAnsi(render({ verbose: false, tty: false })));
    // A file that never finished keeps its start line.
    expect(render({ verbose: false, tty: true }, EVALITE_OUTPUT.slice(0, 7)).endsWith(`${start}\n`)).toBe(true);
  });

  it("--verbose: Evalite's output as it comes, but still no threshold, port or misattributing header", () => {
    const out = stripAnsi(render({ verbose: true, tty: false }));
    expect(out).toContain("\n EVALITE running...\n");
    expect(out).toContain(" ⏳ evals/cjk.eval.ts  (104 evals)\n");
    expect(out).toContain("      Score  76%\n Eval Files  2\n      Evals  162\n");
    expect(out).not.toMatch(/Threshold|Port 3006|stdout \|/);
  });

  it("keeps an unfinished line until it ends, even across writes", () => {
    expect(render({ verbose: false, tty: false }, ["gate: 495 ch", "ecked\n  Threshold", "  70% (passed)\nlast"])).toBe(
      "gate: 495 checked\nlast\n",
    );
  });
});

describe("EvaliteErrors: a target failure is one line", () => {
  const separator = "\x1b[31m\x1b[2m⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯\x1b[22m\x1b[39m";
  const failure = (message: string) => `\x1b[31m\x1b[1mTargetError\x1b[22m: ${message}\x1b[39m\n${separator}\n`;

  it("shows each distinct target failure once, without its separator, and passes anything else through", () => {
    const out: string[] = [];
    const errors = new EvaliteErrors((text) => out.push(text), { verbose: false });
    for (let i = 0; i < 3; i++) errors.push(failure("POST /ask: HTTP 500: DOWN boom"));
    errors.push(failure("POST /search: no response within 300 ms"));
    errors.push("Serialized Error: { reason: 'x' }\n");
    errors.push("TypeError: a bug\n    at f (x.js:1:1)\n");
    errors.end();
    expect(out.map(stripAnsi)).toEqual([
      "TargetError: POST /ask: HTTP 500: DOWN boom\n",
      "TargetError: POST /search: no response within 300 ms\n",
      "TypeError: a bug\n",
      "    at f (x.js:1:1)\n",
    ]);
    expect(errors.dropped).toBe(2);
  });

  it("shows the first ten distinct failures and counts the rest in one line", () => {
    const out: string[] = [];
    const errors = new EvaliteErrors((text) => out.push(text), { verbose: false });
    for (let i = 0; i < 14; i++) errors.push(failure(`GET /search?q=${i}: HTTP 500`));
    errors.end();
    expect(out).toHaveLength(11);
    expect(stripAnsi(out.at(-1)!)).toBe(
      "eval: 4 more distinct target failure(s) not shown (pnpm eval --verbose shows every case's; the report names each errored case)\n",
    );
  });

  it("shows everything with --verbose", () => {
    const out: string[] = [];
    const errors = new EvaliteErrors((text) => out.push(text), { verbose: true });
    errors.push(failure("x") + failure("x"));
    errors.end();
    expect(out).toHaveLength(4);
  });
});
