import { describe, expect, it } from "vitest";
import { askCase, askResult, PLANS, TWO_FA, TWO_FA_DE } from "../test-data/ask.js";
import { citesScore } from "./index.js";

describe("cites", () => {
  const c = askCase({ mustCite: ["en/security/two-factor-authentication.md", "en/billing/plans-and-pricing.md"] });
  const translations = new Map([
    ["en/security/two-factor-authentication.md", ["de/sicherheit/zwei-faktor-authentifizierung.md"]],
    ["de/sicherheit/zwei-faktor-authentifizierung.md", ["en/security/two-factor-authentication.md"]],
  ]);

  it("scores the share of mustCite docs cited and names the missing ones", () => {
    const g = citesScore(c, askResult("You get 10 codes [1].", [TWO_FA, PLANS]), { translations });
    expect(g.score).toBe(0.5);
    expect(g.metadata).toMatchObject({
      direct: ["en/security/two-factor-authentication.md"],
      missing: ["en/billing/plans-and-pricing.md"],
    });
    expect(citesScore(c, askResult("10 codes [1]; €9.99 [3].", [TWO_FA, TWO_FA_DE, PLANS]), { translations }).score).toBe(1);
  });

  it("counts a cited translation by default and says so; not when translations are turned off", () => {
    const result = askResult("Es gibt 10 Codes [2]. €9.99 [3].", [TWO_FA, TWO_FA_DE, PLANS]);
    const accepted = citesScore(c, result, { translations });
    expect(accepted.score).toBe(1);
    expect(accepted.metadata.viaTranslation).toEqual([
      { required: "en/security/two-factor-authentication.md", cited: "de/sicherheit/zwei-faktor-authentifizierung.md" },
    ]);
    expect(accepted.metadata.translationPolicy).toMatch(/translation .* counts/);
    const strict = citesScore(c, result, { acceptTranslations: false });
    expect(strict.score).toBe(0.5);
    expect(strict.metadata.missing).toEqual(["en/security/two-factor-authentication.md"]);
    expect(strict.metadata.translationPolicy).toBe("only the listed docs count");
  });

  it("counts only the listed docs when no translations are given", () => {
    const c = askCase({ mustCite: ["en/security/two-factor-authentication.md"] });
    const g = citesScore(c, askResult("10 Codes [2].", [TWO_FA, TWO_FA_DE]));
    expect(g.score).toBe(0);
    expect(g.metadata.translationPolicy).toBe("only the listed docs count");
  });

  it("does not count an invalid citation", () => {
    const g = citesScore(c, askResult("10 codes [7].", [TWO_FA, PLANS]), { translations });
    expect(g.score).toBe(0);
  });
});
