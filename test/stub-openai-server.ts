/**
 * A stub OpenAI-compatible server on 127.0.0.1, for driving the real HTTP model paths (AI SDK →
 * @ai-sdk/openai-compatible → fetch) without any network. It recognises the three kinds of calls the
 * suite makes — answers (prompts/ask.md), query expansion (a JSON schema with `lexicalQueries`) and
 * the LLM judge (any other JSON schema) — and answers them according to a behaviour:
 *
 * - `good`: a cited answer quoting the first source (or the exact refusal when the question's
 *   subject is absent from the sources), a valid expansion keeping the query, a judge verdict;
 * - `bad-json`: expansion and judge output that breaks the schema or is not JSON;
 * - `rate-limit`: every call first gets 429 with `retry-after: 0`, the retry succeeds (as `good`);
 * - `server-error`: every call gets 500;
 * - `empty`: every call gets 200 with an empty message (a content filter, a length stop before any text);
 * - `timeout`: calls are held open past the client's timeout, then dropped.
 *
 * Answers are asked for in JSON (the answer schema, `{ answer, refused, citations }`) and given so;
 * `options` shape them further for a test: `answer` writes a model's answer to a question (e.g. a
 * refusal in the question's language, or a better answer from the quality preset's model),
 * `jsonAnswers: false` makes the server reject the JSON response format for answers (HTTP 400, as
 * servers without structured output do), and `delayMs` holds a model's calls (a slow model).
 *
 * A call whose model id is a behaviour's name (e.g. ENGINE_MODEL_SLIM=server-error) gets that
 * behaviour instead, so one run can hold several (one per preset) and serve several tests.
 *
 * It records every request (path, headers, body) so tests can check what was sent. Run it by hand:
 * `node --import tsx test/stub-openai-server.ts [behaviour] [port]`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { HashedNgramEmbedder } from "@hybrid-search/engine";

export type StubBehaviour = "good" | "bad-json" | "rate-limit" | "server-error" | "empty" | "timeout";
const BEHAVIOURS: readonly string[] = ["good", "bad-json", "rate-limit", "server-error", "empty", "timeout"] satisfies StubBehaviour[];

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
  kind: "answer" | "expansion" | "judge" | "embedding" | "other";
  /** Answered 429 (the `rate-limit` behaviour's first reply to a call): the call was not made. */
  rateLimited?: true;
}

/** What an answer call asked: the model, the question and the numbered sources (their doc ids). */
export interface AnswerCall {
  model: string;
  question: string;
  sources: Array<{ ref: number; doc: string }>;
}

export interface StubOptions {
  /** A model's answer to a question; undefined keeps the behaviour's. */
  answer?: (call: AnswerCall) => { answer: string; refused: boolean; citations: number[] } | undefined;
  /** false: answer calls that ask for JSON get HTTP 400 (`response_format` unsupported). @default true */
  jsonAnswers?: boolean;
  /** How long to hold a call of this model before answering (ms). */
  delayMs?: (model: string, kind: RecordedRequest["kind"]) => number;
  /** Which calls the `rate-limit` behaviour answers 429 first. @default every call */
  rateLimits?: (kind: RecordedRequest["kind"]) => boolean;
}

export interface StubServer {
  url: string;
  requests: RecordedRequest[];
  behaviour: StubBehaviour;
  close(): Promise<void>;
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: unknown }>;
  response_format?: { type?: string; json_schema?: { schema?: { properties?: Record<string, unknown> } } };
}

const embedder = new HashedNgramEmbedder();

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === "object" && p && "text" in p ? String((p as { text: unknown }).text) : "")).join("");
  return "";
}

