/**
 * The grading form of a text: the one form in which the answer graders compare an answer with a
 * fact, a topic or a source. It belongs to grading: the engine's analyzer (its stemming, its
 * compounds, its CJK strategy) is never consulted, so a change to what the engine indexes cannot
 * change what "the answer states the fact" means. docs/evals.md ("How answer text is matched")
 * states every rule; each has a test in normalize.test.ts.
 *
 * In order:
 * 1. **Invisible characters** go: soft hyphen, zero-width space, word joiner, byte-order mark.
 *    A no-break, narrow no-break, figure or thin space between digit groups
 *    (`1 000`, `1 000`) is a thousands separator and becomes `'` (rule 6 reads it).
 * 2. **Compatibility** (NFKC): full-width forms (`１０ ＧＢ` → `10 gb`), ligatures (`ﬁ` → `fi`),
 *    half-width katakana, compatibility ideographs, `ſ` → `s`. Superscripts and subscripts are
 *    kept as written, so `10²` does not become `102`.
 * 3. **Case folding**: lower case, then the full case foldings lower case lacks: `ß`/`ẞ` → `ss`,
 *    final `ς` → `σ`; and, a decision of ours rather than Unicode's, Turkish dotless `ı` → `i`
 *    (with rule 4, `İ`, `I`, `ı` and `i` are one letter). Cherokee folds to its lower case, where
 *    Unicode's folding goes to upper case: the same letters are equal either way.
 * 4. **Diacritics** (optional, on by default): NFD, then the combining marks on Latin and Greek
 *    letters are dropped (`é` → `e`, `ü` → `u`, `ά` → `α`), then NFC. Marks on other scripts are
 *    kept: kana voicing marks (`が` stays `が`), Cyrillic `й` and `ё`, Indic vowel signs, Hebrew and
 *    Arabic points. Latin letters that do not decompose: `æ` → `ae`, `œ` → `oe`, `ø` → `o`,
 *    `ł` → `l`, `đ` and `ð` → `d`, `þ` → `th`, `ħ` → `h`. German `ü` is `u`, not `ue`.
 * 5. **Punctuation**: apostrophes (`’ ‘ ‛ ʼ ´`) → `'`; every dash and the minus sign → `-`;
 *    quotation marks (`" “ ” „ « » ‹ › 「 」 『 』` and the backtick) → a space. Other punctuation
 *    is kept as written, so an e-mail address, a path or an identifier matches only as written.
 * 6. **Numbers**: a digit run with separators (`.` `,` `'`, and with `spaceGroups` a plain space)
 *    is read once, the same way in every language:
 *    - groups of three digits after a first group of one to three digits (not `0`), all with the
 *      same separator, are a whole number written without them: `1,000` = `1.000` = `1'000` =
 *      `1 000` = `1000`; a last separator that differs starts the decimals: `1,234.5` =
 *      `1.234,5` = `1234.5`;
 *    - otherwise one `.` or `,` is the decimal mark, written `.`: `49,50` = `49.50`, `0,125` =
 *      `0.125`; so a single separator before exactly three digits is read as grouping
 *      (`2,500` is 2500 even in German, where it could be 2.5: both texts read it alike);
 *    - anything else (dates `01.09.2024`, versions `3.2.1`, lists `1,2,3`) is kept as written.
 *    Decimals are compared as written (`49,50` ≠ `49.5`), leading zeros too (`08:00` ≠ `8:00`),
 *    and digits are never words (`10` ≠ `ten`).
 *    A number and a letter or symbol next to it are set one space apart, so the space there is
 *    optional: `5GB` = `5 GB`, `50%` = `50 %`, `€9.99` = `€ 9.99`.
 * 7. **White space**: every run of white space (line breaks, tabs, the ideographic space) is one
 *    space; none at either end.
 *
 * CJK text needs no rule of its own beyond rule 2: Han, kana and Hangul have no case and keep their
 * marks; simplified and traditional Chinese, and hiragana and katakana, are not folded into each
 * other. Where word boundaries matter (matching a fact, contains-fact.ts) scripts written without
 * spaces between words are treated as such.
 */

export interface GradingFormOptions {
  /** Fold diacritics (rule 4). @default true */
  diacritics?: boolean;
  /**
   * Read a plain space between digit groups as a thousands separator (`1 000` = `1000`). A plain
   * space is ambiguous ("1 000 €" in French, "2 100 GB add-ons" in English), so the fact matcher
   * compares both readings, each on both sides alike. @default false
   */
  spaceGroups?: boolean;
}

/** The grading form of `text` (rules 1–7 above). */
export function gradingForm(text: string, options: GradingFormOptions = {}): string {
  let out = foldCompatibility(markDigitGroupSpaces(text.replace(INVISIBLE, "")));
  out = foldCase(out);
  if (options.diacritics !== false) out = foldDiacritics(out);
  out = foldPunctuation(out);
  out = foldNumbers(out, options.spaceGroups === true);
  return out.replace(/\s+/gu, " ").trim();
}

