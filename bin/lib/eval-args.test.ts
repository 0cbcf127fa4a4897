import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/fixture-files.js";
import { evalFiles, parseEvalArgs, parseWatchArgs, selectFiles } from "./eval-args.js";

describe("pnpm eval's command line", () => {
  it("takes our flags, the filter, and Evalite's flags as its runner's options", () => {
    expect(parseEvalArgs(["search", "--update-baseline", "--reason", "initial floors", "--hideTable"])).toEqual({
      help: false,
      verbose: false,
      explainTarget: false,
      updateBaseline: true,
      lowerFloors: [],
      acceptFailures: [],
      passMarks: [],
      reason: "initial floors",
      keepReport: false,
      trials: 1,
      maxFlipRate: null,
      dryRun: false,
      maxCost: null,
      noCache: false,
      threshold: null,
      outputPath: null,
      filter: "search",
      evalite: { hideTable: true },
    });
    expect(parseEvalArgs(["--explain-target"]).explainTarget).toBe(true);
    expect(
      parseEvalArgs([
        "--lower-floor",
        "Search (BM25)|nDCG@10",
        "--lower-floor=Vector search",
        "--reason=new analyzer",
        "--keep-report",
        "--threshold=80",
        "--outputPath",
        "r.json",
        "--noCache",
      ]),
    ).toMatchObject({
      lowerFloors: ["Search (BM25)|nDCG@10", "Vector search"],
      reason: "new analyzer",
      keepReport: true,
      threshold: 80,
      outputPath: "r.json",
      filter: null,
      evalite: { cacheEnabled: false },
    });
    expect(
      parseEvalArgs(["--pass-mark", "nDCG@10=0.6", "--pass-mark=*=0.4", "--accept-failure", "Search (BM25)|q-012", "--reason", "x"]),
    ).toMatchObject({
      passMarks: [
        { metric: "nDCG@10", mark: 0.6 },
        { metric: "*", mark: 0.4 },
      ],
      acceptFailures: ["Search (BM25)|q-012"],
    });
    expect(parseEvalArgs(["-h"]).help).toBe(true);
    expect(parseEvalArgs(["query", "--verbose"])).toMatchObject({ verbose: true, filter: "query", evalite: {} });
    expect(parseEvalArgs(["--threshold", "0"]).threshold).toBe(0);
  });

  it("reads the judge's and the budget's flags, and refuses bad values in one line", () => {
    expect(parseEvalArgs(["--trials", "3", "--max-flip-rate", "0.2", "--max-cost", "0.50", "--no-cache"])).toMatchObject({
      trials: 3,
      maxFlipRate: 0.2,
      maxCost: 0.5,
      noCache: true,
      dryRun: false,
    });
    expect(parseEvalArgs(["--noCache"])).toMatchObject({ noCache: true, evalite: { cacheEnabled: false } });
    expect(parseEvalArgs([])).toMatchObject({ trials: 1, maxFlipRate: null, maxCost: null, noCache: false, dryRun: false });
    expect(() => parseEvalArgs(["--trials", "0"])).toThrow("--trials must be a whole number from 1 to 100 (got 0)");
    expect(() => parseEvalArgs(["--max-flip-rate", "1.5"])).toThrow("--max-flip-rate must be a share from 0 to 1 (got 1.5)");
    // A plain decimal amount only: `$1` (an empty shell variable in CI), hexadecimal, an exponent, a sign are refused.
    for (const bad of ["ten", "$1", "$0.50", "0x10", "1e3", "-5", "+1", "Infinity", "1.2.3", ""])
      expect(() => parseEvalArgs(["--max-cost", bad]), bad).toThrow(
        `--max-cost must be a plain decimal amount in dollars, such as 0.50 or 2 (got ${JSON.stringify(bad)})`,
      );
    expect(parseEvalArgs(["--max-cost", ".5"]).maxCost).toBe(0.5);
    // A negative number is the flag's value, told what is wrong with it, not "needs a value".
    expect(() => parseEvalArgs(["--trials", "-1"])).toThrow("--trials must be a whole number from 1 to 100 (got -1)");
    expect(() => parseEvalArgs(["--dry-run", "--max-cost", "1"])).toThrow(/--dry-run makes no call/);
    expect(() => parseEvalArgs(["--dry-run", "--update-baseline"])).toThrow(/--dry-run scores nothing/);
  });

  it("refuses a lowering without a reason, a stray reason, bad values and two filters", () => {
    expect(() => parseEvalArgs(["--lower-floor", "Search (BM25)"])).toThrow('--lower-floor needs --reason "why the floor may drop"');
    expect(() => parseEvalArgs(["--reason", "x"])).toThrow("--reason goes with --update-baseline, --lower-floor or --accept-failure");
    expect(() => parseEvalArgs(["--accept-failure", "S|q1"])).toThrow('--accept-failure needs --reason "why the case may fail"');
    expect(() => parseEvalArgs(["--pass-mark", "nDCG@10=2"])).toThrow(
      '--pass-mark "nDCG@10=2": must be <metric>=<number from 0 to 1>, e.g. nDCG@10=0.5',
    );
    expect(() => parseEvalArgs(["--update-baseline", "--reason", "  "])).toThrow("--reason must not be empty");
    expect(() => parseEvalArgs(["--update-baseline", "--reason"])).toThrow("--reason needs a value");
    expect(() => parseEvalArgs(["--lower-floor", "--reason", "x"])).toThrow("--lower-floor needs a value");
    expect(() => parseEvalArgs(["--threshold", "seventy"])).toThrow("--threshold must be a percentage from 0 to 100 (got seventy)");
    expect(() => parseEvalArgs(["--threshold", "170"])).toThrow(/got 170/);
    expect(() => parseEvalArgs(["--threshold="])).toThrow("--threshold must be a percentage from 0 to 100 (got )");
    expect(() => parseEvalArgs(["search", "query"])).toThrow('one file filter at most (got "search" and "query")');
  });

  it("refuses a flag neither we nor Evalite's runner know, in one line, naming the likely one", () => {
    expect(() => parseEvalArgs(["--dryRun"])).toThrow("unknown flag --dryRun (did you mean --dry-run?); pnpm eval --help lists the flags");
    expect(() => parseEvalArgs(["search", "--updateBaseline"])).toThrow("unknown flag --updateBaseline (did you mean --update-baseline?)");
    expect(() => parseEvalArgs(["--quiet"])).toThrow(/^unknown flag --quiet; pnpm eval --help lists the flags$/);
    expect(() => parseEvalArgs(["--constructor"])).toThrow(/^unknown flag --constructor;/);
    expect(() => parseEvalArgs(["-x"])).toThrow(/^unknown flag -x;/);
    expect(() => parseEvalArgs(["--hideTable=yes"])).toThrow("--hideTable takes no value");
  });

  it("quotes at most 200 characters of what it refuses", () => {
    const long = "y".repeat(10_000);
    expect(() => parseEvalArgs([`--${long}`])).toThrow(
      `unknown flag --${"y".repeat(198)}… (10002 characters); pnpm eval --help lists the flags`,
    );
    expect(() => parseEvalArgs(["--threshold", long])).toThrow(`(got ${"y".repeat(200)}… (10000 characters))`);
    expect(() => parseEvalArgs(["a", long])).toThrow(`one file filter at most (got "a" and "${"y".repeat(200)}"… (10000 characters))`);
    expect(() => selectFiles(REPO_ROOT, long)).toThrow(/^no eval file is named "y{200}"… \(10000 characters\) \(eval names: /);
  });

  it("knows the eval files; a filter selects names exactly, globs select several, a path selects its file", () => {
    const files = evalFiles(REPO_ROOT);
    expect(files).toContain("evals/search.eval.ts");
    expect(files.every((f) => /\.eval\.m?ts$/.test(f) && !f.includes("node_modules"))).toBe(true);
    // Evalite's own filter ran vsearch.eval.ts for "search" (a substring of its path).
    expect(selectFiles(REPO_ROOT, "search")).toEqual(["evals/search.eval.ts"]);
    expect(selectFiles(REPO_ROOT, "*search")).toEqual(["evals/search.eval.ts", "evals/vsearch.eval.ts"]);
    expect(selectFiles(REPO_ROOT, "?search")).toEqual(["evals/vsearch.eval.ts"]);
    expect(selectFiles(REPO_ROOT, "*")).toEqual(files);
    expect(selectFiles(REPO_ROOT, "evals/search.eval.ts")).toEqual(["evals/search.eval.ts"]);
    expect(selectFiles(REPO_ROOT, "./evals/query.eval.ts")).toEqual(["evals/query.eval.ts"]);
  });

  it("refuses a filter that selects nothing in one line naming every eval (Evalite would wait forever)", () => {
    const names = evalFiles(REPO_ROOT)
      .map((f) => f.replace(/^.*\//, "").replace(/\.eval\.m?ts$/, ""))
      .sort();
    for (const filter of ["no-such-eval", "searc", "Search", "evals/search", "search.eval.ts", "*.md"])
      expect(() => selectFiles(REPO_ROOT, filter), filter).toThrow(
        `no eval file is named ${JSON.stringify(filter)} (eval names: ${names.join(", ")}; a glob such as '*search' selects several)`,
      );
    expect(names).toContain("vsearch");
  });

  it("pnpm eval:watch takes a filter and Evalite's flags; a flag of the gate is refused, saying whose it is", () => {
    expect(parseWatchArgs(["search", "--hideTable"])).toEqual({
      help: false,
      filter: "search",
      evalite: { hideTable: true },
      noCache: false,
    });
    expect(parseWatchArgs([])).toEqual({ help: false, filter: null, evalite: {}, noCache: false });
    expect(() => parseWatchArgs(["--threshold", "70"])).toThrow(
      "--threshold is pnpm eval's flag: watch mode is not gated and writes no report",
    );
    expect(() => parseWatchArgs(["--update-baseline"])).toThrow(/^--update-baseline is pnpm eval's flag/);
    expect(parseWatchArgs(["--no-cache"]).noCache).toBe(true);
    expect(() => parseWatchArgs(["a", "b"])).toThrow('one file filter at most (got "a" and "b")');
  });
});
