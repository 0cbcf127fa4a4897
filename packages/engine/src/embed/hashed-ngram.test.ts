import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { stopwordsFor } from "../text/stopwords.js";
import { HashedNgramEmbedder } from "./hashed-ngram.js";

describe("the offline embedder's id names its behaviour", () => {
  it("v2 skips exactly the function words it was built with: a change to them needs a new embedder version", () => {
    // The embedder drops the union of the stop-word lists before hashing n-grams, so editing any list
    // changes every vector. Vectors are cached by (text hash, embedder id): under an unchanged id,
    // old and new vectors would mix and reports would name the wrong embedder. Bump the version in
    // hashed-ngram.ts (and this pin) with any change to these words.
    const words = [...stopwordsFor(undefined)].sort();
    const pin = createHash("sha256").update(words.join("\n")).digest("hex").slice(0, 16);
    expect(new HashedNgramEmbedder().modelId).toMatch(/^hashed-char-ngram-v2-/);
    expect({ count: words.length, sha256: pin }).toEqual({ count: 302, sha256: "d51f2472f3956276" });
  });
});
