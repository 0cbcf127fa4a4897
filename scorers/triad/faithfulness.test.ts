import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES, refused } from "../test-data/ask.js";
import { answerClaims, faithfulnessMetric } from "./faithfulness.js";

const c = askCase({ expectedSubstrings: ["10"], mustCite: [CODES.docId] });
const good = askResult("Tessera creates 10 recovery codes [1]. Each code works once [1].", [CODES, PRICES]);
const perClaim = (g: { metadata: Record<string, unknown> }) =>
  g.metadata.perClaim as Array<{ claim: string; support: number; missingKeys: string[] }>;

describe("answerClaims", () => {
  it("splits sentences, and gives a marker after the full stop to the sentence before it", () => {
    expect(answerClaims("Tessera creates 10 recovery codes. [2] Each works once [1, 3].")).toEqual([
      { text: "Tessera creates 10 recovery codes.", refs: [2] },
      { text: "Each works once.", refs: [1, 3] },
    ]);
  });

  it("keeps decimals and abbreviations inside a sentence, splits list items, drops marker-only pieces", () => {
    expect(answerClaims("It costs €4.99, e.g. for Personal [1].\n- **First** item [2]\n[3]")).toEqual([
      { text: "It costs €4.99, e.g. for Personal.", refs: [1] },
      { text: "First item", refs: [2, 3] },
    ]);
    expect(answerClaims("")).toEqual([]);
  });
});

describe("faithfulness, heuristic (graded)", () => {
  it("is the mean over claims of the weighted share of their terms in the sources: a changed figure weighs three words", () => {
    expect(faithfulnessMetric.heuristic(c, good).score).toBe(1);
    // "tessera creates 12 recovery codes": 4 words found (weight 4) and the number 12 missing (weight 3): 4/7.
    const changed = faithfulnessMetric.heuristic(c, askResult("Tessera creates 12 recovery codes [1]. Each code works once [1].", [CODES]));
    expect(perClaim(changed)[0]).toMatchObject({ support: 0.571, missingKeys: ["12"] });
    expect(changed.score).toBeCloseTo((4 / 7 + 1) / 2, 3);
    // A graded score: an answer with one wrong figure ranks below the right one and above an invented one.
    const invented = faithfulnessMetric.heuristic(c, askResult("Refunds arrive within 30 days by bank transfer [1].", [CODES]));
    expect(invented.score).toBeLessThan(changed.score);
  });

  it("weighs a name (a capitalised word where no sentence starts) as a number: a swapped entity is caught", () => {
    const swapped = faithfulnessMetric.heuristic(
      c,
      askResult("With two-factor authentication, Dropbox creates 10 recovery codes.", [CODES]),
    );
    expect(perClaim(swapped)[0]!.missingKeys).toEqual(["dropbox"]);
    const word = faithfulnessMetric.heuristic(c, askResult("With two-factor authentication, it creates 10 paper codes.", [CODES]));
    expect(swapped.score).toBeLessThan(word.score);
  });

  it("a claim is checked against the sources it cites, else against all of them", () => {
    const wrongSource = faithfulnessMetric.heuristic(c, askResult("Tessera creates 10 recovery codes [2].", [CODES, PRICES]));
    expect(wrongSource.score).toBeLessThan(0.3);
    const uncited = faithfulnessMetric.heuristic(c, askResult("Tessera creates 10 recovery codes.", [CODES, PRICES]));
    expect(uncited.score).toBe(1);
    expect((uncited.metadata.perClaim as Array<{ against: string }>)[0]!.against).toBe("all sources");
  });

  it("judges a bare yes or no by the question's content, and a yes or no before a sentence by that sentence", () => {
    const asked = askResult("Yes.", [CODES], { question: "Does Tessera create 10 recovery codes?" });
    expect(faithfulnessMetric.heuristic(c, asked).score).toBe(1);
    expect(perClaim(faithfulnessMetric.heuristic(c, asked))[0]).toMatchObject({ claim: "Does Tessera create 10 recovery codes?" });
    const wrongFigure = askResult("No.", [CODES], { question: "Does Tessera create 12 recovery codes?" });
    expect(faithfulnessMetric.heuristic(c, wrongFigure).score).toBeLessThan(1);
    const yesAnd = faithfulnessMetric.heuristic(c, askResult("Yes, each code works once.", [CODES]));
    expect(yesAnd.score).toBe(1);
    expect(perClaim(yesAnd)[0]!.claim).toBe("each code works once.");
  });

  it("of a refusal is vacuous (1, declared)", () => {
    const f = faithfulnessMetric.heuristic(c, refused([CODES]));
    expect(f.score).toBe(1);
    expect(f.metadata).toMatchObject({ claims: 0, vacuous: true });
  });
});
