/**
 * The offline agent policy, `offline/agent-policy-v1`: a deterministic driver of the same tool loop
 * a language model drives. It implements the AI SDK's `LanguageModelV3` — as the hashed n-gram
 * embedder implements an embedding model — so `turn` runs one loop, with the same tools, step cap,
 * token budget and approval stop, whichever drives it. Each call reads the state from the prompt
 * (the question, the tools offered, every call made so far and what it returned) and makes the
 * next move: one tool call, or the final text. It never reads a document's words as an
 * instruction: what it does is decided by the question alone.
 *
 * Its rules, in order (docs/evals.md, "The offline policy"):
 * 1. **A correction** (the question asks to correct or report an error in an article, in en, de,
 *    fr or it) on a surface with `file_correction`: search the question, read the best document,
 *    then propose `file_correction` for it (quoting its sentence that covers the request's topic
 *    best, when one covers a quarter of it) —
 *    the turn stops there, awaiting approval. Nothing found to correct: refuse.
 * 2. **A where-question** ("where can I find…", "which article…", "wo finde ich…", "où trouver…",
 *    "dove trovo…") on a surface with `catalog`: list the catalog, rank its entries by the
 *    question's topic (the where-phrase and words that name a document, "the article about",
 *    removed) against title and path (the heuristic reranker's
 *    coverage); name the best one or two covering at least half of the topic, each with its
 *    marker. None: search, and name the best result when its title and snippet cover a quarter of
 *    the topic; else refuse.
 * 3. **Anything else**: search the question (balanced, 5 results); read the best result; then,
 *    multi-hop, for each part of the question (its clauses: split at punctuation and at "and",
 *    "und", "et", "e", "or"…) the documents read cover less than half of, search that part and
 *    read its best result not read yet (at most 3 documents in all); answer extractively from the
 *    sections read (the extractive
 *    answerer: up to three sentences that cover the question, instructions to an assistant never
 *    used), each sentence followed by `[doc: <id>]`. When the best section covers less than 0.4 of
 *    the question (`ask`'s evidence threshold), or no sentence covers enough, refuse with the
 *    refusal sentence and no citation.
 * A tool it needs but the surface lacks is never called: without `search` it refuses; without
 * `read_document` it answers from the search snippets.
 *
 * Token usage is estimated, 4 characters a token, of every text, tool input and tool output of the
 * prompt (input) and of its reply (output): the turn reports it as `counted: "estimate"`.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import { EVIDENCE_THRESHOLD } from "../answer/answerer.js";
import { REFUSAL } from "../answer/citations.js";
import { checkEvidence } from "../answer/evidence.js";
import { extractiveAnswer, MIN_SENTENCE_COVERAGE } from "../answer/extractive.js";
import { splitSentences } from "../answer/sentences.js";
import type { EngineCore } from "../core.js";
import { baseLanguage } from "../ingest/language-path.js";
import type { HeuristicReranker, OfflineRerankOptions } from "../retrieval/heuristic-reranker.js";
import { rerankScoring } from "../store/index-state.js";
import { detectLanguage } from "../text/language.js";
import { type AgentToolName, type AskSource, OFFLINE_PROVIDER } from "../types.js";
import { docMarker } from "./citations.js";
import type { CatalogOutput, ReadOutput, SearchOutput } from "./tools.js";

export const OFFLINE_POLICY_MODEL = "agent-policy-v1";
/** What an offline turn's agent is called everywhere a person reads it: run header, suite names, score metadata. */
export const OFFLINE_POLICY_LABEL = "offline policy";

/** Documents read at most before answering. */
export const MAX_READS = 3;
/** Coverage of a part of the question by the documents read, from which it needs no search of its own. */
export const PART_COVERED = 0.5;
/** Share of a where-question's topic a catalog entry's title and path must cover to be named. */
export const WHERE_MIN_COVERAGE = 0.5;
/** Characters a token, for the estimate of usage. */
export const CHARS_PER_TOKEN = 4;

/** A call made earlier in the turn, as the prompt shows it. */
export interface PastCall {
  id: string;
  name: string;
  input: unknown;
  /** What it returned; undefined when it failed (`error`) or has no result. */
  output?: unknown;
  error?: string;
}

/** What the policy decides from: the question, the surface offered and the calls so far, in order. */
export interface PolicyState {
  question: string;
  offered: ReadonlySet<string>;
  calls: readonly PastCall[];
}

