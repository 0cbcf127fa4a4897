/**
 * Sentences of a passage, for extractive answers: split after `.`, `!`, `?` (and CJK full stops)
 * followed by space, and at line breaks of list items; Markdown emphasis and list markers removed.
 * Abbreviations like "e.g." and decimals like "4.99" do not end a sentence.
 */
const ABBREVIATION = /\b(e\.g|i\.e|etc|z\.B|bzw|ca|vs|Nr|p\.ex|ecc|ad es)\.$/i;

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n+/)) {
    const line = block
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")
      .replace(/^#+\s+/, "")
      .replace(/(\*\*|__)(.*?)\1/g, "$2")
      .replace(/`([^`]*)`/g, "$1")
      .trim();
    if (line === "" || /^```/.test(line)) continue;
    let current = "";
    for (const piece of line.split(/(?<=[.!?。！？])\s+/u)) {
      current = current ? `${current} ${piece}` : piece;
      if (!ABBREVIATION.test(current)) {
        out.push(current.trim());
        current = "";
      }
    }
    if (current.trim()) out.push(current.trim());
  }
  return out.filter((s) => /[\p{L}\p{N}]/u.test(s));
}
