/**
 * A stand-in for a golden-Q&A service shaped like the one seed 000 describes: documents go in one
 * at a time through `POST /api/kb/ingest {title, content}`, a question through `POST /api/kb/ask
 * {question}` comes back as a plain-text answer, streamed in chunks, with the titles of the
 * documents it used in the `x-knowlex-docs` response header (comma-separated); no health route,
 * no delete, no refused field: a question it cannot answer gets a refusal sentence. It answers
 * from the best BM25 match's sentence that shares most words with the question. Requests must
 * carry `x-kb-key: <key>`. For tests only.
 */
import { Bm25Field, bodyOf, listen, type Running, sendJson, words } from "./serve.js";

export interface GoldenQa extends Running {
  /** Documents ingested, by title. */
  documents: Map<string, string>;
}

/** Below this BM25 score the stand-in refuses. */
const ANSWER_THRESHOLD = 15;

export async function startGoldenQa(key: string): Promise<GoldenQa> {
  const documents = new Map<string, string>();
  const index = new Bm25Field();
  const running = await listen((req, res) => {
    bodyOf(req).then((body) => {
      if (req.headers["x-kb-key"] !== key) return sendJson(res, 401, { error: "unauthorized" });
      if (req.method === "POST" && req.url === "/api/kb/ingest") {
        const { title, content } = JSON.parse(body) as { title?: string; content?: string };
        if (!title || typeof content !== "string") return sendJson(res, 400, { error: "title and content are required" });
        documents.set(title, content);
        index.set(title, `${title} ${content}`);
        return sendJson(res, 200, { ok: true, documents: documents.size });
      }
      if (req.method === "POST" && req.url === "/api/kb/ask") {
        const { question } = JSON.parse(body) as { question: string };
        const ranked = [...index.scores(question)].sort((a, b) => b[1] - a[1]);
        const used = ranked.filter(([, score]) => score >= ANSWER_THRESHOLD).slice(0, 2);
        let answer = "The documents do not contain an answer to this question.";
        if (used.length > 0) {
          const asked = new Set(words(question));
          const sentences = documents.get(used[0]![0])!.split(/(?<=[.!?])\s+/);
          const overlap = (s: string) => words(s).filter((w) => asked.has(w)).length;
          answer = sentences.reduce((best, s) => (overlap(s) > overlap(best) ? s : best), sentences[0]!).trim();
        }
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "x-knowlex-docs": used.map(([title]) => title).join(",") });
        // Streamed: the client reads a chunked body whole.
        for (const piece of answer.match(/.{1,16}/gs) ?? []) res.write(piece);
        return res.end();
      }
      return sendJson(res, 404, { error: "not found" });
    });
  });
  return { ...running, documents };
}