const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/gu;

/** Rule 1: a typographic space between digit groups becomes the group mark `'` (NFKC would turn it into a plain space). */
function markDigitGroupSpaces(text: string): string {
  return text.replace(/(?<=\p{Nd})[\u00A0\u2007\u2009\u202F](?=\p{Nd}{3}(?!\p{Nd}))/gu, "'");
}

/** Superscripts and subscripts, which NFKC would turn into plain digits and letters. */
const SCRIPTS = /[\u00B2\u00B3\u00B9\u2070-\u209F]/u;

/** Rule 2: NFKC, except superscripts and subscripts. The acute accent ´ is an apostrophe, before NFKC makes it a space and a mark. */
export function foldCompatibility(text: string): string {
  const apostrophes = text.replace(/\u00B4/gu, "'");
  if (!SCRIPTS.test(apostrophes)) return apostrophes.normalize("NFKC");
  return apostrophes.replace(/[^\u00B2\u00B3\u00B9\u2070-\u209F]+/gu, (run) => run.normalize("NFKC"));
}

/** Rule 3: lower case plus the foldings it lacks (`ß` → `ss`, `ς` → `σ`, `ı` → `i`). */
export function foldCase(text: string): string {
  return text.toLowerCase().replace(/[ßςı]/gu, (ch) => (ch === "ß" ? "ss" : ch === "ς" ? "σ" : "i"));
}

/** The scripts whose combining marks are diacritics to fold. */
const FOLDED_BASE = /[\p{Script=Latin}\p{Script=Greek}]/u;
const MARK = /\p{M}/u;
const LETTERS: Readonly<Record<string, string>> = { æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ħ: "h" };

/** Rule 4: drops the combining marks of Latin and Greek letters, and folds the Latin letters that do not decompose. Expects case-folded text. */
export function foldDiacritics(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point of this test
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = "";
  let base = "";
  for (const ch of text.normalize("NFD")) {
    if (!MARK.test(ch)) base = ch;
    else if (FOLDED_BASE.test(base)) continue;
    out += ch;
  }
  return out.normalize("NFC").replace(/[æœøłđðþħ]/gu, (ch) => LETTERS[ch]!);
}

/** Rule 5: apostrophes, dashes and quotation marks. */
export function foldPunctuation(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201B\u02BC]/gu, "'")
    .replace(/[\p{Pd}\u2212]/gu, "-")
    .replace(/["`\u201C\u201D\u201E\u201F\u00AB\u00BB\u2039\u203A\u300C\u300D\u300E\u300F]/gu, " ");
}

const NUMERAL = /\p{Nd}+(?:[.,']\p{Nd}+)*/gu;
const SEPARATOR = /[.,']/u;
/** Digit groups of three after plain spaces, not inside a longer number: `1 000`, `12 345 678`. */
const SPACE_GROUPED = /(?<![\p{Nd}.,'])[1-9]\p{Nd}{0,2}(?: \p{Nd}{3})+(?!\p{Nd})/gu;

/** Rule 6: every number in its one reading, set apart from adjacent letters and symbols. */
export function foldNumbers(text: string, spaceGroups = false): string {
  const grouped = spaceGroups ? text.replace(SPACE_GROUPED, (run) => run.replace(/ /g, "")) : text;
  return grouped.replace(NUMERAL, canonicalNumber).replace(/(?<=\p{Nd})(?=[\p{L}\p{S}%‰])|(?<=[\p{L}\p{S}%‰])(?=\p{Nd})/gu, " ");
}

/** One numeral (digits and separators) in its reading: grouped whole number, decimal, or as written. */
export function canonicalNumber(numeral: string): string {
  const groups = numeral.split(SEPARATOR);
  const separators = numeral.match(/[.,']/gu) ?? [];
  if (separators.length === 0) return numeral;
  if (grouped(groups, separators)) return groups.join("");
  const last = separators[separators.length - 1]!;
  const decimalMark = last === "." || last === ",";
  if (separators.length === 1 && decimalMark) return `${groups[0]}.${groups[1]}`;
  if (decimalMark && last !== separators[0] && grouped(groups.slice(0, -1), separators.slice(0, -1)))
    return `${groups.slice(0, -1).join("")}.${groups[groups.length - 1]}`;
  return numeral;
}

/** Whether digit groups are thousands: a first group of 1–3 digits (not `0`), then groups of 3, one separator throughout. */
function grouped(groups: readonly string[], separators: readonly string[]): boolean {
  const [first, ...rest] = groups;
  return (
    first !== undefined &&
    first.length <= 3 &&
    first !== "0" &&
    rest.length > 0 &&
    rest.every((g) => g.length === 3) &&
    separators.every((s) => s === separators[0])
  );
}
