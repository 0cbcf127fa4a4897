/**
 * Target modules: loaded from anywhere (outside the repository too, importing the contract
 * package), checked as they load, and each misbehaving call — a throw, the wrong shape, a promise
 * that never settles — one labelled line; a credential a module echoes never leaves it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "@hybrid-search/eval-gate";
import { moduleTargetConfig } from "./module-config.js";
import { openModuleTarget } from "./module-target.js";
import { observedAnswer, observedRanking } from "./observe.js";
import { type Target, type TargetAsk, TargetError, type TargetSearch } from "./target.js";

/** How these tests name a target: as a run names one of its kind. */
const named = (name: string): string => `module:${name}`;
/** A target's ranking and answer as the suite observes them (helpers/targets/observe.ts). */
const ranked = async (target: Target, request: TargetSearch) => observedRanking(await target.search(request));
const answered = async (target: Target, request: TargetAsk) => observedAnswer(request.question, await target.ask(request), target.label);

const SECRET = "mod-SECRET-51aa0c";
const outside = mkdtempSync(join(tmpdir(), "module-target-"));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

/** A module file in a folder outside the repository; its config as EVAL_TARGET would give it. */
function moduleFile(name: string, source: string, env: Record<string, string> = {}) {
  const file = join(outside, name);
  writeFileSync(file, source);
  return moduleTargetConfig(file, { EVAL_TARGET_TIMEOUT_MS: "300", EVAL_TARGET_TOKEN: SECRET, ...env });
}

const MISBEHAVING = `
import { defineTarget } from "@hybrid-search/target-contract/define-target";
import type { SearchRequest } from "@hybrid-search/target-contract/types";


const token: string = process.env.TOKEN_FOR_TEST ?? "${SECRET}";
export default defineTarget({
  name: "odd",
  search: {
    search: async ({ query }: SearchRequest) => {
      if (query === "throw") throw new TypeError("index is gone, token " + token);
      if (query === "shape") return { hits: [query] } as never;
      if (query === "hang") return new Promise(() => {});
      return { results: [{ docId: "a.md", score: 2, snippet: "leaks " + token }], elapsedMs: 1.5 };
    },
  },
  ask: () => ({ answer: "it is [1]", citations: [{ ref: 1, docId: "a.md" }], refused: false, sources: [{ docId: "a.md", text: "x" }] }),
});
`;

describe("a target module", () => {
  it("loads from outside the repository, and serves what its definition has, timed, checked and redacted", async () => {
    const target = await openModuleTarget(moduleFile("odd.target.ts", MISBEHAVING), named);
    expect(target).toMatchObject({
      name: "odd",
      kind: "module",
      capabilities: { modes: ["search"], ask: true, expand: false, trace: false },
    });
    const ranking = await ranked(target, { id: "q1", query: "fine", mode: "search", limit: 10 });
    expect(ranking).toMatchObject({ results: [{ docId: "a.md", score: 2, snippet: "leaks [redacted]" }], serverMs: 1.5, trace: null });
    expect(ranking.clientMs).toBeGreaterThanOrEqual(0);
    expect(await answered(target, { id: "a1", question: "what?" })).toMatchObject({
      answer: "it is [1]",
      answerer: "module:odd",
      invalidCitations: [],
    });
  });

  it("gives each misbehaving call one labelled line: a throw, the wrong shape, no answer in time", async () => {
    const target = await openModuleTarget(moduleFile("odd2.target.ts", MISBEHAVING), named);
    const failure = (query: string) =>
      target.search({ id: "q", query, mode: "search", limit: 10 }).then(
        () => null,
        (e: unknown) => e,
      );
    const thrown = await failure("throw");
    expect(thrown).toBeInstanceOf(TargetError);
    expect((thrown as Error).message).toBe("module:odd: search(search): threw TypeError: index is gone, token [redacted]");
    expect(((await failure("shape")) as Error).message).toBe(
      'module:odd: search(search): returned no SearchResponse: (the body): missing required field "results"',
    );
    expect(((await failure("hang")) as Error).message).toBe("module:odd: search(search): did not settle within 300 ms");
    // A hung call gave its slot back: the next call is answered.
    expect((await ranked(target, { id: "q", query: "fine", mode: "search", limit: 1 })).results).toHaveLength(1);
    await expect(target.search({ id: "q", query: "x", mode: "vsearch", limit: 1 })).rejects.toThrow(
      "module:odd does not serve mode vsearch",
    );
  });

  it("aborts a call's signal when the suite stops waiting, whether the module read it at once or reads it later", async () => {
    const seen = globalThis as { signalSeen?: Record<string, { aborted: boolean; reason: string }> };
    seen.signalSeen = {};
    const target = await openModuleTarget(
      moduleFile(
        "signal.target.mjs",
        `const seen = globalThis.signalSeen;
        const record = (key, signal) => { seen[key] = { aborted: signal.aborted, reason: String(signal.reason?.message) }; };
        export default { name: "signal", search: { search: ({ query }, context) => {
          if (query === "at once") {
            const signal = context.signal;
            signal.addEventListener("abort", () => record(query, signal));
          } else setTimeout(() => record(query, context.signal), 400);
          return new Promise(() => {});
        } } };`,
      ),
      named,
    );
    for (const query of ["at once", "later"])
      await expect(target.search({ id: "q", query, mode: "search", limit: 1 })).rejects.toThrow("did not settle within 300 ms");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen.signalSeen).toEqual({
      "at once": { aborted: true, reason: "no answer within 300 ms" },
      later: { aborted: true, reason: "no answer within 300 ms" },
    });
  });

  it("refuses with one line naming the file: no such file, not a module path, a syntax error, a throw while loading, a wrong definition", async () => {
    expect(() => moduleTargetConfig(join(outside, "missing.ts"), {})).toThrow(ConfigError);
    expect(() => moduleTargetConfig(join(outside, "missing.ts"), {})).toThrow(/^EVAL_TARGET .*missing\.ts: no such file/);
    expect(() => moduleTargetConfig("localhost:8080", {})).toThrow("EVAL_TARGET must be a service's http(s) URL or a target module's path");
    const cases: Array<[string, string, RegExp]> = [
      [
        "syntax.target.ts",
        "export default defineTarget({ name: ",
        /^EVAL_TARGET .*syntax\.target\.ts: loading the module failed: \w*Error: .+$/,
      ],
      [
        "throws.target.ts",
        `throw new Error("no index here ${SECRET}");`,
        /^EVAL_TARGET .*throws\.target\.ts: loading the module failed: Error: no index here \[redacted\]$/,
      ],
      [
        "none.target.mjs",
        "export const x = 1;",
        /^EVAL_TARGET .*none\.target\.mjs: the module has no default export \(export default defineTarget\(\{ name, search, … \}\)\); it exports x$/,
      ],
      [
        "array.target.mjs",
        "export default [];",
        /the default export is not a target definition: the default export must be defineTarget\(.*got an array$/,
      ],
      [
        "wrong.target.js",
        "export default { name: 'w', search: { bm25: () => ({ results: [] }) } };",
        /^EVAL_TARGET .*wrong\.target\.js: the default export is not a target definition: \/search\/bm25: unknown mode/,
      ],
    ];
    for (const [name, source, message] of cases) {
      const error = await openModuleTarget(moduleFile(name, source), named).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ConfigError);
      expect((error as Error).message, name).toMatch(message);
      expect((error as Error).message.split("\n")).toHaveLength(1);
    }
  });
});
