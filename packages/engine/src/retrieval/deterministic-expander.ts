/**
 * The offline query expander, used by the thorough tier until (or unless) a model is configured.
 * It rewrites the query with what the index itself can tell:
 *
 * - spelling: a word none of whose stems is in the index vocabulary is replaced by the most frequent
 *   index term within 1 edit (2 for words of 8+ letters), e.g. `subscribtion` → `subscript`;
 * - compounds: such a word that splits into two indexed words (German-style, with the linking
 *   letters -s-, -es-, -n-, -en-) is also rewritten as the two words, e.g.
 *   `Kündigungsfrist` → `Kündigung frist`, when the query is German or Dutch (or of unknown
 *   language): elsewhere a split is a coincidence (`permettre` → `permet` + `tre`);
 * - identifiers: `DEC-0054`-style compounds also appear joined (`DEC0054`) and spaced (`DEC 0054`);
 * - keywords: for vectors, the query without function words.
 *
 * Words inside double quotes are the user's exact wording and are never rewritten.
 * The original query is always the first lexical and the first vector query. It never invents
 * words that are not in the index and never translates; that is what a model expander is for.
 */
import {
  analyzeQuery,
  CHUNK_RE,
  CONNECTOR_RE,
  matchingTerms,
  DEFAULT_ANALYZER,
  MAX_TOKEN_LENGTH,
  type AnalyzerConfig,
} from "../text/analyze.js";
import { detectLanguage } from "../text/language.js";
import { stopwordsFor } from "../text/stopwords.js";
import type { ExpansionResult, QueryExpander, Vocabulary } from "../types.js";

// Linked forms first: "Kündigungsfrist" is "Kündigung" + -s- + "Frist", not "Kündigungs" + "Frist".
const LINKS = ["s", "es", "en", "n", ""];
/**
 * Languages that write compounds as one word. A French, Italian or English word that splits into
 * two index terms is a coincidence (`permettre` → `permet` + `tre`), not a compound.
 */
const COMPOUNDING_LANGUAGES: ReadonlySet<string> = new Set(["de", "nl"]);
const MAX_QUERIES = 8;

export class DeterministicExpander implements QueryExpander {
  readonly id = "deterministic-v1";

  constructor(private readonly analyzer: AnalyzerConfig = DEFAULT_ANALYZER) {}

  async expand(query: string, { vocabulary }: { vocabulary: Vocabulary }): Promise<ExpansionResult> {
    return { expansion: this.expandSync(query, vocabulary), expander: this.id };
  }

