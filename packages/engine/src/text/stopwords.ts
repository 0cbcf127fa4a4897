/**
 * Function words per language, used only to trim *queries* (documents keep every token so phrase
 * matching stays exact). Lists are short on purpose: articles, pronouns, auxiliaries,
 * prepositions and question words — the words whose BM25 weight is noise. Language detection
 * counts them as evidence (text/language.ts), and the offline embedder skips them
 * (embed/hashed-ngram.ts): editing a list changes that embedder's vectors under the same id, so
 * further function words go into `moreFunctionWords` below.
 */
const lists: Record<string, string> = {
  en: "a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to too us was we were what when where which who why will with would you your",
  de: "aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dies diese diesem diesen dieser doch du durch ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kann kein keine man mich mir mit muss nach nicht noch nur ob oder sich sie sind so über um und uns von vor war was wie wir wird wo zu zum zur",
  fr: "c d j l m n qu s t à au aux avec ce ces cette comment dans de des du elle en est et il ils je la le les leur lui ma mais me mes moi mon ne nos notre nous on ou où par pas pour qu que quel quelle qui sa se ses son sont sur ta te toi ton tu un une vos votre vous y",
  it: "all d dall dell l nell sull un a al alla alle allo ai agli anche che chi ci come con da dal dalla dei del della delle dello di e è gli ha hanno il in io la le lei lo loro lui ma mi mio ne nel nella noi non o per più quale quando questa questo se si sono su sua suo sul sulla ti tu un una uno vi voi",
  es: "a al como con cual de del el ella en es esta este la las le lo los me mi no o para pero por que se si su sus te tu un una y",
  nl: "aan als bij dat de die dit een en er het hoe ik in is je met naar niet of op te van voor wat we wij zijn",
  pt: "a ao as como com da das de do dos e é em isso na no nos o os para por que se sua seu um uma",
};

/**
 * Function words beyond the trimming lists: everyday Spanish function words (Spanish shares de,
 * la, que, en, un, se, y with French, Italian and Portuguese, and with only those, runs of plainly
 * Spanish prose tied with French and came out unknown: packages/engine/test/language-paragraphs.test.ts)
 * and the possessive determiners the German and Italian lists lack (English has my, our, your,
 * their). Only language detection counts them; queries keep them and the offline embedder reads
 * them, so neither retrieval nor any vector changes. No English homographs.
 */
const moreFunctionWords: Record<string, string> = {
  es: "algo algunos cuando desde donde ellos entre era esa ese eso estaba estas esto estos está están fue ha hasta hay les mientras muy más nada ni nos nosotros nuestra nuestro otra otro otros porque qué ser sin sobre también todo todos tus uno unos ya",
  de: "dein deine deinem deinen deiner deines euer eure eurem euren eurer eures ihre ihrem ihren ihrer ihres mein meine meinem meinen meiner meines sein seine seinem seinen seiner seines unser unsere unserem unseren unserer unseres",
  it: "mia mie miei nostra nostre nostri nostro tua tue tuo tuoi vostra vostre vostri vostro",
};

const words = (list: string | undefined): string[] => (list ? list.split(" ") : []);
const sets = new Map<string, ReadonlySet<string>>(Object.entries(lists).map(([lang, list]) => [lang, new Set(words(list))]));
const functionSets = new Map<string, ReadonlySet<string>>(
  Object.entries(lists).map(([lang, list]) => [lang, new Set([...words(list), ...words(moreFunctionWords[lang])])]),
);

const union: ReadonlySet<string> = new Set([...sets.values()].flatMap((s) => [...s]));

/** Stop words of one language, or of every language we know when the language is unknown. */
export function stopwordsFor(language: string | undefined): ReadonlySet<string> {
  if (language === undefined) return union;
  return sets.get(language) ?? union;
}

/** Languages with a stop-word list, for language detection. */
export function stopwordLanguages(): string[] {
  return [...sets.keys()];
}

/** Whether `word` (lower case) is a function word of `language`: language detection's evidence. */
export function isFunctionWord(language: string, word: string): boolean {
  return functionSets.get(language)?.has(word) ?? false;
}
