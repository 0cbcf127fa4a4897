/**
 * Snowball stemmers per language (from @orama/stemmers, ports of the Snowball algorithms).
 * Stemmers expect lower-case input with diacritics intact; callers fold diacritics afterwards.
 * Results are memoized: a corpus repeats its vocabulary, and stemming dominates analysis time.
 */
import { stemmer as danish } from "@orama/stemmers/danish";
import { stemmer as dutch } from "@orama/stemmers/dutch";
import { stemmer as english } from "@orama/stemmers/english";
import { stemmer as finnish } from "@orama/stemmers/finnish";
import { stemmer as french } from "@orama/stemmers/french";
import { stemmer as german } from "@orama/stemmers/german";
import { stemmer as italian } from "@orama/stemmers/italian";
import { stemmer as norwegian } from "@orama/stemmers/norwegian";
import { stemmer as portuguese } from "@orama/stemmers/portuguese";
import { stemmer as spanish } from "@orama/stemmers/spanish";
import { stemmer as swedish } from "@orama/stemmers/swedish";

type Stem = (word: string) => string;

const stemmers: Record<string, Stem> = {
  da: danish,
  de: german,
  en: english,
  es: spanish,
  fi: finnish,
  fr: french,
  it: italian,
  nl: dutch,
  no: norwegian,
  pt: portuguese,
  sv: swedish,
};

/** Languages that have a stemmer. */
export const STEMMABLE_LANGUAGES: readonly string[] = Object.keys(stemmers).sort();

const caches = new Map<string, Map<string, string>>();
const MAX_CACHE = 200_000;

/**
 * Stems `word` (lower case) for `language`; returns the word unchanged when the language has no
 * stemmer, is not enabled, or the word holds digits (identifiers are never stemmed).
 */
export function stem(word: string, language: string | undefined): string {
  if (language === undefined) return word;
  const fn = stemmers[language];
  if (fn === undefined || word.length < 3 || /\d/.test(word)) return word;
  let cache = caches.get(language);
  if (cache === undefined) {
    cache = new Map();
    caches.set(language, cache);
  }
  let out = cache.get(word);
  if (out === undefined) {
    out = fn(word);
    if (out.length === 0) out = word;
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(word, out);
  }
  return out;
}
