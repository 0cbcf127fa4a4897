/**
 * Language from a folder name: `en/`, `de/`, `zh-hans/`, `pt-BR/`… anywhere in the document's
 * path (the first match from the top wins).
 */
const ISO_639_1 = new Set(
  (
    "af am ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy id is it ja ka kk km kn ko " +
    "ky lo lt lv mk ml mn mr ms mt my nb ne nl nn no pa pl ps pt ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi zh zu"
  ).split(" "),
);

const TAG = /^([a-z]{2})(?:[-_]([a-z]{2}|[a-z]{4}))?$/i;

/** Returns the normalized tag (`en`, `zh-hant`, `pt-br`) or undefined. */
export function languageFromPath(relPath: string): string | undefined {
  const folders = relPath.split("/").slice(0, -1);
  for (const folder of folders) {
    const m = TAG.exec(folder);
    if (m && ISO_639_1.has(m[1]!.toLowerCase())) return folder.toLowerCase().replace("_", "-");
  }
  return undefined;
}

/** The base language of a tag (`zh-hant` → `zh`), which selects stemmer and stop words. */
export function baseLanguage(tag: string): string {
  return tag.split("-")[0]!.toLowerCase();
}
