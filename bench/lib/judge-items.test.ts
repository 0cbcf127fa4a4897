import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/fixture-files/paths.js";
import {
  type Base,
  changedNumber,
  cisiItems,
  type CorpusDoc,
  fixtureItems,
  itemsOf,
  namesIn,
  negated,
  seeded,
  sentencesOf,
} from "./judge-items.js";

describe("the corruptions", () => {
  it("change a number in its own form, never to one the contexts hold", () => {
    const rand = seeded(1);
    for (let i = 0; i < 50; i++) {
      const year = Number(changedNumber("1971", rand, () => false));
      expect(Math.abs(year - 1971)).toBeGreaterThanOrEqual(1);
      expect(Math.abs(year - 1971)).toBeLessThanOrEqual(5);
      expect(changedNumber("49,50", rand, () => false)).toMatch(/^\d+,50$/);
      expect(changedNumber("10", rand, (x) => x === "11")).not.toBe("11");
    }
    expect(changedNumber("10", rand, () => true)).toBeNull();
  });

  it("negate the first verb that takes a plain negation, in four languages, and leave a negative sentence alone", () => {
    expect(negated("Each code works once and is valid.", "en")).toBe("Each code works once and is not valid.");
    expect(negated("Der Tarif bleibt aktiv.", "de")).toBe("Der Tarif bleibt nicht aktiv.");
    expect(negated("Le lien est valable.", "fr")).toBe("Le lien n'est pas valable.");
    expect(negated("Il piano è gratuito.", "it")).toBe("Il piano non è gratuito.");
    expect(negated("Tessera does not send codes.", "en")).toBeNull();
  });

  it("find names: identifiers, acronyms, capitals where no sentence starts (not in German)", () => {
    expect(namesIn("Tessera sends DEC-0054 to Dropbox via SAML.", "en").map((n) => n.text)).toEqual(["DEC-0054", "Dropbox", "SAML"]);
    expect(namesIn("Der Tarif nutzt SAML.", "de").map((n) => n.text)).toEqual(["SAML"]);
  });
});

describe("the items of a base", () => {
  const passage =
    "# Codes\nWhen you turn on two-factor authentication, Tessera creates 10 recovery codes. Each code works once for one sign-in.";
  const base: Base = {
    id: "t",
    language: "en",
    question: "How many recovery codes do I get?",
    sentence: "When you turn on two-factor authentication, Tessera creates 10 recovery codes.",
    passage,
    doc: "a",
    short: { answer: "10", question: "How many recovery codes do I get?" },
  };
  const corpus: CorpusDoc[] = [
    { id: "a", language: "en", passages: [passage] },
    { id: "b", language: "en", passages: ["# Plans\nThe Personal plan on Dropbox costs 9 euros per month for everyone."] },
    { id: "c", language: "en", passages: ["# Trash\nDeleted files stay in the trash for 30 days on every plan."] },
  ];

  it("label each kind by construction (bench/lib/judge-items.ts's table), with the passage among the contexts", () => {
    const items = itemsOf(base, corpus, seeded(3));
    const byKind = new Map(items.map((x) => [x.note.split(":")[0]!, x]));
    expect([...byKind.keys()].sort()).toEqual(
      [
        "added-claim",
        "clause",
        "extract",
        "name-swapped",
        "no-false",
        "no-true",
        "number-changed",
        "off-context",
        "short",
        "short-changed",
        "spliced",
        "yes-false",
        "yes-true",
      ].sort(),
    );
    for (const x of items) expect(x.contexts).toContain(passage);
    expect(byKind.get("extract")!.labels).toEqual({ faithfulness: 1, "answer-relevance": 1, "answer-correctness": 1 });
    expect(byKind.get("number-changed")!.labels).toEqual({ faithfulness: 0, "answer-relevance": 1, "answer-correctness": 0 });
    expect(byKind.get("number-changed")!.answer).not.toContain(" 10 ");
    expect(byKind.get("off-context")!.labels).toEqual({ faithfulness: 0, "answer-relevance": 0, "answer-correctness": 0 });
    expect(byKind.get("no-false")!).toMatchObject({ answer: "No.", labels: { faithfulness: 1 } });
    expect(byKind.get("no-true")!).toMatchObject({ answer: "No.", labels: { faithfulness: 0 } });
    expect(byKind.get("short")!).toMatchObject({ answer: "10", reference: base.sentence });
    expect(itemsOf(base, corpus, seeded(3))).toEqual(items);
  });

  it("split passages into sentences without their Markdown marks", () => {
    expect(sentencesOf("## Heading\n- **Lecteur** : peut ouvrir. Il lit.")).toEqual(["Heading", "Lecteur : peut ouvrir.", "Il lit."]);
  });
});

describe("the committed items", () => {
  const committed = (file: string) =>
    readFileSync(join(REPO_ROOT, file), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));

  it("are what pnpm bench:judge-items writes from the fixtures (after a fixture change, run it again)", () => {
    expect(fixtureItems(join(REPO_ROOT, "fixtures"), 41)).toEqual(committed("fixtures/labels/items-fixtures.jsonl"));
  });

  const cisi = join(REPO_ROOT, "../shared/datasets/cisi");
  it.skipIf(!existsSync(cisi))("are what pnpm bench:judge-items writes from CISI (when ../shared/datasets/cisi is there)", () => {
    expect(cisiItems(cisi, 41)).toEqual(committed("fixtures/labels/items-cisi.jsonl"));
  });
});
