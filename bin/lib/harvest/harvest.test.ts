/**
 * eval:harvest's pure parts: the scrubber (what it catches, counted, and what it leaves alone) and
 * the candidates drawn from each kind of feedback record.
 */
import { describe, expect, it } from "vitest";
import { answeredTurn, call, PLANS, searchCall, step } from "../../../scorers/test-data/turn.js";
import {
  type AnswerFeedback,
  type FeedbackRecord,
  type HarvestContext,
  harvest,
  isWhereQuestion,
  type TurnFeedback,
} from "./candidates.js";
import { Scrubber } from "./scrub.js";

describe("the scrubber", () => {
  it("replaces e-mail addresses, phone numbers, tokens and keys, and counts each kind", () => {
    const s = new Scrubber();
    expect(s.scrub("Mail jane.doe+x@example.co.uk or call +49 30 1234 5678, (555) 123-4567, 0044 20 7946 0958.")).toBe(
      "Mail [email] or call [phone], [phone], [phone].",
    );
    expect(s.scrub("keys sk-proj-abcdefghijklmnop1234, AKIAIOSFODNN7EXAMPLE, ghp_abcdefghijklmnopqrstuvwxyz0123456789")).toBe(
      "keys [key], [key], [key]",
    );
    expect(s.scrub("Authorization: Bearer abc.def-ghi_jkl123; password: hunter2hunter; api_key=XYZ987654")).toBe(
      "Authorization: Bearer [token]; password: [token]; api_key=[token]",
    );
    expect(s.scrub("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk and hash 0123456789abcdef0123456789abcdef")).toBe(
      "jwt [token] and hash [token]",
    );
    expect(s.counts).toEqual({ key: 3, token: 5, email: 1, phone: 3 });
    expect(s.total).toBe(12);
  });

  it("leaves what only looks like them: error codes, dates, versions, prices, sizes, short numbers", () => {
    const s = new Scrubber();
    const text = "Error E-1042 on 2024-05-01 (01.09.2024), v3.2.1, €9.99 for 10 GB, order 12345, step 3 of 5, DEC-0054.";
    expect(s.scrub(text)).toBe(text);
    expect(s.total).toBe(0);
  });

  it("does not catch what it does not know (documented): names, addresses, a bare run of digits", () => {
    const s = new Scrubber();
    const text = "Jane Doe, 12 Baker Street, account 5551234567, card 4111 1111 1111 1111";
    expect(s.scrub(text)).toBe(text);
  });
});

const CONTEXT: HarvestContext = {
  corpusIds: new Set([PLANS, "en/a.md", "en/b.md"]),
  text: (id) => (id === PLANS ? "Family costs €14.99 per month." : id === "en/a.md" ? "Refunds within 30 days." : "Other."),
  questions: ["What does Family cost?"],
  queries: [],
  turnCases: [{ id: "t-007", question: "Where is the price list?" }],
  surfaces: { "help-centre": ["search", "read_document", "catalog", "file_correction"] },
  ids: new Set(),
  date: "2026-01-02",
};

const answer = (over: Partial<AnswerFeedback> = {}): AnswerFeedback => ({
  id: "fb-1",
  kind: "answer",
  question: "How long do refunds take?",
  rating: "down",
  response: { answer: "Two weeks [1].", citations: [{ ref: 1, docId: "en/x.md" }], refused: false, sources: [{ docId: "en/a.md" }] },
  ...over,
});

const turn = (over: Partial<TurnFeedback> = {}): TurnFeedback => ({
  id: "fb-9",
  kind: "turn",
  question: "Where can I find the article about prices?",
  rating: "down",
  surface: "help-centre",
  turn: answeredTurn(),
  ...over,
});