function kindOf(path: string, body: ChatBody): RecordedRequest["kind"] {
  if (path.endsWith("/embeddings")) return "embedding";
  if (!path.endsWith("/chat/completions")) return "other";
  const props = body.response_format?.json_schema?.schema?.properties ?? {};
  if ("lexicalQueries" in props) return "expansion";
  const system = (body.messages ?? [])
    .filter((m) => m.role === "system")
    .map((m) => text(m.content))
    .join("\n");
  // Answers are asked for in JSON (the answer schema) or, as a fallback, in free text.
  if (/answer questions about Tessera/i.test(system)) return "answer";
  if (body.response_format) return "judge";
  if (/Expansion|rewrite a search query/i.test(system) || /lexicalQueries/.test(system)) return "expansion";
  return "judge";
}

/** What a cooperative model would write for each kind of call. */
function goodContent(kind: RecordedRequest["kind"], body: ChatBody): string {
  const user = (body.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => text(m.content))
    .join("\n");
  if (kind === "expansion") {
    const query = /Query: (".*")/.exec(user)?.[1];
    const q = query ? (JSON.parse(query) as string) : "query";
    return JSON.stringify({ lexicalQueries: [q, `${q} help`], vectorQueries: [q, `How do I ${q}?`], language: "en" });
  }
  if (kind === "judge") {
    // Answer in the shape the judge's schema asks for: per-source ratings, topics, a refusal, statements
    // and their verdicts, statements against a reference, or one score.
    const props = body.response_format?.json_schema?.schema?.properties ?? {};
    const refs = [...user.matchAll(/<source ref="(\d+)"/g)].map((m) => Number(m[1]));
    const reasoning = "The stub judge read the sources and the answer.";
    if ("ratings" in props) return JSON.stringify({ reasoning, ratings: refs.map((ref, i) => ({ ref, score: i === 0 ? 3 : 1 })) });
    if ("topics" in props) {
      const topics = [...user.matchAll(/<topic n="(\d+)">/g)].map((m) => Number(m[1]));
      return JSON.stringify({ reasoning, topics: topics.map((topic) => ({ topic, covered: topic === 1 })) });
    }
    if ("refused" in props) {
      const answer = /<answer>\n([\s\S]*?)\n<\/answer>/.exec(user)?.[1] ?? "";
      return JSON.stringify({ reasoning, refused: /do not contain|enthalten keine|ne contiennent pas|non contengono/i.test(answer) });
    }
    // Faithfulness by claims: the answer's sentences as statements, then each supported by the first source.
    if ("verdicts" in props) {
      const statements = [...user.matchAll(/<statement n="(\d+)">/g)].map((m) => Number(m[1]));
      return JSON.stringify({
        verdicts: statements.map((statement) => ({
          statement,
          reason: "The first source states it.",
          verdict: "supported",
          refs: refs.slice(0, 1),
        })),
      });
    }
    const answerText = /<answer>\n([\s\S]*?)\n<\/answer>/.exec(user)?.[1] ?? "";
    const sentences = answerText
      .replace(/\s*\[\d+(?:,\s*\d+)*\]/g, "")
      .split(/(?<=[.!?])\s+/)
      .filter((x) => x.trim() !== "");
    if ("missing" in props)
      return JSON.stringify({ reasoning, statements: sentences.map((statement) => ({ statement, class: "in-reference" })), missing: [] });
    if ("statements" in props) return JSON.stringify({ statements: sentences });
    return JSON.stringify({ reasoning, score: 2 });
  }
  // An answer: quote the first source's first sentence with a citation; JSON when asked for it.
  const first = /<source ref="1"[^>]*>\n([\s\S]*?)\n<\/source>/.exec(user)?.[1] ?? "";
  const sentence = first
    .split("\n")
    .slice(1)
    .join(" ")
    .split(/(?<=[.!?])\s/)[0]
    ?.trim();
  const answer = sentence
    ? { answer: `${sentence} [1]`, refused: false, citations: [1] }
    : { answer: "The documents do not contain an answer to this question.", refused: true, citations: [] };
  return body.response_format ? JSON.stringify(answer) : answer.answer;
}

