/**
 * A stand-in for a trace-graded assistant shaped like the one seed 004 describes: each surface is
 * an endpoint (`POST /api/assist/<surface>/turn {message}`), and a turn answers with its reply and
 * its own trace — tool executions (tool, args, result, error, approval, ms, round), citations
 * matched to what a tool returned (`match: "surfaced"`) or not (`"recalled"`), a status
 * (`done`, `declined`, `awaiting_approval`), a proposal and token counts. Nothing of it is the
 * target contract's shape: an adapter maps it (examples/targets/turn-trace.adapter.json).
 *
 * Its tools run over the documents of a folder (ids: paths below it): `list_docs`, `search_docs`
 * (BM25), `open_doc` and, on the `deskbot` surface, `propose_edit` (needs approval). A where-question
 * lists the documents and names the one whose title shares most words with it; a request to
 * correct or fix an article searches, opens the best match and proposes an edit; any other question
 * searches, opens the best match and answers its sentence that shares most words with the question,
 * or declines when nothing matches. One planted fault: an answer from the data-retention policy
 * also cites the year-end guide from memory (a recalled citation), which the graders must catch.
 * For tests only.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { Bm25Field, bodyOf, listen, type Running, sendJson, words } from "./serve.js";

const SURFACES: Record<string, string[]> = {
  deskbot: ["list_docs", "search_docs", "open_doc", "propose_edit"],
  docs: ["list_docs", "search_docs", "open_doc"],
};

/** Below this BM25 score the stand-in declines. */
const ANSWER_THRESHOLD = 2.5;
/** Words of a where-question that do not name its topic. */
const WHERE_WORDS = new Set(["where", "is", "the", "article", "about", "can", "i", "find", "a", "an", "page", "on"]);

interface Execution {
  tool: string;
  args: unknown;
  result: unknown;
  error: string | null;
  approval: boolean;
  ms: number;
  round: number;
}

function readFolder(folder: string): Map<string, { title: string; text: string }> {
  const documents = new Map<string, { title: string; text: string }>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) {
        const text = readFileSync(path, "utf8");
        const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? name;
        documents.set(relative(folder, path).split("\\").join("/"), { title, text });
      }
    }
  };
  walk(folder);
  return documents;
}

export async function startAssistant(corpus: string): Promise<Running> {
  const documents = readFolder(corpus);
  const index = new Bm25Field();
  for (const [id, d] of documents) index.set(id, `${d.title} ${d.text}`);
  const search = (query: string) =>
    [...index.scores(query)]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3)
      .map(([path, score]) => ({ path, title: documents.get(path)!.title, score: Math.round(score * 1000) / 1000 }));

  const turn = (surface: string, message: string) => {
    const tools = SURFACES[surface]!;
    const executions: Execution[] = [];
    const run = (tool: string, args: unknown, result: unknown, approval = false) => {
      if (!tools.includes(tool)) throw new Error(`the ${surface} surface has no tool ${tool}`);
      executions.push({ tool, args, result, error: null, approval, ms: 1, round: executions.length + 1 });
    };
    const asked = new Set(words(message));
    let reply: string;
    let status = "done";
    const citations: Array<{ path: string; quote?: string; match: string }> = [];
    let proposal: { tool: string; args: unknown; why: string } | null = null;
    if (/\b(correct|fix)\b/i.test(message) && tools.includes("propose_edit")) {
      const hits = search(message);
      run("search_docs", { q: message }, { hits });
      const best = hits[0];
      if (best === undefined) {
        status = "declined";
        reply = "I found no article to edit.";
      } else {
        run("open_doc", { path: best.path }, { path: best.path, body: documents.get(best.path)!.text });
        const args = { path: best.path, note: message };
        run("propose_edit", args, null, true);
        proposal = { tool: "propose_edit", args, why: `Edit "${best.title}" as asked` };
        status = "awaiting_approval";
        reply = `I have proposed an edit to "${best.title}"; a person must approve it.`;
      }
    } else if (/^where\b/i.test(message) && tools.includes("list_docs")) {
      const listed = [...documents].map(([path, d]) => ({ path, title: d.title }));
      run("list_docs", {}, { docs: listed });
      const topic = [...asked].filter((w) => !WHERE_WORDS.has(w));
      const overlap = (title: string) => words(title).filter((w) => topic.some((t) => t.startsWith(w.slice(0, 5)))).length;
      const best = listed.reduce((a, b) => (overlap(b.title) > overlap(a.title) ? b : a), listed[0]!);
      reply = `See "${best.title}".`;
      citations.push({ path: best.path, match: "surfaced" });
    } else {
      const hits = search(message);
      run("search_docs", { q: message }, { hits });
      const best = hits[0];
      if (best === undefined || best.score < ANSWER_THRESHOLD) {
        status = "declined";
        reply = "I can only help with questions about Tallybook.";
      } else {
        const body = documents.get(best.path)!.text;
        run("open_doc", { path: best.path }, { path: best.path, body });
        const sentences = body
          .replace(/^# .*$/m, "")
          .split(/(?<=[.!?])\s+/)
          .map((s) => s.replace(/\s+/g, " ").trim())
          .filter((s) => s !== "");
        const score = (s: string) => words(s).filter((w) => asked.has(w)).length;
        reply = sentences.reduce((a, b) => (score(b) > score(a) ? b : a), sentences[0]!);
        citations.push({ path: best.path, quote: reply, match: "surfaced" });
        if (best.path === "policies/data-retention.md") citations.push({ path: "guides/closing-the-year.md", match: "recalled" });
      }
    }
    const tokensIn = words(message).length * 4 + executions.length * 50;
    const tokensOut = words(reply).length * 2;
    return {
      reply: { text: reply },
      trace: {
        status,
        executions,
        citations,
        ...(proposal ? { proposal } : {}),
        tokens: { in: tokensIn, out: tokensOut, total: tokensIn + tokensOut },
      },
    };
  };

  return listen((req, res) => {
    bodyOf(req).then((body) => {
      const route = /^\/api\/assist\/([^/]+)\/turn$/.exec(req.url ?? "");
      if (req.method !== "POST" || !route) return sendJson(res, 404, { error: "not found" });
      const surface = decodeURIComponent(route[1]!);
      if (!SURFACES[surface]) return sendJson(res, 404, { error: `no surface ${surface}` });
      const { message } = JSON.parse(body) as { message?: unknown };
      if (typeof message !== "string" || message.trim() === "") return sendJson(res, 400, { error: "message is required" });
      return sendJson(res, 200, turn(surface, message));
    });
  });
}
