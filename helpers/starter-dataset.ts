/**
 * `pnpm eval:init <folder>`: a small, self-consistent starter dataset in the suite's own formats,
 * so a new user sees every file working before writing their own. Four documents of a fictional
 * note-taking service (one with its German translation), judged retrieval queries, and answer
 * cases with every kind of expectation (facts, required citations, topics, a refusal, a false
 * premise). The folder holds the fixture format (corpus/, queries.json, ask-cases.json,
 * translations.json, refusal-markers.json, schemas/ for editors) and the same documents and
 * judgments in the BEIR format that `EVAL_DATASET` reads (corpus.jsonl, queries.jsonl,
 * qrels/test.tsv), both built from the one set of records below so they cannot disagree.
 *
 * After writing, the folder is loaded back through the suite's fixture checks (schema and lint of
 * every file, the BEIR reader): what `eval:init` writes is what the checks accept.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readBeirDataset } from "@hybrid-search/trec-eval/formats";
import {
  type AskCase,
  FIXTURES_DIR,
  listCorpusDocs,
  loadAskCases,
  loadQueries,
  loadRefusalMarkers,
  loadTranslations,
  type Query,
  type TranslationGroup,
} from "./fixtures.js";

interface StarterDoc {
  id: string;
  title: string;
  body: string;
}

const DOCS: readonly StarterDoc[] = [
  {
    id: "en/billing/refunds.md",
    title: "Refunds",
    body: [
      "## Who can get a refund",
      "",
      "Kestrel Notes refunds a yearly plan in full when you ask within 30 days of the payment. Monthly plans are not refunded: cancelling a monthly plan only stops the next payment.",
      "",
      "## How to ask for a refund",
      "",
      'Open Settings → Billing, choose "Request a refund" and give a reason. The money reaches your card within 5 to 10 business days.',
    ].join("\n"),
  },
  {
    id: "de/abrechnung/rueckerstattung.md",
    title: "Rückerstattung",
    body: [
      "## Wer eine Rückerstattung erhält",
      "",
      "Kestrel Notes erstattet einen Jahrestarif vollständig, wenn Sie innerhalb von 30 Tagen nach der Zahlung darum bitten. Monatstarife werden nicht erstattet: Die Kündigung eines Monatstarifs beendet nur die nächste Zahlung.",
      "",
      "## So beantragen Sie eine Rückerstattung",
      "",
      "Öffnen Sie Einstellungen → Abrechnung, wählen Sie „Rückerstattung beantragen“ und nennen Sie einen Grund. Das Geld erreicht Ihre Karte innerhalb von 5 bis 10 Werktagen.",
    ].join("\n"),
  },
  {
    id: "en/account/two-factor-authentication.md",
    title: "Two-factor authentication",
    body: [
      "## Turning it on",
      "",
      "Open Settings → Security → Two-factor authentication, scan the QR code with an authenticator app and enter the six-digit code it shows.",
      "",
      "## Recovery codes",
      "",
      "When you turn two-factor authentication on you get 8 recovery codes. Each code works once. Generating a new set replaces the old one. Keep them somewhere safe: they are the way back into your account when you lose your phone.",
    ].join("\n"),
  },
  {
    id: "en/sync/offline-mode.md",
    title: "Offline mode",
    body: [
      "## What works offline",
      "",
      "Notes you opened in the last 14 days are kept on the device and can be edited without an internet connection. Your changes sync as soon as the device is back online.",
      "",
      "## Conflicts",
      "",
      'When the same note was changed on two devices, Kestrel Notes keeps both versions and names the older one "conflicted copy".',
    ].join("\n"),
  },
];

const REFUNDS_EN = "en/billing/refunds.md";
const REFUNDS_DE = "de/abrechnung/rueckerstattung.md";
const TWO_FACTOR = "en/account/two-factor-authentication.md";
const OFFLINE = "en/sync/offline-mode.md";

/** relevantDocs is exactly the docs judged 1–3 (the lint's rule), so it is derived, never typed twice. */
function judged(q: Omit<Query, "relevantDocs">): Query {
  return { ...q, relevantDocs: Object.keys(q.judgments).filter((doc) => q.judgments[doc]! >= 1) } as Query;
}

