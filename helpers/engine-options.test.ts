import { describe, expect, it } from "vitest";
import { ConfigError } from "@hybrid-search/eval-gate";
import { answerThreadsFromEnv, engineOptionsFromEnv } from "./engine-options.js";

const from = (value: string) => () => engineOptionsFromEnv({ EVAL_ENGINE_OPTIONS: value });

describe("EVAL_ENGINE_OPTIONS", () => {
  it("passes valid parameters through and is empty when unset", () => {
    expect(engineOptionsFromEnv({})).toEqual({});
    expect(from('{"hybrid":{"vectorWeight":1},"chunker":{"targetChars":600}}')()).toEqual({
      hybrid: { vectorWeight: 1 },
      chunker: { targetChars: 600 },
    });
  });

  it("refuses bad JSON, unknown keys at any depth and values the engine would reject, in one line", () => {
    const cases: Array<[string, RegExp]> = [
      ["{bad", /^EVAL_ENGINE_OPTIONS is not valid JSON \(/],
      ['{"foo":{}}', /^EVAL_ENGINE_OPTIONS: unknown key "foo" \(known: analyzer, chunker, hybrid\)$/],
      ['{"hybrid":{"rrfk":1}}', /^EVAL_ENGINE_OPTIONS: Unknown hybrid option "rrfk"; did you mean "rrfK"\?/],
      ['{"chunker":{"target":500}}', /^EVAL_ENGINE_OPTIONS: Unknown chunker option "target"/],
      ['{"analyzer":{"cjk":"quad"}}', /^EVAL_ENGINE_OPTIONS: Expected analyzer "cjk" to be one of/],
      ['{"hybrid":{"fusionWeight":2}}', /^EVAL_ENGINE_OPTIONS: Expected hybrid "fusionWeight" to be between 0 and 1, got 2$/],
    ];
    for (const [value, message] of cases) {
      expect(from(value), value).toThrow(ConfigError);
      expect(from(value), value).toThrow(message);
    }
  });
});

describe("EVAL_ANSWER_THREADS", () => {
  it("is auto when unset or blank, takes always and never, and refuses anything else in one line", () => {
    expect(answerThreadsFromEnv({})).toBe("auto");
    expect(answerThreadsFromEnv({ EVAL_ANSWER_THREADS: " " })).toBe("auto");
    expect(answerThreadsFromEnv({ EVAL_ANSWER_THREADS: "always" })).toBe("always");
    expect(answerThreadsFromEnv({ EVAL_ANSWER_THREADS: "never" })).toBe("never");
    const bad = () => answerThreadsFromEnv({ EVAL_ANSWER_THREADS: "2" });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/^EVAL_ANSWER_THREADS must be one of auto, always, never \(got "2"\)$/);
  });
});