/** The next move: one tool call, or the final text; `rule` names why (the step's note). */
export type Decision =
  | { kind: "call"; tool: AgentToolName; input: Record<string, unknown>; rule: string }
  | { kind: "text"; text: string; rule: string };

/** What the policy scores text with: the engine's lexical scorer and the index's statistics. */
export interface PolicyScoring {
  scorer: HeuristicReranker;
  scoring: OfflineRerankOptions;
}

// A request to change an article — not a question that mentions correcting something.
const CORRECTION: readonly RegExp[] = [
  /\b(?:file|submit|send|report|propose|suggest)\s+(?:a\s+)?(?:correction|fix)\b/i,
  /\b(?:correct|fix|update)\s+(?:the|this|that)\s+(?:help\s+)?(?:article|page|document|doc)\b/i,
  /\b(?:korrigier|berichtig)\w*\b.{0,60}\b(?:Artikel|Seite|Dokument|Hilfeartikel)\b/i,
  /\bKorrektur\b.{0,40}\b(?:ein|einreichen|melden|vorschlagen)\b/i,
  /\b(?:corrige[rz]?|rectifie[rz]?)\b.{0,60}\b(?:article|page|document)\b/i,
  /\b(?:signale[rz]?|propose[rz]?|soumet(?:s|tez)?|envoye[rz]?)\b.{0,20}\b(?:une\s+)?(?:correction|erreur)\b/i,
  /\b(?:correggi|correggete|correggere|corregga|rettifica(?:re)?)\b.{0,60}\b(?:articolo|pagina|documento)\b/i,
  /\b(?:segnala(?:re)?|invia(?:re)?|proponi|proporre)\b.{0,20}\b(?:una\s+)?(?:correzione|errore)\b/i,
];

// "Where is it written?": the answer is a document, which the catalog names.
const WHERE: readonly RegExp[] = [
  /\bwhere\s+(?:can|do|should|would)\s+i\s+(?:find|read|look\s+up)\b/i,
  /\bwhere\s+(?:is|are)\b.{0,80}?\b(?:described|explained|documented|written)\b/i,
  /\b(?:which|what)\s+(?:help\s+)?(?:article|page|document)s?\b/i,
  /\bwo\s+(?:finde|lese|steht|stehen)\b/i,
  /\bin\s+welchem\s+(?:Hilfe)?(?:artikel|dokument)\b/i,
  /\bwelche[rsn]?\s+(?:Hilfe)?(?:artikel|seite|dokument)\b/i,
  /(?:^|\s)où\s+(?:trouver|puis-je\s+(?:trouver|lire)|se\s+trouve|est\s+(?:expliqué|décrit))/i,
  /\b(?:dans\s+)?quel(?:le)?s?\s+(?:article|page|document)s?\b/i,
  /\bdove\s+(?:trovo|posso\s+(?:trovare|leggere)|si\s+trova|leggo|è\s+(?:spiegato|descritto))/i,
  /\b(?:in\s+)?(?:quale|quali)\s+(?:articol[oi]|pagin[ae]|document[oi])\b/i,
];

export type Intent = "correction" | "where" | "answer";

/** What the question asks for, from its words alone. */
export function intentOf(question: string): Intent {
  if (CORRECTION.some((re) => re.test(question))) return "correction";
  if (WHERE.some((re) => re.test(question))) return "where";
  return "answer";
}

