import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.js";
import { parseDocument } from "./markdown.js";

/** The error parseDocument throws for `raw` as `docs/a.md`. */
function frontMatterError(raw: string): EngineError {
  try {
    parseDocument("a.md", raw, "docs/a.md");
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error("expected parseDocument to throw");
}

describe("YAML front matter", () => {
  it("reads real YAML: quoted strings, lists, multi-line scalars, comments, any key case", () => {
    const doc = parseDocument(
      "a.md",
      [
        "---",
        "# a comment",
        'Title: "Sync: a guide # not a comment"',
        "tags:",
        "  - sync",
        "  - clients",
        "summary: >",
        "  Folded over",
        "  two lines.",
        "LANG: 'DE'",
        "---",
        "# Heading",
        "",
        "text",
      ].join("\n"),
    );
    expect(doc).toEqual({ title: "Sync: a guide # not a comment", language: "de", body: "# Heading\n\ntext", markdown: true });
  });

  it("takes a multi-line title as YAML folds it, and numbers as written", () => {
    expect(parseDocument("a.md", "---\ntitle: |-\n  First\n  second\n---\nbody").title).toBe("First\nsecond");
    expect(parseDocument("a.md", "---\ntitle: 2024\n---\nbody").title).toBe("2024");
  });

  it("accepts empty front matter, `...` as the closing line, and CRLF line ends", () => {
    expect(parseDocument("a.md", "---\n---\n# Heading\n\ntext")).toMatchObject({ title: "Heading", body: "# Heading\n\ntext" });
    expect(parseDocument("a.md", "---\ntitle: T\n...\nbody")).toMatchObject({ title: "T", body: "body" });
    expect(parseDocument("a.md", "---\r\ntitle: T\r\nlang: fr\r\n---\r\nbody")).toMatchObject({ title: "T", language: "fr", body: "body" });
  });

  it("falls back to the heading when front matter has no title, or an empty one", () => {
    expect(parseDocument("a.md", "---\nlang: it\n---\n# Titolo\n\ntesto")).toMatchObject({ title: "Titolo", language: "it" });
    expect(parseDocument("a.md", "---\ntitle:\n---\n# Heading")).toMatchObject({ title: "Heading" });
  });

  it("leaves text files and documents without an opening --- line alone", () => {
    expect(parseDocument("a.txt", "---\ntitle: [unclosed\n---\nbody").body).toBe("---\ntitle: [unclosed\n---\nbody");
    expect(parseDocument("a.md", "intro\n---\ntitle: x\n---\n").title).toBe("a");
  });

  it.each([
    ["an unclosed block", "---\ntitle: Never closed\n\n# Heading", /^docs\/a\.md:1: front matter opened by --- is never closed/],
    ["an unclosed flow list", "---\nlang: en\ntitle: [unclosed\n---\nbody", /^docs\/a\.md:3: front matter is not valid YAML: /],
    ["an unclosed quote", "---\ntitle: 'open\n---\nbody", /^docs\/a\.md:\d+: front matter is not valid YAML: .*quote/i],
    ["a repeated key", "---\ntitle: a\ntitle: b\n---\nbody", /^docs\/a\.md:3: front matter is not valid YAML: Map keys must be unique/],
    ["a list, not a mapping", "---\n- a\n- b\n---\nbody", /^docs\/a\.md:2: front matter must be a mapping/],
    ["a title that is a list", "---\nlang: en\ntitle: [a, b]\n---\nbody", /^docs\/a\.md:3: front matter "title" must be text, got a list$/],
    [
      "a language that is a mapping",
      "---\nlang:\n  code: de\n---\nbody",
      /^docs\/a\.md:2: front matter "lang" must be text, got a mapping$/,
    ],
  ])("rejects %s with one line naming the file and line", (_name, raw, message) => {
    const error = frontMatterError(raw);
    expect(error.code).toBe("MALFORMED_FRONT_MATTER");
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("\n");
  });
});
