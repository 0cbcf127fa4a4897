/**
 * Reads a Markdown or plain-text document: optional front matter (`title`, `lang`/`language`),
 * the title (front matter, else the first heading, else the file name) and the body to chunk.
 */
export interface ParsedDocument {
  title: string;
  /** From front matter, if it names one. */
  language?: string;
  body: string;
  markdown: boolean;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\r?\n?/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

export function parseDocument(relPath: string, raw: string): ParsedDocument {
  const markdown = /\.(md|markdown|mdx)$/i.test(relPath);
  let body = raw.replace(/\r\n?/g, "\n");
  const meta: Record<string, string> = {};
  const fm = markdown ? FRONT_MATTER.exec(body) : null;
  if (fm) {
    for (const line of fm[1]!.split("\n")) {
      const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$/.exec(line);
      if (kv) meta[kv[1]!.toLowerCase()] = kv[2]!.replace(/^(["'])(.*)\1$/, "$2");
    }
    body = body.slice(fm[0].length);
  }
  const title = meta.title || (markdown ? firstHeading(body) : undefined) || fileTitle(relPath);
  const language = (meta.lang || meta.language)?.toLowerCase();
  return language ? { title, language, body, markdown } : { title, body, markdown };
}

function firstHeading(body: string): string | undefined {
  let inFence = false;
  for (const line of body.split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    if (inFence) continue;
    const h = HEADING.exec(line);
    if (h && h[2]!.trim() !== "") return stripInline(h[2]!);
  }
  return undefined;
}

function fileTitle(relPath: string): string {
  const base = relPath.split("/").pop() ?? relPath;
  return base.replace(/\.[^.]+$/, "");
}

/** Removes the most common inline Markdown so titles and headings read as text. */
export function stripInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/`([^`]*)`/g, "$1")
    .trim();
}

export { HEADING, FENCE };
