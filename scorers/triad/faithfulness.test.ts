import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES, refused } from "../test-data/ask.js";
import { answerClaims, faithfulnessMetric } from "./faithfulness.js";

const c = askCase({ expectedSubstrings: ["10"], mustCite: [CODES.docId] });
const good = askResult("Tessera creates 10 recovery codes [1]. Each code works once [1].", [CODES, PRICES]);

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

describe("faithfulness, heuristic", () => {
  it("a claim with a number its cited source does not state is unsupported", () => {
    const g = faithfulnessMetric.heuristic(
      c,
      askResult("Tessera creates 12 recovery codes [1]. Each code works once [1].", [CODES, PRICES]),
    );
    expect(g.score).toBe(0.5);
    expect(g.metadata.unsupported).toEqual(["Tessera creates 12 recovery codes."]);
    expect(faithfulnessMetric.heuristic(c, good).score).toBe(1);
  });

  it("a claim is checked against the sources it cites", () => {
    const wrongSource = faithfulnessMetric.heuristic(c, askResult("Tessera creates 10 recovery codes [2].", [CODES, PRICES]));
    expect(wrongSource.score).toBe(0);
    const uncited = faithfulnessMetric.heuristic(c, askResult("Tessera creates 10 recovery codes.", [CODES, PRICES]));
    expect(uncited.score).toBe(1);
    expect((uncited.metadata.perClaim as Array<{ against: string }>)[0]!.against).toBe("all sources");
  });

  it("of a refusal is vacuous (1, declared)", () => {
    const f = faithfulnessMetric.heuristic(c, refused([CODES]));
    expect(f.score).toBe(1);
    expect(f.metadata).toMatchObject({ claims: 0, vacuous: true });
  });
});