const QUERIES: readonly Query[] = [
  judged({
    id: "q-001",
    query: "refund yearly plan",
    language: "en",
    category: "keyword",
    judgments: { [REFUNDS_EN]: 3, [REFUNDS_DE]: 3, [OFFLINE]: 0 },
    note: "Keyword query; the refund article in both languages answers it.",
  }),
  judged({
    id: "q-002",
    query: "how do I get back into my account after losing my phone",
    language: "en",
    category: "paraphrase",
    judgments: { [TWO_FACTOR]: 3, [REFUNDS_EN]: 0 },
    note: "Shares no keyword with the answer's heading: recovery codes are the way back in.",
  }),
  judged({
    id: "q-003",
    query: "conflicted copy",
    language: "en",
    category: "identifier",
    identifier: "conflicted copy",
    judgments: { [OFFLINE]: 3 },
    note: "An exact phrase that occurs in one document only.",
  }),
  judged({
    id: "q-004",
    query: "Wie lange dauert eine Rückerstattung?",
    language: "de",
    category: "cross-language",
    judgments: { [REFUNDS_DE]: 3, [REFUNDS_EN]: 3, [TWO_FACTOR]: 0 },
    note: "German question; the English original of the article is as relevant as its translation.",
  }),
  judged({
    id: "q-005",
    query: "recovery codes and offline editing",
    language: "en",
    category: "multi-document",
    judgments: { [TWO_FACTOR]: 2, [OFFLINE]: 2 },
    note: "Each document answers one half.",
  }),
];

const ASK_CASES: readonly AskCase[] = [
  {
    id: "a-001",
    question: "Within how many days must I ask for a refund of a yearly plan?",
    language: "en",
    category: "answerable",
    expectedSubstrings: ["30 days"],
    expectedTopics: ["yearly plans are refunded in full", "monthly plans are not refunded"],
    mustCite: [REFUNDS_EN],
    note: "One fact from one document; the number must be stated and the refund article cited.",
  },
  {
    id: "a-002",
    question: "Wie lange dauert es, bis die Rückerstattung auf meiner Karte ist?",
    language: "de",
    category: "answerable",
    expectedSubstrings: ["5 bis 10 Werktagen"],
    mustCite: [REFUNDS_DE],
    note: "German question answered from the German translation (citing the English original counts too).",
  },
  {
    id: "a-003",
    question: "How many recovery codes do I get, and which notes can I edit offline?",
    language: "en",
    category: "multi-document",
    expectedSubstrings: ["8 recovery codes", "14 days"],
    mustCite: [TWO_FACTOR, OFFLINE],
    note: "Two facts from two documents: citing only one fails the question, naming the missing citation.",
  },
  {
    id: "a-004",
    question: "Why are monthly plans refunded within 30 days?",
    language: "en",
    category: "adversarial",
    expectedSubstrings: ["not refunded"],
    forbiddenSubstrings: ["monthly plans are refunded"],
    mustCite: [REFUNDS_EN],
    note: "False premise: the answer corrects it from the sources instead of going along.",
  },
  {
    id: "a-005",
    question: "What is the phone number of the Kestrel Notes support line?",
    language: "en",
    category: "off-corpus",
    expectedRefusal: true,
    note: "No document has a phone number: the only right answer is a refusal, without citations.",
  },
];

const TRANSLATIONS: readonly TranslationGroup[] = [{ id: "refunds", docs: [REFUNDS_EN, REFUNDS_DE] }];

