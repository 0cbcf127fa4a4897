/**
 * How the offline drafter asks, per language: the question words and frames it puts around a
 * passage's own words. A question is the passage's clause with the answer replaced in place by a
 * question phrase ("… has how many GB of storage?", "… wurde in welchem Jahr veröffentlicht?"),
 * after the document it comes from ("According to “Plans and prices” (Free): …"), so that it is
 * answerable from that document alone and never states its answer. A frame names the document; a
 * reviewer who wants questions without that hint edits them (docs/evals.md, the drafter's rules).
 *
 * English, German, French and Italian: the fixtures' languages (CISI is English). A document in
 * another language gets retrieval drafts only, and the run says how many documents that was.
 */

export type IdentifierKind = "code" | "file" | "setting" | "version";
export type DatePhrase = "on" | "in" | "since" | "until" | "from" | "none";

export interface Phrasing {
  /** `According to “T” (H): ` — the document and section a question is asked of ("" without a title). */
  frame(title: string | null, heading: string | null): string;
  /** A frame and a clause made one question. */
  question(frame: string, clause: string): string;
  /** The question phrase replacing a count of `unit` (`how many days`), a sum of money, a share, or a bare count before `next`. */
  howMany(unit: string): string;
  howMuch: string;
  percentage: string;
  bareCount(next: string): string;
  /** The question phrase replacing a year, and a date after each kind of preposition. */
  year: string;
  date: Record<DatePhrase, string>;
  /** Prepositions before a date or year, by the phrase they take (lower case). */
  datePrepositions: Record<string, DatePhrase | "year">;
  /** The question phrase replacing an identifier of a kind. */
  identifier: Record<IdentifierKind, string>;
  /** "<which code> stands for “<meaning>”" — an identifier named by what it means. */
  standsFor(kind: IdentifierKind, meaning: string): string;
  /** Determiners a defined term may start with (lower case). */
  articles: ReadonlySet<string>;
  /** "What is <term>?" of a document. */
  whatIs(term: string, title: string | null): string;
  /** "What holds for <label>?" of a labelled list item. */
  aboutLabel(label: string, title: string | null, heading: string | null): string;
  /** "What is step <n> of <heading>?" */
  step(n: number, title: string | null, heading: string | null): string;
  /** Words that are a unit after a number (lower case). */
  units: ReadonlySet<string>;
  /** Month names (lower case), for dates written out. */
  months: readonly string[];
  /** Verbs and articles of a definition sentence: `<term> <verb> <article> …`. */
  definition: RegExp;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(" "));
const STORAGE = "gb tb mb kb ms";

const en: Phrasing = {
  frame: (title, heading) => (title ? `According to “${title}”${heading ? ` (${heading})` : ""}: ` : heading ? `${heading}: ` : ""),
  question: (frame, clause) => `${frame}${clause}?`,
  howMany: (unit) => `how many ${unit}`,
  howMuch: "how much",
  percentage: "what percentage",
  bareCount: () => "how many",
  year: "what year",
  date: { on: "on what date", in: "when", since: "since when", until: "until when", from: "from when", none: "when" },
  datePrepositions: { on: "on", in: "in", since: "since", until: "until", by: "until", from: "from", before: "until", after: "from" },
  identifier: { code: "which code", file: "which file", setting: "which setting", version: "which version" },
  standsFor: (kind, meaning) => `${en.identifier[kind]} stands for “${meaning}”`,
  articles: words("a an the"),
  whatIs: (term, title) => (title ? `According to “${title}”, what is ${term}?` : `What is ${term}?`),
  aboutLabel: (label, title, heading) => `${en.frame(title, heading)}what holds for “${label}”?`,
  step: (n, title, heading) => `${title ? `In “${title}”, what` : "What"} is step ${n}${heading ? ` of “${heading}”` : ""}?`,
  units: words(
    `${STORAGE} day days hour hours minute minutes second seconds week weeks month months year years user users seat seats device devices character characters request requests people person member members file files version versions times language languages business copies editions items documents libraries titles journals articles references pages`,
  ),
  months: "january february march april may june july august september october november december".split(" "),
  definition: /^((?:(?:an?|the)\s+)?[^\s,;:]+(?:\s+[^\s,;:]+){0,4}?)\s+(?:is|are|means|refers to)\s+(?:an?|the|one)\s+/i,
};

const de: Phrasing = {
  frame: (title, heading) => (title ? `Laut „${title}“${heading ? ` (${heading})` : ""}: ` : heading ? `${heading}: ` : ""),
  question: (frame, clause) => `${frame}${clause}?`,
  howMany: (unit) => `wie viele ${unit}`,
  howMuch: "wie viel",
  percentage: "wie viel Prozent",
  bareCount: () => "wie viele",
  year: "welchem Jahr",
  date: { on: "an welchem Datum", in: "wann", since: "seit wann", until: "bis wann", from: "ab wann", none: "wann" },
  datePrepositions: { am: "on", an: "on", im: "in", in: "in", seit: "since", bis: "until", ab: "from", vor: "until", nach: "from" },
  identifier: { code: "welcher Code", file: "welche Datei", setting: "welche Einstellung", version: "welche Version" },
  standsFor: (kind, meaning) => `${de.identifier[kind]} steht für „${meaning}“`,
  articles: words("ein eine der die das"),
  whatIs: (term, title) => (title ? `Was ist laut „${title}“ ${term}?` : `Was ist ${term}?`),
  aboutLabel: (label, title, heading) => `${de.frame(title, heading)}Was gilt für „${label}“?`,
  step: (n, title, heading) => `Was ist ${title ? `in „${title}“ ` : ""}Schritt ${n}${heading ? ` von „${heading}“` : ""}?`,
  units: words(
    `${STORAGE} tag tage tagen stunde stunden minute minuten sekunde sekunden woche wochen monat monate monaten jahr jahre jahren nutzer benutzer personen gerät geräte geräten zeichen anfragen mitglieder dateien werktage werktagen versionen mal sprachen plätze lizenzen`,
  ),
  months: "januar februar märz april mai juni juli august september oktober november dezember".split(" "),
  definition:
    /^((?:(?:ein|eine|der|die|das)\s+)?[^\s,;:]+(?:\s+[^\s,;:]+){0,4}?)\s+(?:ist|sind|bedeutet|bezeichnet)\s+(?:ein|eine|einer|der|die|das)\s+/i,
};

