/**
 * What grading knows about a language: its function words (not content: dropped from the terms a
 * text is graded on) and its stemmer (light inflection: `codes` and `code`, `giorni` and `giorno`
 * share a stem). Grading's own lists and its own choice of stemmer, Snowball's (from
 * @orama/stemmers, pinned in the root package.json): the engine's analyzer may change its stemming
 * or its query stop words without changing a grade.
 *
 * Function words are articles, pronouns, auxiliaries, prepositions, conjunctions and question
 * words; the lists are short, so words that carry meaning in a claim (`once`, `only`, `each`) count.
 * Languages without a list or a stemmer are graded on their words as written (grading form).
 */
import { stemmer as dutch } from "@orama/stemmers/dutch";
import { stemmer as english } from "@orama/stemmers/english";
import { stemmer as french } from "@orama/stemmers/french";
import { stemmer as german } from "@orama/stemmers/german";
import { stemmer as italian } from "@orama/stemmers/italian";
import { stemmer as portuguese } from "@orama/stemmers/portuguese";
import { stemmer as spanish } from "@orama/stemmers/spanish";

interface GradingLanguage {
  functionWords: ReadonlySet<string>;
  stem: (word: string) => string;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(" "));

const LANGUAGES: Readonly<Record<string, GradingLanguage>> = {
  en: {
    stem: english,
    functionWords: words(
      "a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to too us was we were what when where which who why will with would you your",
    ),
  },
  de: {
    stem: german,
    functionWords: words(
      "aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dies diese diesem diesen dieser doch du durch ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kann kein keine man mich mir mit muss nach nicht noch nur ob oder sich sie sind so über um und uns von vor war was wie wir wird wo zu zum zur",
    ),
  },
  fr: {
    stem: french,
    functionWords: words(
      "c d j l m n qu s t à au aux avec ce ces cette comment dans de des du elle en est et il ils je la le les leur lui ma mais me mes moi mon ne nos notre nous on ou où par pas pour qu que quel quelle qui sa se ses son sont sur ta te toi ton tu un une vos votre vous y",
    ),
  },
  it: {
    stem: italian,
    functionWords: words(
      "a agli ai al all alla alle allo anche che chi ci come con d da dal dall dalla dei del dell della delle dello di e è gli ha hanno il in io l la le lei lo loro lui ma mi mio ne nel nell nella noi non o per più quale quando questa questo se si sono su sua sul sull sulla suo ti tu un una uno vi voi",
    ),
  },
  es: {
    stem: spanish,
    functionWords: words(
      "a al como con cual de del el ella en es esta este la las le lo los me mi no o para pero por que se si su sus te tu un una y",
    ),
  },
  nl: {
    stem: dutch,
    functionWords: words("aan als bij dat de die dit een en er het hoe ik in is je met naar niet of op te van voor wat we wij zijn"),
  },
  pt: {
    stem: portuguese,
    functionWords: words("a ao as como com da das de do dos e é em isso na no nos o os para por que se sua seu um uma"),
  },
};

/** The languages grading has function words and a stemmer for. */
export const GRADED_LANGUAGES: readonly string[] = Object.keys(LANGUAGES);

/** The base language of a tag (`de-CH` → `de`), or undefined. */
export function baseLanguage(tag: string | null | undefined): string | undefined {
  return tag ? tag.toLowerCase().split(/[-_]/)[0] : undefined;
}

const EVERY_FUNCTION_WORD: ReadonlySet<string> = new Set(Object.values(LANGUAGES).flatMap((l) => [...l.functionWords]));

/** Whether `word` (case-folded, diacritics kept) is a function word of `language`; of any language grading knows when unknown. */
export function isFunctionWord(word: string, language: string | undefined): boolean {
  if (language === undefined) return EVERY_FUNCTION_WORD.has(word);
  return (LANGUAGES[language]?.functionWords ?? EVERY_FUNCTION_WORD).has(word);
}

const stems = new Map<string, Map<string, string>>();
const MAX_CACHED_STEMS = 100_000;

/**
 * The Snowball stem of `word` (case-folded, diacritics kept) in `language`; the word itself when
 * the language has no stemmer, the word is shorter than three letters or holds a digit.
 */
export function stemOf(word: string, language: string | undefined): string {
  const stem = language === undefined ? undefined : LANGUAGES[language]?.stem;
  if (stem === undefined || word.length < 3 || /\p{N}/u.test(word)) return word;
  let cache = stems.get(language!);
  if (cache === undefined) stems.set(language!, (cache = new Map()));
  let out = cache.get(word);
  if (out === undefined) {
    out = stem(word) || word;
    if (cache.size >= MAX_CACHED_STEMS) cache.clear();
    cache.set(word, out);
  }
  return out;
}

/**
 * The language a text is most likely in, of `candidates` (first = the default): the one whose
 * function words make up most of its words; a tie, or no function word at all, gives the first.
 */
export function likeliestLanguage(words: readonly string[], candidates: readonly string[]): string | undefined {
  let best = candidates[0];
  let bestHits = 0;
  for (const language of new Set(candidates)) {
    const list = LANGUAGES[language]?.functionWords;
    if (!list) continue;
    let hits = 0;
    for (const w of words) if (list.has(w)) hits++;
    if (hits > bestHits) {
      best = language;
      bestHits = hits;
    }
  }
  return best;
}