describe("candidates from feedback", () => {
  it("a search: opened documents judged 1, graded ones their grade, documents the dataset lacks left out; the same query again merged", () => {
    const records: FeedbackRecord[] = [
      {
        id: "s1",
        kind: "search",
        query: "refund",
        documents: [
          { docId: "en/a.md", opened: true },
          { docId: "en/zzz.md", grade: 3 },
        ],
      },
      {
        id: "s2",
        kind: "search",
        query: "Refund",
        documents: [
          { docId: "en/a.md", grade: 3 },
          { docId: "en/b.md", grade: 0 },
        ],
      },
      { id: "s3", kind: "search", query: "nothing", documents: [{ docId: "en/zzz.md", opened: true }] },
    ];
    const h = harvest(records, CONTEXT, new Scrubber());
    expect(h.retrievalCases).toEqual([
      {
        id: "harvest-q-001",
        query: "refund",
        category: "search-feedback",
        // One word tells no language: none is recorded.
        judgments: { "en/a.md": 3, "en/b.md": 0 },
        status: "draft",
        provenance: { method: "feedback/search", feedbackId: "s1", drafted: "2026-01-02" },
        note: "Also asked in feedback s2.",
      },
    ]);
    expect(h.report).toMatchObject({ merged: 1, unjudged: 1, unknownDocuments: 2 });
  });

  it("an answer rated down: its correction's facts and documents as expectations, what went wrong in its note; without one, incomplete", () => {
    const corrected = answer({ correction: { facts: ["30 days", "90 days"], docs: ["en/a.md"] }, comment: "ask me: bob@example.org" });
    const h = harvest(
      [corrected, answer({ id: "fb-2", question: "Why is the sky blue?" }), answer({ id: "fb-3", rating: "up", question: "Up?" })],
      CONTEXT,
      new Scrubber(),
    );
    expect(h.answerCases).toHaveLength(1);
    expect(h.answerCases[0]).toMatchObject({
      question: "How long do refunds take?",
      expectedSubstrings: ["30 days"],
      mustCite: ["en/a.md"],
      status: "draft",
      provenance: { feedbackId: "fb-1" },
    });
    expect(h.answerCases[0]!.note).toBe(
      'Rated down in production (feedback fb-1). The answer cited en/x.md, which none of its sources held (unsurfaced). The person wrote: "ask me: [email]".',
    );
    expect(h.report.factsNotFound).toBe(1);
    expect(h.incomplete).toEqual([
      expect.objectContaining({
        kind: "answer",
        question: "Why is the sky blue?",
        provenance: expect.objectContaining({ feedbackId: "fb-2" }),
      }),
    ]);
    expect(h.report.ratedUp).toBe(1);
    expect(harvest([answer({ question: "What does Family cost?" })], CONTEXT, new Scrubber()).report.inDataset).toBe(1);
  });

  it("a turn rated down: cites-only-surfaced for an unsurfaced citation, calls-tool catalog for a where-question without it", () => {
    const recalled = answeredTurn({ citations: [{ docId: "en/made-up.md", surfaced: false }] });
    const h = harvest([turn({ turn: recalled })], CONTEXT, new Scrubber());
    expect(h.turnCases).toEqual([
      expect.objectContaining({
        id: "t-008",
        category: "where",
        surface: "help-centre",
        expect: [{ kind: "cites-only-surfaced" }, { kind: "calls-tool", tool: "catalog" }],
        status: "draft",
        provenance: { method: "feedback/turn", feedbackId: "fb-9", drafted: "2026-01-02" },
      }),
    ]);
    expect(h.turnCases[0]!.guards).toMatch(/unsurfaced: en\/made-up\.md .*a where-question that did not call catalog/);
    // The same turn with the catalog called and every citation surfaced suggests nothing: incomplete.
    const fine = answeredTurn({
      steps: [step(1, [call("catalog", { output: { entries: [{ docId: PLANS }] } })]), step(2, [searchCall([PLANS])])],
      citations: [],
    });
    const none = harvest([turn({ turn: fine, question: "Where is the family plan described?" })], CONTEXT, new Scrubber());
    expect(none.turnCases).toEqual([]);
    expect(none.incomplete).toEqual([expect.objectContaining({ kind: "turn", surface: "help-centre" })]);
    expect(isWhereQuestion("Dove trovo le istruzioni?")).toBe(true);
    expect(isWhereQuestion("What does Family cost?")).toBe(false);
  });

  it("a turn's correction: a refusal becomes outcome refused, facts answer-includes; a new tool set a surface of its own", () => {
    const h = harvest(
      [
        turn({
          question: "What is the boiling point of ethanol?",
          surface: undefined,
          correction: { refusal: true },
          turn: answeredTurn({ tools: ["search"] }),
        }),
        turn({ id: "fb-10", question: "What does the Family plan cost per month?", correction: { facts: ["€14.99"], docs: [PLANS] } }),
      ],
      CONTEXT,
      new Scrubber(),
    );
    expect(h.turnCases.map((c) => [c.category, c.surface, c.expect])).toEqual([
      ["off-corpus", "harvested", [{ kind: "outcome", is: "refused" }]],
      [
        "answer",
        "help-centre",
        [
          { kind: "answer-includes", text: "€14.99" },
          { kind: "cites", doc: PLANS },
        ],
      ],
    ]);
    expect(h.surfaces.harvested).toEqual(["search"]);
  });
});