function badContent(kind: RecordedRequest["kind"]): string {
  if (kind === "expansion") return JSON.stringify({ lexicalQueries: "not an array", extra: true });
  if (kind === "judge") return "I think the answer is fine, score: high";
  return "An answer without any citation.";
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function completion(model: string, content: string): unknown {
  return {
    id: "chatcmpl-stub",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

/** The question and the numbered sources of an answer call's user message. */
function answerCall(body: ChatBody): AnswerCall {
  const user = (body.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => text(m.content))
    .join("\n");
  return {
    model: body.model ?? "stub",
    question: /^Question: (.*)$/m.exec(user)?.[1] ?? "",
    sources: [...user.matchAll(/<source ref="(\d+)" doc="([^"]*)"/g)].map((m) => ({ ref: Number(m[1]), doc: m[2]! })),
  };
}

export function startStubServer(defaultBehaviour: StubBehaviour, port = 0, options: StubOptions = {}): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const seen = new Set<string>();
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      let body: ChatBody & { input?: unknown };
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return send(res, 400, { error: { message: "body is not JSON" } });
      }
      const path = req.url ?? "";
      const kind = kindOf(path, body);
      requests.push({ path, headers: req.headers, body: body as Record<string, unknown>, kind });
      const behaviour = BEHAVIOURS.includes(body.model ?? "") ? (body.model as StubBehaviour) : defaultBehaviour;

      if (behaviour === "server-error") return send(res, 500, { error: { message: "stub: internal server error", type: "server_error" } });
      if (behaviour === "timeout") {
        held.push(res);
        return;
      }
      if (behaviour === "rate-limit" && (options.rateLimits?.(kind) ?? true)) {
        const key = raw;
        if (!seen.has(key)) {
          seen.add(key);
          requests.at(-1)!.rateLimited = true;
          return send(res, 429, { error: { message: "stub: rate limited", type: "rate_limit" } }, { "retry-after": "0" });
        }
      }
      if (kind === "embedding") {
        const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
        return send(res, 200, {
          object: "list",
          model: body.model,
          data: inputs.map((t, index) => ({ object: "embedding", index, embedding: Array.from(embedder.embedOne(t)) })),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        });
      }
      if (kind === "other") return send(res, 404, { error: { message: `stub: no route ${path}` } });
      if (kind === "answer" && body.response_format && options.jsonAnswers === false)
        return send(res, 400, {
          error: { message: "stub: response_format json_schema is not supported by this server", type: "invalid_request_error" },
        });
      const custom =
        kind === "answer" && behaviour !== "bad-json" && behaviour !== "empty" ? options.answer?.(answerCall(body)) : undefined;
      const content = custom
        ? body.response_format
          ? JSON.stringify(custom)
          : custom.answer
        : behaviour === "bad-json"
          ? badContent(kind)
          : behaviour === "empty"
            ? ""
            : goodContent(kind, body);
      const reply = () => send(res, 200, completion(body.model ?? "stub", content));
      const delay = options.delayMs?.(body.model ?? "stub", kind) ?? 0;
      if (delay > 0) setTimeout(reply, delay);
      else reply();
    });
  });
  // Longer than a client keeps an idle connection (undici: 4 s), so the client closes it first and no
  // request goes out on a connection the stub is closing at that moment (ECONNRESET under load).
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const { port: actual } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${actual}/v1`,
        requests,
        behaviour: defaultBehaviour,
        close: () =>
          new Promise<void>((done) => {
            for (const res of held) res.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

const isMain = process.argv[1] !== undefined && new URL(import.meta.url).pathname === process.argv[1];
if (isMain) {
  const behaviour = (process.argv[2] ?? "good") as StubBehaviour;
  const stub = await startStubServer(behaviour, Number(process.argv[3] ?? 0));
  console.log(`stub OpenAI-compatible server (${behaviour}) at ${stub.url}`);
}
