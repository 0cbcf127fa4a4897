/**
 * Document languages for the cross-language evals: declared ones as declared, the others told by
 * ELD, never by the engine. On the project's own corpora, whose languages are declared by their
 * folders, ELD agrees with every one (docs/evals.md, "Document languages").
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CJK_DIR, FIXTURES_DIR, TEMPORAL_DIR } from "../fixture-files.js";
import { loadDataset } from "../dataset.js";
import { readFolderDocuments } from "./documents.js";
import { documentLanguages, languageIdentifier } from "./language.js";

describe("the language identifier", () => {
  it("tells every document of the fixtures', the CJK and the temporal corpora the language its folder declares", async () => {
    const identify = await languageIdentifier();
    const disagreements: string[] = [];
    let documents = 0;
    for (const corpus of [join(FIXTURES_DIR, "corpus"), join(CJK_DIR, "corpus"), join(TEMPORAL_DIR, "corpus")])
      for (const doc of readFolderDocuments(corpus)) {
        documents++;
        const declared = doc.language!.split("-")[0];
        const told = identify(`${doc.title ?? ""}\n${doc.text}`);
        if (told !== declared) disagreements.push(`${doc.id}: declared ${declared}, told ${told}`);
      }
    expect(documents).toBe(119);
    expect(disagreements).toEqual([]);
  });

  it("leaves what it cannot tell reliably unknown", async () => {
    const identify = await languageIdentifier();
    expect(identify("42 17 3.5")).toBeUndefined();
    expect(identify("Der Bibliotheksausweis ist drei Jahre lang gültig und kann online verlängert werden.")).toBe("de");
  });
});

describe("documentLanguages", () => {
  it("keeps declared languages and tells the undeclared ones of a golden Q&A set, whose documents declare none", async () => {
    const fixtures = loadDataset({});
    expect(await documentLanguages(fixtures)).toEqual(fixtures.declaredLanguages);
    const golden = loadDataset({ EVAL_DATASET: "test/datasets/golden-qa" });
    expect(golden.declaredLanguages.size).toBe(0);
    const told = await documentLanguages(golden);
    expect(told.size).toBe(golden.corpusIds.length);
    expect(new Set(told.values())).toEqual(new Set(["en"]));
  });
});