  expandSync(query: string, vocabulary: Vocabulary): ExpansionResult["expansion"] {
    const language = detectLanguage(query);
    const stops = stopwordsFor(language);
    // Unknown language: a compound may be German or Dutch.
    const compounding = language === undefined || COMPOUNDING_LANGUAGES.has(language);
    const knownWords = new Map<string, boolean>();
    const known = (word: string): boolean => {
      let found = knownWords.get(word);
      if (found === undefined) {
        found = matchingTerms(analyzeQuery(word, { languages: vocabulary.languages, config: this.analyzer })).some((t) =>
          t.alternatives.some((alt) => alt.every((tok) => vocabulary.documentFrequency(tok) > 0)),
        );
        knownWords.set(word, found);
      }
      return found;
    };

    const corrected: string[] = [];
    const decompounded: string[] = [];
    const joined: string[] = [];
    const spaced: string[] = [];
    const keywords: string[] = [];
    let last = 0;
    const gaps: string[] = [];
    const words: string[] = [];
    const quoted = quotedSpans(query);
    const inQuotes: boolean[] = [];
    let span = 0;
    for (const m of query.matchAll(CHUNK_RE)) {
      gaps.push(query.slice(last, m.index));
      words.push(m[0]);
      // Spans and words both come in reading order: one walk, not a search per word.
      while (span < quoted.length && quoted[span]![1] <= m.index) span++;
      inQuotes.push(span < quoted.length && m.index >= quoted[span]![0]);
      last = m.index + m[0].length;
    }
    const tail = query.slice(last);
    const rewrites = new Map<string, { split: string; fix: string }>();
    for (const [i, word] of words.entries()) {
      const lower = word.toLowerCase();
      // A quoted phrase is the user's exact wording: kept as typed in every variant.
      if (inQuotes[i]) {
        for (const list of [corrected, decompounded, joined, spaced, keywords]) list.push(word);
        continue;
      }
      const isIdentifier = /[\p{L}][\p{N}]|[\p{N}][\p{L}]/u.test(word) || CONNECTOR_RE.test(word);
      let fix = word;
      let split = word;
      if (isIdentifier) {
        joined.push(word.split(CONNECTOR_RE).join(""));
        spaced.push(word.split(CONNECTOR_RE).join(" "));
      } else if (word.length <= MAX_TOKEN_LENGTH && /^\p{L}{4,}$/u.test(word) && !stops.has(lower) && !known(word)) {
        // A word longer than any index term is no misspelling or compound of index terms, and
        // splitting it analyzes every split: quadratic (a 10,000-letter word took up to 69 s).
        // A long query repeats its words: each distinct word is rewritten once.
        let rewrite = rewrites.get(word);
        if (rewrite === undefined) {
          const parts = (compounding && this.decompound(lower, known)) || word;
          rewrite = { split: parts, fix: parts === word ? (this.correct(lower, vocabulary) ?? word) : word };
          rewrites.set(word, rewrite);
        }
        ({ split, fix } = rewrite);
      }
      corrected.push(fix);
      decompounded.push(split);
      if (!isIdentifier) {
        joined.push(word);
        spaced.push(word);
      }
      if (!stops.has(lower)) keywords.push(fix === word ? split : fix);
    }
    const rebuild = (replacement: string[]): string => words.map((_, i) => gaps[i] + replacement[i]!).join("") + tail;
    const lexicalQueries = unique([query, rebuild(corrected), rebuild(decompounded), rebuild(joined), rebuild(spaced)]).slice(
      0,
      MAX_QUERIES,
    );
    const vectorQueries = unique([query, rebuild(corrected), keywords.join(" ")])
      .filter((q) => q.trim() !== "")
      .slice(0, MAX_QUERIES);
    return language ? { lexicalQueries, vectorQueries, language } : { lexicalQueries, vectorQueries };
  }

  private decompound(word: string, known: (w: string) => boolean): string | undefined {
    let best: [string, number] | undefined;
    for (let i = 3; i <= word.length - 3; i++) {
      const head = word.slice(0, i);
      for (const link of LINKS) {
        if (!head.endsWith(link) || head.length - link.length < 3) continue;
        const left = head.slice(0, head.length - link.length);
        const right = word.slice(i);
        if (known(left) && known(right)) {
          const balance = Math.min(left.length, right.length);
          if (!best || balance > best[1]) best = [`${left} ${right}`, balance];
        }
      }
    }
    return best?.[0];
  }

  /** Tries the word's folded form, then its stems in each language; the first near index term wins. */
  private correct(word: string, vocabulary: Vocabulary): string | undefined {
    const maxEdits = word.length >= 8 ? 2 : 1;
    const forms = analyzeQuery(word, { languages: vocabulary.languages, config: this.analyzer }).terms[0]?.alternatives ?? [];
    for (const form of forms) {
      if (form.length !== 1) continue;
      const hit = vocabulary.similarTerms(form[0]!, maxEdits).find((t) => /^\p{L}+$/u.test(t));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}

/** [start, end) offsets of text between straight or typographic double quotes. */
function quotedSpans(query: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const re = /"([^"]+)"|“([^”]+)”|„([^“”]+)[“”]|«([^»]+)»/gu;
  for (const m of query.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