// Words that name a document rather than a topic ("the article about …"), removed from a request's topic.
const DOCUMENT_WORDS =
  /\b(?:the|a|an|help|article|articles|page|pages|document|documents|doc|docs|about|on|der|die|das|den|dem|einen?|Artikel|Hilfeartikel|Seite|Dokument|über|zum|zur|le|la|les|l'|un|une|article|page|document|sur|concernant|il|lo|gli|un|una|articolo|pagina|documento|su|sul|sulla|riguardo)\b/gi;

/** A request's topic: the question without its where- or correction-phrase and the words that name a document. */
export function topicOf(question: string, phrases: readonly RegExp[]): string {
  let topic = question;
  for (const re of phrases) topic = topic.replace(re, " ");
  topic = topic.replace(DOCUMENT_WORDS, " ").replace(/[?!.:;,]+/g, " ");
  return topic.replace(/\s+/g, " ").trim() || question;
}

const WHERE_ANSWER: Record<string, (title: string, docId: string) => string> = {
  en: (title, docId) => `You can find it in "${title}" (${docId}) ${docMarker(docId)}.`,
  de: (title, docId) => `Sie finden es im Artikel „${title}“ (${docId}) ${docMarker(docId)}.`,
  fr: (title, docId) => `Vous le trouverez dans l'article « ${title} » (${docId}) ${docMarker(docId)}.`,
  it: (title, docId) => `Lo trovi nell'articolo «${title}» (${docId}) ${docMarker(docId)}.`,
};

function whereAnswer(question: string, documents: ReadonlyArray<{ title: string; docId: string }>): string {
  const write = WHERE_ANSWER[detectLanguage(question) ?? "en"] ?? WHERE_ANSWER.en!;
  return documents.map((d) => write(d.title, d.docId)).join(" ");
}

const refuse = (rule: string): Decision => ({ kind: "text", text: REFUSAL, rule });

const succeeded = (calls: readonly PastCall[], tool: string): PastCall[] => calls.filter((c) => c.name === tool && c.output !== undefined);
const attempted = (calls: readonly PastCall[], tool: string): boolean => calls.some((c) => c.name === tool);
const lastOutput = <T>(calls: readonly PastCall[], tool: string): T | undefined => succeeded(calls, tool).at(-1)?.output as T | undefined;
const lang = (language: string | null | undefined): string | null => (language ? baseLanguage(language) : null);

/** The next move of the policy. Pure: the state and the scorer decide it. */
export function decide(state: PolicyState, scoring: PolicyScoring): Decision {
  const intent = intentOf(state.question);
  if (intent === "correction" && state.offered.has("file_correction")) return correct(state, scoring);
  if (intent === "where" && state.offered.has("catalog")) return where(state, scoring);
  return answer(state, scoring);
}

/** The search every path starts with: the question (or a where-question's topic), balanced, five results. */
const searchFor = (query: string, rule: string): Decision => ({
  kind: "call",
  tool: "search",
  input: { query, mode: "balanced", limit: 5 },
  rule,
});

function correct(state: PolicyState, ctx: PolicyScoring): Decision {
  if (!attempted(state.calls, "search")) {
    if (!state.offered.has("search")) return refuse("correction: no search on this surface to find the document");
    return searchFor(state.question, "correction: find the document to correct");
  }
  const target = lastOutput<SearchOutput>(state.calls, "search")?.results[0];
  if (!target) return refuse("correction: no document found to correct");
  const read = succeeded(state.calls, "read_document").find((c) => (c.output as ReadOutput).docId === target.docId);
  if (!read && state.offered.has("read_document") && !state.calls.some((c) => c.name === "read_document"))
    return { kind: "call", tool: "read_document", input: { docId: target.docId }, rule: "correction: read the document to quote it" };
  const quote = read ? bestSentence(topicOf(state.question, CORRECTION), read.output as ReadOutput, ctx) : undefined;
  return {
    kind: "call",
    tool: "file_correction",
    input: { docId: target.docId, correction: state.question, ...(quote ? { quote } : {}) },
    rule: "correction: propose it (needs approval)",
  };
}

/** The sentence of a document that covers a topic best, when one covers enough of it. */
function bestSentence(topic: string, doc: ReadOutput, { scorer, scoring }: PolicyScoring): string | undefined {
  const sentences = doc.sections.flatMap((s) => splitSentences(s.text));
  const features = scorer.score(
    topic,
    sentences.map((text) => ({ title: "", text, language: lang(doc.language) })),
    scoring,
  );
  let best = -1;
  features.forEach((f, i) => {
    if (f.coverage >= MIN_SENTENCE_COVERAGE && (best < 0 || f.score > features[best]!.score)) best = i;
  });
  return best >= 0 ? sentences[best] : undefined;
}

function where(state: PolicyState, ctx: PolicyScoring): Decision {
  if (!attempted(state.calls, "catalog")) return { kind: "call", tool: "catalog", input: {}, rule: "where-question: list the catalog" };
  const topic = topicOf(state.question, WHERE);
  const catalog = lastOutput<CatalogOutput>(state.calls, "catalog");
  if (catalog && catalog.documents.length > 0) {
    const features = ctx.scorer.score(
      topic,
      catalog.documents.map((d) => ({ title: d.title, text: d.docId.replace(/[/._-]+/g, " "), language: lang(d.language) })),
      ctx.scoring,
    );
    const named = catalog.documents
      .map((d, i) => ({ d, f: features[i]! }))
      .filter((x) => x.f.coverage >= WHERE_MIN_COVERAGE)
      .sort((a, b) => b.f.score - a.f.score || (a.d.docId < b.d.docId ? -1 : 1))
      .slice(0, 2);
    if (named.length > 0)
      return {
        kind: "text",
        text: whereAnswer(
          state.question,
          named.map((x) => x.d),
        ),
        rule: "where-question: named from the catalog",
      };
  }
  if (!attempted(state.calls, "search")) {
    if (!state.offered.has("search")) return refuse("where-question: no catalog entry covers the topic, and no search on this surface");
    return searchFor(topic, "where-question: no catalog entry covers the topic; search");
  }
  const top = lastOutput<SearchOutput>(state.calls, "search")?.results[0];
  if (top) {
    const [f] = ctx.scorer.score(topic, [{ title: top.title, text: top.snippet, language: lang(top.language) }], ctx.scoring);
    if (f!.coverage >= MIN_SENTENCE_COVERAGE)
      return { kind: "text", text: whereAnswer(state.question, [top]), rule: "where-question: named from search" };
  }
  return refuse("where-question: nothing found covers the topic");
}

function answer(state: PolicyState, ctx: PolicyScoring): Decision {
  if (!attempted(state.calls, "search")) {
    if (!state.offered.has("search")) return refuse("no search on this surface");
    return searchFor(state.question, "search the question");
  }
  const hits = (state.calls.find((c) => c.name === "search")?.output as SearchOutput | undefined)?.results ?? [];
  const reads = succeeded(state.calls, "read_document").map((c) => c.output as ReadOutput);
  if (state.offered.has("read_document")) {
    const next = nextRead(state, hits, reads, ctx);
    if (next) return next;
  }
  if (hits.length === 0 && reads.length === 0) return refuse("the search found nothing");
  const sources = reads.length > 0 ? sectionSources(reads) : snippetSources(hits);
  const evidence = checkEvidence(state.question, sources, ctx.scorer, ctx.scoring, EVIDENCE_THRESHOLD.extractive);
  if (!evidence.evidence.sufficient)
    return refuse(
      `refuse: the best source covers ${evidence.evidence.coverage.toFixed(2)} of the question (< ${EVIDENCE_THRESHOLD.extractive})`,
    );
  const extractive = extractiveAnswer(
    state.question,
    sources.map((s) => ({ ref: s.ref, title: s.title, text: s.text, language: lang(s.language) })),
    ctx.scorer,
    ctx.scoring,
  );
  if (extractive.answer === null) return refuse("refuse: no sentence covers enough of the question");
  const text = extractive.sentences.map((s) => `${s.sentence} ${docMarker(sources[s.ref - 1]!.docId)}`).join(" ");
  return { kind: "text", text, rule: `answer from ${reads.length > 0 ? `${reads.length} document(s) read` : "the search snippets"}` };
}

/** The question's parts: its clauses, split at punctuation and at "and", "und", "et", "e", "or"… */
export function questionParts(question: string): string[] {
  return question
    .split(/[,;:?!]+|\s(?:and|und|sowie|et|e|y|or|oder|ou|o)\s/i)
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/**
 * The next document to read, or none: first the question's best result; then, for each part of
 * the question the documents read so far cover less than half of (at most MAX_READS reads in
 * all), a search of that part and a read of its best result not read yet (multi-hop).
 */
function nextRead(
  state: PolicyState,
  hits: SearchOutput["results"],
  reads: readonly ReadOutput[],
  ctx: PolicyScoring,
): Decision | undefined {
  const tried = new Set(state.calls.filter((c) => c.name === "read_document").map((c) => (c.input as { docId?: unknown }).docId));
  const read = (docId: string, rule: string): Decision => ({ kind: "call", tool: "read_document", input: { docId }, rule });
  if (tried.size === 0) return hits[0] ? read(hits[0].docId, "read the best result") : undefined;
  if (tried.size >= MAX_READS) return undefined;
  const readText = reads.flatMap((r) => [r.title, ...r.sections.map((s) => `${s.heading}\n${s.text}`)]).join("\n");
  const language = lang(reads[0]?.language);
  const coverage = (part: string, text: string) => ctx.scorer.score(part, [{ title: "", text, language }], ctx.scoring)[0]!.coverage;
  const parts = questionParts(state.question);
  if (parts.length < 2) return undefined;
  for (const part of parts) {
    // A part with no content words (coverage of itself 0) is nothing to look up.
    if (coverage(part, part) === 0 || coverage(part, readText) >= PART_COVERED) continue;
    const at = state.calls.findIndex((c) => c.name === "search" && (c.input as { query?: unknown }).query === part);
    if (at < 0) {
      if (!state.offered.has("search")) continue;
      return searchFor(part, `multi-hop: search the part the documents read do not cover: ${part}`);
    }
    // One read per part's search: the call right after it.
    if (state.calls[at + 1]?.name === "read_document") continue;
    const best = ((state.calls[at]!.output as SearchOutput | undefined)?.results ?? []).find((h) => !tried.has(h.docId));
    if (best) return read(best.docId, `multi-hop: read the best result for: ${part}`);
  }
  return undefined;
}

/** Every section read, numbered as sources from 1. */
function sectionSources(reads: readonly ReadOutput[]): AskSource[] {
  return reads
    .flatMap((r) => r.sections.map((s) => ({ r, s })))
    .map(({ r, s }, i) => ({
      ref: i + 1,
      docId: r.docId,
      passageId: `${r.docId}#${i}`,
      title: r.title,
      heading: s.heading,
      text: s.text,
      language: r.language,
      score: 0,
    }));
}

/** The search results' snippets as sources, when the surface has no `read_document`. */
function snippetSources(hits: SearchOutput["results"]): AskSource[] {
  return hits.map((h, i) => ({
    ref: i + 1,
    docId: h.docId,
    passageId: h.docId,
    title: h.title,
    heading: "",
    text: h.snippet,
    language: h.language,
    score: h.score,
  }));
}

/** The question, the tools offered and the calls so far, read from a model call's prompt. */
export function readPrompt(options: LanguageModelV3CallOptions): PolicyState & { steps: number } {
  const calls: PastCall[] = [];
  const byId = new Map<string, PastCall>();
  let question = "";
  let steps = 0;
  for (const message of options.prompt) {
    if (message.role === "user" && question === "")
      question = message.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    if (message.role === "assistant") {
      steps++;
      for (const part of message.content) {
        if (part.type !== "tool-call") continue;
        const call: PastCall = { id: part.toolCallId, name: part.toolName, input: part.input };
        calls.push(call);
        byId.set(call.id, call);
      }
    }
    if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const call = byId.get(part.toolCallId);
        if (!call) continue;
        const { output } = part;
        if (output.type === "json") call.output = output.value;
        else if (output.type === "text") call.output = output.value;
        else call.error = output.type === "error-text" ? output.value : JSON.stringify("value" in output ? output.value : output.type);
      }
    }
  }
  const offered = new Set((options.tools ?? []).flatMap((t) => (t.type === "function" ? [t.name] : [])));
  return { question, offered, calls, steps };
}

