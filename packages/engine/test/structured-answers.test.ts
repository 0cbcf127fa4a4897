// The model answerer asks for a structured answer ({ answer, refused, citations }), so a refusal in
// any language is the model's statement; free text stays possible for servers that cannot do JSON.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MockLanguageModelV3 } from "ai/test";
import { APICallError, type LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { Engine } from "../src/index.js";
import { ModelAnswerer } from "../src/answer/model-answerer.js";
import { scriptedModel } from "../src/testing.js";
import { SMALL_CORPUS, tempDir, writeFiles } from "./helpers.js";

const model = (...replies: Array<string | Error>) => scriptedModel("m1", ...replies);
const json = (answer: string, refused: boolean, citations: number[]): string => JSON.stringify({ answer, refused, citations });
const QUESTION = "How do I cancel my subscription?";

/** A server that does not support `response_format` (as some local servers answer). */
const noJsonFormat = (): APICallError =>
  new APICallError({
    message: "Bad Request",
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode: 400,
    responseBody: '{"error":{"message":"response_format json_schema is not supported by this server"}}',
    isRetryable: false,
  });

describe("structured answers", () => {
  const dir = tempDir();
  const db = join(dir, "index.db");
  const engines: Engine[] = [];
  beforeAll(async () => {
    writeFiles(join(dir, "corpus"), SMALL_CORPUS);
    const e = Engine.open(db, { create: true });
    await e.index(join(dir, "corpus"));
    e.close();
  });
  afterAll(() => {
    for (const e of engines) e.close();
  });
  const open = (answerer: MockLanguageModelV3): Engine => {
    const e = Engine.open(db, { languageModels: { balanced: answerer }, modelLimits: { timeoutMs: 5000, maxRetries: 0 } });
    engines.push(e);
    return e;
  };

  it("asks for the JSON answer schema and takes the answer, its citations and its refused flag from it", async () => {
    const m = model(json("You can cancel at any time in Settings [1].", false, [1, 2]));
    const r = await open(m).ask(QUESTION);
    const call = m.doGenerateCalls[0]! as LanguageModelV3CallOptions;
    expect(call.responseFormat).toMatchObject({ type: "json", schema: { required: ["answer", "refused", "citations"] } });
    expect(r).toMatchObject({ answer: "You can cancel at any time in Settings [1].", refused: false, answerFormat: "structured" });
    // The text cites [1]; the model declares [2] as well: both count, the text's first.
    expect(r.citations.map((c) => c.ref)).toEqual([1, 2]);
    expect(r.trace.at(-1)!.output).toMatchObject({ format: "structured", refused: false, citations: [1, 2] });
  });

  it.each([
    ["de", "Die Dokumente enthalten keine Antwort auf diese Frage."],
    ["fr", "Les documents ne contiennent pas de réponse à cette question."],
    ["it", "I documenti non contengono una risposta a questa domanda."],
    ["en", "I cannot answer that from these sources."],
  ])("a refusal in %s is a refusal because the model says so, without citations", async (_language, sentence) => {
    const r = await open(model(json(sentence, true, []))).ask(QUESTION);
    expect(r).toMatchObject({ answer: sentence, refused: true, refusal: "model", citations: [], answerFormat: "structured" });
  });

  it("a refusal with no text reads as the refusal sentence", async () => {
    const r = await open(model(json("", true, []))).ask(QUESTION);
    expect(r).toMatchObject({ answer: "The documents do not contain an answer to this question.", refused: true });
  });

  it("JSON that breaks the schema, or is cut short, is a failed answer naming the problem, never a guess", async () => {
    const off = await open(model(JSON.stringify({ answer: "Yes [1].", refused: "no" }))).ask(QUESTION);
    expect(off).toMatchObject({ answer: "", refused: false, citations: [] });
    expect(off.error).toMatch(/^answer model mock\/m1 returned JSON that breaks the answer schema \(.*(refused|citations).*\)$/);
    const cut = await open(model('{"answer": "You can cancel at any ti')).ask(QUESTION);
    expect(cut.error).toBe("answer model mock/m1 returned JSON that does not parse");
    const empty = await open(model(json("  ", false, []))).ask(QUESTION);
    expect(empty.error).toBe("answer model mock/m1 returned an empty answer");
  });

  it("a reply in prose is taken as a free-text answer, and the trace says so", async () => {
    const r = await open(model("You can cancel at any time in Settings [1].")).ask(QUESTION);
    expect(r).toMatchObject({ answer: "You can cancel at any time in Settings [1].", refused: false, answerFormat: "text" });
    expect(r.citations.map((c) => c.ref)).toEqual([1]);
    expect(r.trace.at(-1)!.note).toBe("the model answered in free text, not the JSON asked for");
    const refusal = await open(model("The documents do not contain an answer to this question.")).ask(QUESTION);
    expect(refusal).toMatchObject({ refused: true, refusal: "model", answerFormat: "text" });
  });

  it("a server that refuses the JSON response format is asked again in free text, and from then on", async () => {
    const m = model(noJsonFormat(), "You can cancel in Settings [1].", "Files are kept [1].");
    const e = open(m);
    const first = await e.ask(QUESTION);
    expect(first).toMatchObject({ answer: "You can cancel in Settings [1].", answerFormat: "text" });
    expect(first.trace.at(-1)!.note).toMatch(/^the server refused the JSON response format \(HTTP 400\); asked again in free text/);
    const second = await e.ask(QUESTION);
    expect(second).toMatchObject({ answer: "Files are kept [1].", answerFormat: "text" });
    expect(m.doGenerateCalls.map((c) => c.responseFormat?.type ?? "text")).toEqual(["json", "text", "text"]);
  });

  it("another server error is a failed answer, not a fallback", async () => {
    const r = await open(model(new Error("HTTP 503"))).ask(QUESTION);
    expect(r.error).toMatch(/^answer model mock\/m1 failed: .*HTTP 503/);
  });

  it("structured: false asks in free text from the start", async () => {
    const m = model("You can cancel in Settings [1].");
    const answer = await new ModelAnswerer(m, { structured: false }).answer({
      question: QUESTION,
      sources: [],
      scoring: { idf: () => 1, languages: [] } as never,
      policy: { timeoutMs: 5000, maxRetries: 0 },
    });
    expect(answer).toMatchObject({ text: "You can cancel in Settings [1].", format: "text" });
    expect(m.doGenerateCalls[0]!.responseFormat?.type ?? "text").toBe("text");
  });
});
