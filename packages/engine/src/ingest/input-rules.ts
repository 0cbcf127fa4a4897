/**
 * Rules for what a document brings into the index as a name: its language tag and its id. Each
 * returns the problem in words (naming the rule), or null; every reader of documents calls them
 * (front matter, JSONL corpus records, documents given as data, query files), so a value is
 * refused the same way wherever it comes from, and never stored changed.
 */

/**
 * A BCP 47 language tag's shape (RFC 5646 §2.1, "well-formed"; case-insensitive):
 *
 *   language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse]
 *
 * language: 2–3 letters (with up to three 3-letter extended subtags), 4 letters, or 5–8 letters;
 * script: 4 letters; region: 2 letters or 3 digits; variant: 5–8 letters/digits, or a digit and
 * three letters/digits; extension: a singleton other than x and 2–8 letters/digits subtags;
 * private use: x and 1–8 letters/digits subtags (also on its own). Whether a subtag is registered
 * (IANA) is not checked: `zz` is well-formed, `zz-ZZ-@@` is not.
 */
const LANGUAGE = "(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})";
const PRIVATE_USE = "x(?:-[a-z0-9]{1,8})+";
const LANGTAG = new RegExp(
  `^(?:${LANGUAGE}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*` +
    `(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*(?:-${PRIVATE_USE})?|${PRIVATE_USE})$`,
  "i",
);
/** RFC 5646's grandfathered tags (§2.2.8), well-formed by being listed. */
const GRANDFATHERED = new Set(
  (
    "en-gb-oed i-ami i-bnn i-default i-enochian i-hak i-klingon i-lux i-mingo i-navajo i-pwn i-tao i-tay i-tsu " +
    "sgn-be-fr sgn-be-nl sgn-ch-de art-lojban cel-gaulish no-bok no-nyn zh-guoyu zh-hakka zh-min zh-min-nan zh-xiang"
  ).split(" "),
);

/** At most this many characters of a refused value are quoted. */
const SHOWN = 80;

/** A value as a message quotes it: JSON-escaped (a lone surrogate shows as `\udc00`), cut at SHOWN characters. */
export function shownValue(value: string): string {
  const cut = value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value;
  return JSON.stringify(cut);
}

/** Why `tag` is not a language tag, naming the rule; null when it is one. */
export function languageTagProblem(tag: string): string | null {
  if (LANGTAG.test(tag) || GRANDFATHERED.has(tag.toLowerCase())) return null;
  return `${shownValue(tag)} is not a BCP 47 language tag (RFC 5646 §2.1: language[-script][-region][-variant]…, letters, digits and hyphens, e.g. en, de-CH, zh-Hant, pt-BR)`;
}

/**
 * Why `id` cannot be a document or query id, naming the rule; null when it can. An id is kept
 * exactly as given, so it must be text that survives storage: a string with a lone UTF-16
 * surrogate (`"\udc00x"` in JSON) has no UTF-8 form and would come back changed (`"\ufffdx"`).
 */
export function idProblem(id: string): string | null {
  const lone = /[\uD800-\uDFFF]/u.exec(id);
  if (lone === null) return null;
  const unit = lone[0].charCodeAt(0).toString(16).toUpperCase();
  return `${shownValue(id)} holds a lone surrogate (U+${unit} at character ${lone.index}), which is not Unicode text; ids are kept exactly as given, and this one would not survive storage`;
}