/** Characters of a prompt's texts, tool inputs and tool outputs: what the estimate of its tokens counts. */
function promptChars(prompt: LanguageModelV3Prompt): number {
  let chars = 0;
  for (const message of prompt) {
    if (typeof message.content === "string") {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
      else if (part.type === "tool-call") chars += JSON.stringify(part.input ?? null).length;
      else if (part.type === "tool-result") chars += JSON.stringify(part.output).length;
    }
  }
  return chars;
}

const tokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/** The policy as a language model of the AI SDK, over one engine's index. */
export class OfflineAgentPolicy implements LanguageModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = OFFLINE_POLICY_MODEL;
  readonly supportedUrls = {};

  constructor(private readonly core: EngineCore) {}

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const state = readPrompt(options);
    const decision = decide(state, { scorer: this.core.lexicalScorer, scoring: rerankScoring(this.core.index.state()) });
    const content: LanguageModelV3Content[] = [{ type: "reasoning", text: decision.rule }];
    if (decision.kind === "call")
      content.push({
        type: "tool-call",
        toolCallId: `policy-${state.steps + 1}`,
        toolName: decision.tool,
        input: JSON.stringify(decision.input),
      });
    else content.push({ type: "text", text: decision.text });
    const output = decision.kind === "call" ? JSON.stringify(decision.input).length : decision.text.length;
    const input = tokens(promptChars(options.prompt));
    return {
      content,
      finishReason: { unified: decision.kind === "call" ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: tokens(output), text: tokens(output), reasoning: 0 },
      },
      warnings: [],
    };
  }

  doStream(): never {
    throw new Error("the offline agent policy answers with doGenerate only (the turn's loop never streams)");
  }
}
