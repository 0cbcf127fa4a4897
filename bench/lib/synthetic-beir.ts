/**
 * A synthetic BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv) of a given size,
 * for the dataset-scale benchmark (`pnpm bench:beir`, `pnpm bench:eval --dataset`), so that anyone
 * can reproduce it without downloading a collection. Deterministic: the same options give
 * byte-identical files.
 *
 * Words come from the engine benchmark's generated vocabulary (packages/engine/bench/corpus.ts:
 * en, de, fr, it with their own syllables, inflections and function words; Zipf-distributed
 * content words, compounds, identifiers). Documents are abstract-sized (a title and 3–8 sentences).
 * Each query has a topic of six words in one language, and graded judgments:
 * - grade 2: 1–3 documents about the topic (its words are 14 % of their tokens, two in the title);
 * - grade 1: 1–4 documents that touch it (5 % of their tokens, the rest about a topic of their own);
 * - grade 0: 2 documents judged non-relevant that mention one topic word once;
 * every other document is about a topic of its own. Queries are 2–4 of the topic's words (some
 * inflected), 30 % phrased as a question in their language.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildVocabulary, pick, randInt, type Rng, seededRandom, type Vocabulary } from "@hybrid-search/engine/synthetic-corpus";
import { UsageError } from "../../bin/lib/cli-args.js";

type Language = Vocabulary["languages"][number];

const FUNCTION_WORD_SHARE = 0.4;
const COMPOUND_SHARE = 0.015;
const IDENTIFIER_SHARE = 0.008;
const INFLECTION_SHARE = 0.2;
const TOPIC_WORDS = 6;
/** Share of a document's tokens drawn from the query topic it is judged for, by grade. */
const QUERY_TOPIC_SHARE: Record<0 | 1 | 2, number> = { 0: 0, 1: 0.05, 2: 0.14 };
/** Share drawn from its own topic (a grade-2 document's own topic is the query's). */
const OWN_TOPIC_SHARE = 0.12;

interface Topic {
  lang: Language;
  /** Ranks of the topic's lemmas in `lang.words`. */
  words: number[];
}

interface DocumentPlan {
  topic: Topic;
  /** The query topic this document is judged for, and how it mixes it in. */
  query?: { topic: Topic; grade: 0 | 1 | 2 };
}

