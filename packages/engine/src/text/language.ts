/**
 * Language guessing for documents without a language folder or front matter, and for queries.
 * Script decides CJK (Hangul → ko, any kana → ja, Han only → zh); Latin-script text is scored by
 * the share of its words that are function words of each language, with letters that only one
 * language uses as tie-breakers. Returns undefined when the evidence is too thin to say.
 */
import { isFunctionWord, stopwordLanguages } from "./stopwords.js";

const HANGUL = /\p{Script=Hangul}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;

const LETTER_HINTS: Array<[RegExp, string, number]> = [
  [/[äöüß]/, "de", 2],
  [/[çœ]|[éèêë]\p{L}/u, "fr", 1],
  [/[àèìòù]\b/, "it", 1],
  [/[ñ¿¡]/, "es", 2],
  [/[ãõ]/, "pt", 2],
];

export function detectLanguage(text: string): string | undefined {
  const sample = text.length > 20_000 ? text.slice(0, 20_000) : text;
  let hangul = 0;
  let kana = 0;
  let han = 0;
  for (const ch of sample) {
    if (HANGUL.test(ch)) hangul++;
    else if (KANA.test(ch)) kana++;
    else if (HAN.test(ch)) han++;
  }
  const cjk = hangul + kana + han;
  if (cjk > 0 && cjk * 3 >= countLetters(sample)) {
    if (hangul >= kana && hangul >= han) return "ko";
    if (kana > 0) return "ja";
    return "zh";
  }

  const words = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return undefined;
  const scores = new Map<string, number>();
  for (const lang of stopwordLanguages()) {
    let hits = 0;
    for (const w of words) if (isFunctionWord(lang, w)) hits++;
    scores.set(lang, hits);
  }
  const lower = sample.toLowerCase();
  for (const [re, lang, weight] of LETTER_HINTS) {
    if (re.test(lower)) scores.set(lang, (scores.get(lang) ?? 0) + weight);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const [best, second] = ranked;
  if (best === undefined || best[1] === 0) return undefined;
  // Require a margin: one shared function word ("in", "a") proves nothing.
  if (second !== undefined && best[1] - second[1] < Math.max(1, 0.1 * best[1])) return undefined;
  return best[0];
}

function countLetters(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}