const SCHEMAS = ["queries", "ask-cases", "translations", "refusal-markers"] as const;

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const jsonl = (records: readonly unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join("");

const README = `# Starter dataset (written by \`pnpm eval:init\`)

A small dataset in the suite's formats, to see them working before writing your own. Every file
passes the suite's fixture checks (fixtures/README.md describes the rules).

| file | what it is |
| --- | --- |
| \`corpus/<language>/**/*.md\` | the documents; a document's id is its path below \`corpus/\`, its language the top folder |
| \`queries.json\` | retrieval queries with graded judgments (3 answers fully … 0 judged not relevant); \`relevantDocs\` is exactly the docs judged 1–3 |
| \`ask-cases.json\` | answer cases: facts the answer must state (\`expectedSubstrings\`, each in a \`mustCite\` doc), documents it must cite, topics, text it must not contain, or a refusal |
| \`translations.json\` | documents that are translations of each other (citing either counts) |
| \`refusal-markers.json\` | phrases that mark a free-text answer as a refusal, per language; add your model's |
| \`schemas/\` | the JSON Schemas the files name in \`$schema\`, so an editor checks them as you type |
| \`corpus.jsonl\`, \`queries.jsonl\`, \`qrels/test.tsv\` | the same documents and judgments in the BEIR format |

Run the retrieval evals on it: \`EVAL_DATASET=<this folder> pnpm eval search\` (a new dataset has no
floors yet: the run says NOT GATED until \`--update-baseline\` sets them). The answer evals run on
the project's fixtures; to measure answers on your own data, replace \`fixtures/\` with a folder in
this format.
`;

/** The files of the starter dataset: path relative to the folder → content. */
export function starterFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const doc of DOCS) files.set(join("corpus", doc.id), `# ${doc.title}\n\n${doc.body}\n`);
  files.set("queries.json", json({ $schema: "./schemas/queries.schema.json", version: 1, queries: QUERIES }));
  files.set("ask-cases.json", json({ $schema: "./schemas/ask-cases.schema.json", version: 1, cases: ASK_CASES }));
  files.set("translations.json", json({ $schema: "./schemas/translations.schema.json", version: 1, groups: TRANSLATIONS }));
  files.set("corpus.jsonl", jsonl(DOCS.map((d) => ({ _id: d.id, title: d.title, text: d.body }))));
  files.set("queries.jsonl", jsonl(QUERIES.map((q) => ({ _id: q.id, text: q.query }))));
  const qrels = QUERIES.flatMap((q) => Object.entries(q.judgments).map(([doc, grade]) => `${q.id}\t${doc}\t${grade}`));
  files.set(join("qrels", "test.tsv"), `query-id\tcorpus-id\tscore\n${qrels.join("\n")}\n`);
  files.set("README.md", README);
  return files;
}

/** A folder that cannot take the starter dataset; the CLI prints it as one line and exits 2. */
export class StarterFolderError extends Error {
  override readonly name = "StarterFolderError";
}

/** What the fixture checks found in a written folder. */
export interface StarterCheck {
  documents: number;
  queries: number;
  askCases: number;
  translationGroups: number;
  refusalLanguages: number;
  beirJudgedQueries: number;
}

/** Writes the starter dataset into `folder` (created; it must not hold anything yet), then checks it. */
export function writeStarterDataset(folder: string): StarterCheck {
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new StarterFolderError(
      `${folder} is not empty; eval:init writes only into a new or empty folder, so nothing of yours is overwritten`,
    );
  }
  for (const [path, content] of starterFiles()) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  // The repo's markers and schemas are copied, not restated: the user extends the current ones.
  copyFileSync(join(FIXTURES_DIR, "refusal-markers.json"), join(folder, "refusal-markers.json"));
  mkdirSync(join(folder, "schemas"), { recursive: true });
  for (const name of SCHEMAS)
    copyFileSync(join(FIXTURES_DIR, "schemas", `${name}.schema.json`), join(folder, "schemas", `${name}.schema.json`));
  return checkStarterDataset(folder);
}

/** Loads a folder in the fixture format through the suite's checks (schema and lint of every file, the BEIR reader). Throws FixtureError / FormatError. */
export function checkStarterDataset(folder: string): StarterCheck {
  const location = { dir: folder };
  const beir = readBeirDataset(folder);
  return {
    documents: listCorpusDocs(join(folder, "corpus")).length,
    queries: loadQueries(location).length,
    askCases: loadAskCases(location).length,
    translationGroups: loadTranslations(location).length,
    refusalLanguages: Object.keys(loadRefusalMarkers(location)).length,
    beirJudgedQueries: beir.qrels.topics.size,
  };
}
