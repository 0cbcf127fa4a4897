/**
 * Character classes the analyzer needs. CJK covers scripts written without spaces between words
 * (Han, Hiragana, Katakana) and Hangul, whose words carry attached particles; runs of both become
 * terms by the analyzer's CJK strategy (text/cjk.ts) instead of whitespace words.
 */
export const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆〤]/u;

/**
 * What the analyzer keeps inside a CJK run: CJK_CHAR plus the marks and half-width forms that
 * NFKC folds into it (combining voicing marks U+3099/309A, half-width prolonged sound and voicing
 * marks), so `ｻﾌﾞｽｸ` or decomposed `ハ\u3099` stays one run.
 */
export const CJK_RUN_CHAR =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆〤\u3099\u309A\uFF70\uFF9E\uFF9F]/u;

export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** Characters that may join two alphanumeric runs into one compound (`real-time`, `config.yaml`).
 * A colon does not: `title:cancel` is two words (and looks like FTS5 column syntax), and a URL's
 * `https://host/path` still yields the compound `host/path`. */
export const CONNECTORS = "-‐‑_./\\@+－＿．／＠";

/** Folds Latin diacritics (`kündigung` → `kundigung`) and a few letters that do not decompose. */
export function foldDiacritics(word: string): string {
  // ASCII fast path: most tokens have nothing to fold.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point of this test
  if (/^[\x00-\x7f]*$/.test(word)) return word;
  let out = word.normalize("NFD").replace(/\p{M}+/gu, "");
  if (/[ßæœøłđþ]/.test(out)) {
    out = out
      .replace(/ß/g, "ss")
      .replace(/æ/g, "ae")
      .replace(/œ/g, "oe")
      .replace(/ø/g, "o")
      .replace(/ł/g, "l")
      .replace(/đ/g, "d")
      .replace(/þ/g, "th");
  }
  return out.normalize("NFC");
}

/** German transliteration when umlauts cannot be typed: `kündigung` → `kuendigung`. */
export function transliterateGerman(word: string): string {
  return word.replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
}