const fr: Phrasing = {
  frame: (title, heading) => (title ? `D’après « ${title} »${heading ? ` (${heading})` : ""} : ` : heading ? `${heading} : ` : ""),
  question: (frame, clause) => `${frame}${clause} ?`,
  howMany: (unit) => `combien ${/^[aeiouéèêhœ]/i.test(unit) ? "d’" : "de "}${unit}`,
  howMuch: "combien",
  percentage: "quel pourcentage",
  bareCount: (next) => `combien ${/^[aeiouéèêhœ]/i.test(next) ? "d’" : "de"}`,
  year: "quelle année",
  date: { on: "à quelle date", in: "quand", since: "depuis quand", until: "jusqu’à quand", from: "à partir de quand", none: "quand" },
  datePrepositions: {
    le: "on",
    en: "year",
    depuis: "since",
    "jusqu’au": "until",
    "jusqu'au": "until",
    avant: "until",
    après: "from",
    dès: "from",
  },
  identifier: { code: "quel code", file: "quel fichier", setting: "quel paramètre", version: "quelle version" },
  standsFor: (kind, meaning) => `${fr.identifier[kind]} correspond à « ${meaning} »`,
  articles: words("un une le la l’ l' les"),
  whatIs: (term, title) => `${title ? `D’après « ${title} », q` : "Q"}u’est-ce ${/^[aeiouéèêhœ]/i.test(term) ? "qu’" : "que "}${term} ?`,
  aboutLabel: (label, title, heading) => `${fr.frame(title, heading)}qu’en est-il de « ${label} » ?`,
  step: (n, title, heading) => `${title ? `Dans « ${title} », q` : "Q"}uelle est l’étape ${n}${heading ? ` de « ${heading} »` : ""} ?`,
  units: words(
    `${STORAGE} go to mo jour jours heure heures minute minutes seconde secondes semaine semaines mois an ans année années utilisateur utilisateurs appareil appareils caractères requêtes personnes membres fichiers versions fois langues postes`,
  ),
  months: "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(" "),
  definition:
    /^((?:(?:un|une|le|la|l’|l'|les)\s*)?[^\s,;:]+(?:\s+[^\s,;:]+){0,4}?)\s+(?:est|sont|désigne)\s+(?:un|une|le|la|l’|l'|les)\s*/i,
};

const it: Phrasing = {
  frame: (title, heading) => (title ? `Secondo «${title}»${heading ? ` (${heading})` : ""}: ` : heading ? `${heading}: ` : ""),
  question: (frame, clause) => `${frame}${clause}?`,
  // Italian plurals: masculine in -i (giorni), feminine in -e (ore, persone).
  howMany: (unit) => `${/e$/i.test(unit) ? "quante" : "quanti"} ${unit}`,
  howMuch: "quanto",
  percentage: "quale percentuale",
  bareCount: (next) => (/e$/i.test(next) ? "quante" : "quanti"),
  year: "quale anno",
  date: { on: "in quale data", in: "quando", since: "da quando", until: "fino a quando", from: "da quando", none: "quando" },
  datePrepositions: { il: "on", nel: "year", dal: "since", dalla: "since", entro: "until", fino: "until", prima: "until", dopo: "from" },
  identifier: { code: "quale codice", file: "quale file", setting: "quale impostazione", version: "quale versione" },
  standsFor: (kind, meaning) => `${it.identifier[kind]} corrisponde a «${meaning}»`,
  articles: words("un una uno il lo la l’ l' i gli le"),
  whatIs: (term, title) => (title ? `Secondo «${title}», che cos’è ${term}?` : `Che cos’è ${term}?`),
  aboutLabel: (label, title, heading) => `${it.frame(title, heading)}che cosa vale per «${label}»?`,
  step: (n, title, heading) => `${title ? `In «${title}», q` : "Q"}ual è il passaggio ${n}${heading ? ` di «${heading}»` : ""}?`,
  units: words(
    `${STORAGE} giorno giorni ora ore minuto minuti secondo secondi settimana settimane mese mesi anno anni utente utenti dispositivo dispositivi caratteri richieste persone membri file versioni volte lingue postazioni`,
  ),
  months: "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(" "),
  definition:
    /^((?:(?:un|una|uno|il|lo|la|l’|l'|i|gli|le)\s*)?[^\s,;:]+(?:\s+[^\s,;:]+){0,4}?)\s+(?:è|sono|indica)\s+(?:un|una|uno|il|lo|la|l’|l'|i|gli|le)\s*/i,
};

/** The languages the offline drafter asks in. */
export const PHRASINGS: Readonly<Record<string, Phrasing>> = { en, de, fr, it };

export function phrasingFor(language: string | undefined): Phrasing | undefined {
  return language ? PHRASINGS[language.toLowerCase().split(/[-_]/)[0]!] : undefined;
}