function weighted(rng: Rng, weights: readonly number[]): number {
  let x = rng() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

function randomTopic(vocab: Vocabulary, rng: Rng, lang?: Language): Topic {
  const l =
    lang ??
    vocab.languages[
      weighted(
        rng,
        vocab.languages.map((x) => x.profile.share),
      )
    ]!;
  const words = new Set<number>();
  while (words.size < TOPIC_WORDS) words.add(randInt(rng, 100, Math.min(8000, l.words.length - 1)));
  return { lang: l, words: [...words] };
}

function inflect(lang: Language, lemma: string, rng: Rng): string {
  return rng() < INFLECTION_SHARE ? lemma + pick(rng, lang.profile.suffixes) : lemma;
}

/** One token of running text: function word, topic word (the query's, then the document's own), compound, identifier or Zipf content word. */
function token(vocab: Vocabulary, plan: DocumentPlan, rng: Rng): string {
  const { lang } = plan.topic;
  const queryShare = plan.query ? QUERY_TOPIC_SHARE[plan.query.grade] : 0;
  const ownShare = plan.query?.grade === 2 ? 0 : OWN_TOPIC_SHARE - queryShare;
  let x = rng();
  if ((x -= FUNCTION_WORD_SHARE) < 0) return lang.profile.functionWords[lang.functionZipf.sample(rng)]!;
  if ((x -= queryShare) < 0) return inflect(lang, lang.words[pick(rng, plan.query!.topic.words)]!, rng);
  if ((x -= ownShare) < 0) return inflect(lang, lang.words[pick(rng, plan.topic.words)]!, rng);
  if ((x -= COMPOUND_SHARE) < 0) return lang.compounds[lang.compoundZipf.sample(rng)]!;
  if ((x -= IDENTIFIER_SHARE) < 0) return vocab.identifiers[vocab.identifierZipf.sample(rng)]!;
  return inflect(lang, lang.words[lang.wordZipf.sample(rng)]!, rng);
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function sentence(vocab: Vocabulary, plan: DocumentPlan, rng: Rng): string {
  const words = Array.from({ length: randInt(rng, 8, 24) }, () => token(vocab, plan, rng));
  return `${capitalize(words.join(" "))}.`;
}

function writeDocument(vocab: Vocabulary, plan: DocumentPlan, rng: Rng): { title: string; text: string } {
  const { lang } = plan.topic;
  const titleWords = Array.from({ length: randInt(rng, 3, 8) }, () => token(vocab, plan, rng));
  // A document about the query's topic says so in its title.
  if (plan.query?.grade === 2)
    for (const rank of plan.query.topic.words.slice(0, 2)) titleWords.splice(randInt(rng, 0, titleWords.length), 0, lang.words[rank]!);
  const sentences = Array.from({ length: randInt(rng, 3, 8) }, () => sentence(vocab, plan, rng));
  // A judged non-relevant document mentions one of the query's words, once.
  if (plan.query?.grade === 0) {
    const i = randInt(rng, 0, sentences.length - 1);
    sentences[i] = `${sentences[i]!.slice(0, -1)} ${lang.words[pick(rng, plan.query.topic.words)]}.`;
  }
  return { title: capitalize(titleWords.join(" ")), text: sentences.join(" ") };
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function queryText(topic: Topic, rng: Rng): string {
  const ranks = shuffle([...topic.words], rng).slice(0, randInt(rng, 2, 4));
  const words = ranks.map((r) => inflect(topic.lang, topic.lang.words[r]!, rng)).join(" ");
  return rng() < 0.3 ? `${pick(rng, topic.lang.profile.questions)} ${words}` : words;
}

export interface SyntheticBeir {
  corpus: Array<{ _id: string; title: string; text: string }>;
  queries: Array<{ _id: string; text: string }>;
  qrels: Array<{ query: string; doc: string; grade: number }>;
}

export function generateBeir(documents: number, queries: number, seed: number): SyntheticBeir {
  const vocab = buildVocabulary(seed);
  const rng = seededRandom(seed ^ 0x5bd1e995);
  const plans: DocumentPlan[] = [];
  const judged: Array<{ query: number; plan: number; grade: number }> = [];
  for (let q = 0; q < queries; q++) {
    const topic = randomTopic(vocab, rng);
    const grades = [...Array<2>(randInt(rng, 1, 3)).fill(2), ...Array<1>(randInt(rng, 1, 4)).fill(1), 0, 0] as Array<0 | 1 | 2>;
    for (const grade of grades) {
      judged.push({ query: q, plan: plans.length, grade });
      // Documents that touch a topic are about one of their own too, in the same language.
      plans.push({ topic: grade === 2 ? topic : randomTopic(vocab, rng, topic.lang), query: { topic, grade } });
    }
  }
  if (plans.length > documents)
    throw new UsageError(`${queries} queries need at least ${plans.length} documents (their judged ones); ask for more --documents`);
  while (plans.length < documents) plans.push({ topic: randomTopic(vocab, rng) });
  // Judged documents spread over the corpus, not in a block at its start.
  const order = shuffle(
    plans.map((_, i) => i),
    rng,
  );
  const idOf = new Map<number, string>();
  for (const [position, plan] of order.entries()) idOf.set(plan, `doc-${String(position + 1).padStart(6, "0")}`);
  const corpus = order.map((plan) => ({ _id: idOf.get(plan)!, ...writeDocument(vocab, plans[plan]!, rng) }));
  const topics = new Map<number, Topic>();
  for (const j of judged) topics.set(j.query, plans[j.plan]!.query!.topic);
  return {
    corpus,
    queries: [...topics].map(([q, topic]) => ({ _id: `q-${String(q + 1).padStart(4, "0")}`, text: queryText(topic, rng) })),
    qrels: judged.map((j) => ({ query: `q-${String(j.query + 1).padStart(4, "0")}`, doc: idOf.get(j.plan)!, grade: j.grade })),
  };
}

export function writeBeir(folder: string, beir: SyntheticBeir): void {
  mkdirSync(join(folder, "qrels"), { recursive: true });
  writeFileSync(join(folder, "corpus.jsonl"), `${beir.corpus.map((d) => JSON.stringify(d)).join("\n")}\n`);
  writeFileSync(join(folder, "queries.jsonl"), `${beir.queries.map((q) => JSON.stringify(q)).join("\n")}\n`);
  writeFileSync(
    join(folder, "qrels", "test.tsv"),
    `query-id\tcorpus-id\tscore\n${beir.qrels.map((r) => `${r.query}\t${r.doc}\t${r.grade}`).join("\n")}\n`,
  );
}

/**
 * Answer cases beside a synthetic BEIR dataset (the suite's ask-cases.json), for the answer side of
 * the dataset-scale benchmark: one per query, for the first `count` queries, asking the query's
 * text. Each cites the query's first grade-2 document and expects a word of that document's title
 * (which states the topic); every 10th also expects that title's words as topics, every 10th (from
 * the 5th) forbids a phrase no document holds, and every 20th asks about identifiers that no
 * document holds and expects a refusal instead. Deterministic, like the dataset.
 */
export function generateAnswerCases(beir: SyntheticBeir, count: number): Array<Record<string, unknown>> {
  if (count > beir.queries.length)
    throw new UsageError(`${count} answer cases need as many queries (one per query); ask for at least --queries ${count}`);
  const titleOf = new Map(beir.corpus.map((d) => [d._id, d.title]));
  const firstRelevant = new Map<string, string>();
  for (const r of beir.qrels) if (r.grade === 2 && !firstRelevant.has(r.query)) firstRelevant.set(r.query, r.doc);
  return beir.queries.slice(0, count).map((q, i) => {
    const id = `a-${String(i + 1).padStart(4, "0")}`;
    if ((i + 1) % 20 === 0)
      return { id, question: `What does the release note say about ZX-${9000 + i} and QQ-${7000 + i}?`, expectedRefusal: true };
    const doc = firstRelevant.get(q._id)!;
    const words = titleOf
      .get(doc)!
      .split(" ")
      .filter((w) => /^[\p{L}]{4,}$/u.test(w));
    const fact = words.sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0] ?? titleOf.get(doc)!.split(" ")[0]!;
    return {
      id,
      question: q.text,
      expectedSubstrings: [fact],
      ...((i + 1) % 10 === 0 ? { expectedTopics: words.slice(0, 3) } : {}),
      ...((i + 1) % 10 === 5 ? { forbiddenSubstrings: ["this phrase is in no document"] } : {}),
      mustCite: [doc],
    };
  });
}

/** Writes the answer cases as ask-cases.json beside the BEIR files. */
export function writeAnswerCases(folder: string, cases: ReadonlyArray<Record<string, unknown>>): void {
  writeFileSync(join(folder, "ask-cases.json"), `${JSON.stringify({ version: 1, cases }, null, 1)}\n`);
}
