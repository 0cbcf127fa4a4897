/**
 * Questions the corpus does not answer: the drafter's `off-corpus` cases, which expect a refusal.
 * Each is a question frame of a kind of topic ("What does <animal> eat?") asked of a topic far
 * from what help centres and library science write about — places, dishes, animals, sports,
 * instruments, natural phenomena — in each language the drafter asks in; a question is kept only
 * when none of its topic's words occurs in any document of the corpus (matched as the graders match
 * a fact, scorers/text/contains-fact.ts): a corpus about volcanoes loses the volcano questions.
 * That is a check on words, not on meaning: a document that answers the question in other words is
 * not seen, which is one reason a person reviews every draft.
 */
import { factsIn } from "../../scorers/text/contains-fact.js";

export interface OffCorpusQuestion {
  question: string;
  /** Words naming the topic: none may occur in the corpus. */
  topic: string[];
}

type Kind = "place" | "dish" | "animal" | "sport" | "instrument" | "nature";

/** A topic as each language names it in a question, and the words that name it. */
interface Topic {
  kind: Kind;
  name: string;
  words: string[];
}

const FRAMES: Record<string, Record<Kind, Array<(t: string) => string>>> = {
  en: {
    place: [
      (t) => `What is the climate like in ${t}?`,
      (t) => `How many people live in ${t}?`,
      (t) => `Which languages are spoken in ${t}?`,
    ],
    dish: [(t) => `How is ${t} made?`, (t) => `Which spices go into ${t}?`, (t) => `Where does ${t} come from?`],
    animal: [(t) => `What does ${t} eat?`, (t) => `How long does ${t} live?`, (t) => `Where does ${t} spend the winter?`],
    sport: [
      (t) => `How many players are on a team in ${t}?`,
      (t) => `How long does a match of ${t} last?`,
      (t) => `Where is the ${t} world championship held?`,
    ],
    instrument: [
      (t) => `How is ${t} tuned?`,
      (t) => `How many strings or keys does ${t} have?`,
      (t) => `Which famous composers wrote for ${t}?`,
    ],
    nature: [(t) => `What causes ${t}?`, (t) => `How can ${t} be predicted?`, (t) => `Where on Earth is ${t} most common?`],
  },
  de: {
    place: [(t) => `Wie ist das Klima in ${t}?`, (t) => `Wie viele Menschen leben in ${t}?`, (t) => `Welche Sprachen spricht man in ${t}?`],
    dish: [(t) => `Wie bereitet man ${t} zu?`, (t) => `Welche Gewürze gehören in ${t}?`, (t) => `Woher stammt ${t}?`],
    animal: [(t) => `Was frisst ${t}?`, (t) => `Wie alt wird ${t}?`, (t) => `Wo verbringt ${t} den Winter?`],
    sport: [
      (t) => `Wie viele Spieler hat eine Mannschaft beim ${t}?`,
      (t) => `Wie lange dauert ein Spiel beim ${t}?`,
      (t) => `Wo findet die Weltmeisterschaft im ${t} statt?`,
    ],
    instrument: [
      (t) => `Wie stimmt man ${t}?`,
      (t) => `Wie viele Saiten oder Tasten hat ${t}?`,
      (t) => `Welche Komponisten schrieben für ${t}?`,
    ],
    nature: [(t) => `Wodurch entsteht ${t}?`, (t) => `Wie lässt sich ${t} vorhersagen?`, (t) => `Wo auf der Erde ist ${t} am häufigsten?`],
  },
  fr: {
    place: [
      (t) => `Quel est le climat ${t} ?`,
      (t) => `Combien d’habitants compte la région ${t} ?`,
      (t) => `Quelles langues parle-t-on dans la région ${t} ?`,
    ],
    dish: [(t) => `Comment prépare-t-on ${t} ?`, (t) => `Quelles épices met-on dans ${t} ?`, (t) => `D’où vient ${t} ?`],
    animal: [(t) => `Que mange ${t} ?`, (t) => `Combien de temps vit ${t} ?`, (t) => `Dans quels milieux vit ${t} ?`],
    sport: [
      (t) => `Combien de joueurs compte une équipe ${t} ?`,
      (t) => `Combien de temps dure un match ${t} ?`,
      (t) => `Où se joue la coupe du monde ${t} ?`,
    ],
    instrument: [
      (t) => `Comment accorde-t-on ${t} ?`,
      (t) => `Combien de cordes ou de touches compte ${t} ?`,
      (t) => `Quels compositeurs ont écrit pour ${t} ?`,
    ],
    nature: [
      (t) => `Quelle est la cause ${t} ?`,
      (t) => `Quels sont les signes annonciateurs ${t} ?`,
      (t) => `Quelle est la durée moyenne ${t} ?`,
    ],
  },
  it: {
    place: [
      (t) => `Com’è il clima ${t}?`,
      (t) => `Quanti abitanti ha la regione ${t}?`,
      (t) => `Quali lingue si parlano nel territorio ${t}?`,
    ],
    dish: [(t) => `Come si prepara ${t}?`, (t) => `Quali spezie servono per preparare ${t}?`, (t) => `Da dove viene ${t}?`],
    animal: [(t) => `Che cosa mangia ${t}?`, (t) => `Quanto vive ${t}?`, (t) => `Dove passa l’inverno ${t}?`],
    sport: [
      (t) => `Quanti giocatori ha una squadra ${t}?`,
      (t) => `Quanto dura una partita ${t}?`,
      (t) => `Dove si gioca la coppa del mondo ${t}?`,
    ],
    instrument: [
      (t) => `Come si accorda ${t}?`,
      (t) => `Quante corde o tasti ha ${t}?`,
      (t) => `Quali compositori hanno scritto per ${t}?`,
    ],
    nature: [(t) => `Che cosa causa ${t}?`, (t) => `Come si può prevedere ${t}?`, (t) => `Dove è più frequente ${t} sulla Terra?`],
  },
};

// Each topic as the language's frames take it (French and Italian frames take "de …"/"del …" forms).
const TOPICS: Record<string, Topic[]> = {
  en: [
    ...places(["Patagonia", "Tasmania", "the Atacama Desert", "Lapland", "the Faroe Islands", "Madagascar", "Kamchatka", "the Azores"]),
    ...dishes(["paella", "goulash", "ratatouille", "risotto alla milanese", "moussaka", "pad thai", "borscht", "tiramisu"]),
    ...animals([
      "the snow leopard",
      "the axolotl",
      "the emperor penguin",
      "the red fox",
      "the humpback whale",
      "the barn owl",
      "the koala",
      "the monarch butterfly",
    ]),
    ...sports(["water polo", "curling", "cricket", "lacrosse", "handball", "rugby union", "field hockey", "volleyball"]),
    ...instruments(["the harp", "the cello", "the bagpipes", "the accordion", "the sitar", "the oboe", "the harpsichord", "the ukulele"]),
    ...natures([
      "a volcanic eruption",
      "a tsunami",
      "the aurora borealis",
      "a monsoon",
      "a tornado",
      "a hailstorm",
      "a solar eclipse",
      "an earthquake",
    ]),
  ],
  de: [
    ...places(["Patagonien", "Tasmanien", "der Atacama-Wüste", "Lappland", "den Färöer-Inseln", "Madagaskar", "Kamtschatka", "den Azoren"]),
    ...dishes(["Paella", "Gulasch", "Ratatouille", "Risotto alla milanese", "Moussaka", "Pad Thai", "Borschtsch", "Tiramisu"]),
    ...animals([
      "der Schneeleopard",
      "der Axolotl",
      "der Kaiserpinguin",
      "der Rotfuchs",
      "der Buckelwal",
      "die Schleiereule",
      "der Koala",
      "der Monarchfalter",
    ]),
    ...sports(["Wasserball", "Curling", "Cricket", "Lacrosse", "Handball", "Rugby", "Feldhockey", "Volleyball"]),
    ...instruments(["die Harfe", "das Cello", "der Dudelsack", "das Akkordeon", "die Sitar", "die Oboe", "das Cembalo", "die Ukulele"]),
    ...natures([
      "ein Vulkanausbruch",
      "ein Tsunami",
      "das Polarlicht",
      "der Monsun",
      "ein Tornado",
      "ein Hagelsturm",
      "eine Sonnenfinsternis",
      "ein Erdbeben",
    ]),
  ],
  fr: [
    ...places([
      "de la Patagonie",
      "de la Tasmanie",
      "du désert d’Atacama",
      "de la Laponie",
      "des îles Féroé",
      "de Madagascar",
      "du Kamtchatka",
      "des Açores",
    ]),
    ...dishes([
      "la paella",
      "le goulasch",
      "la ratatouille",
      "le risotto à la milanaise",
      "la moussaka",
      "le pad thaï",
      "le bortsch",
      "le tiramisu",
    ]),
    ...animals([
      "le léopard des neiges",
      "l’axolotl",
      "le manchot empereur",
      "le renard roux",
      "la baleine à bosse",
      "la chouette effraie",
      "le koala",
      "le papillon monarque",
    ]),
    ...sports([
      "de water-polo",
      "de curling",
      "de cricket",
      "de crosse",
      "de handball",
      "de rugby",
      "de hockey sur gazon",
      "de volley-ball",
    ]),
    ...instruments(["la harpe", "le violoncelle", "la cornemuse", "l’accordéon", "le sitar", "le hautbois", "le clavecin", "le ukulélé"]),
    ...natures([
      "d’une éruption volcanique",
      "d’un tsunami",
      "d’une aurore boréale",
      "de la mousson",
      "d’une tornade",
      "d’un orage de grêle",
      "d’une éclipse solaire",
      "d’un séisme",
    ]),
  ],
  it: [
    ...places([
      "della Patagonia",
      "della Tasmania",
      "del deserto di Atacama",
      "della Lapponia",
      "delle isole Fær Øer",
      "del Madagascar",
      "della Kamčatka",
      "delle Azzorre",
    ]),
    ...dishes([
      "la paella",
      "il gulasch",
      "la ratatouille",
      "il risotto alla milanese",
      "la moussaka",
      "il pad thai",
      "il borscht",
      "il tiramisù",
    ]),
    ...animals([
      "il leopardo delle nevi",
      "l’axolotl",
      "il pinguino imperatore",
      "la volpe rossa",
      "la megattera",
      "il barbagianni",
      "il koala",
      "la farfalla monarca",
    ]),
    ...sports([
      "di pallanuoto",
      "di curling",
      "di cricket",
      "di lacrosse",
      "di pallamano",
      "di rugby",
      "di hockey su prato",
      "di pallavolo",
    ]),
    ...instruments(["l’arpa", "il violoncello", "la cornamusa", "la fisarmonica", "il sitar", "l’oboe", "il clavicembalo", "l’ukulele"]),
    ...natures([
      "un’eruzione vulcanica",
      "uno tsunami",
      "l’aurora boreale",
      "il monsone",
      "un tornado",
      "una grandinata",
      "un’eclissi solare",
      "un terremoto",
    ]),
  ],
};

/** A topic's words: the name without its articles and prepositions (what must not occur in the corpus). */
function topicWords(name: string): string[] {
  let word = name;
  for (let before = ""; before !== word; ) {
    before = word;
    word = word.replace(
      /^(?:(?:the|a|an|der|die|das|den|ein|eine|le|la|les|un|une|de la|de|du|des|il|lo|gli|uno|una|della|del|delle|di)\s+|l’|d’|un’)/i,
      "",
    );
  }
  return [word];
}

function topics(kind: Kind, names: string[]): Topic[] {
  return names.map((name) => ({ kind, name, words: topicWords(name) }));
}
function places(names: string[]): Topic[] {
  return topics("place", names);
}
function dishes(names: string[]): Topic[] {
  return topics("dish", names);
}
function animals(names: string[]): Topic[] {
  return topics("animal", names);
}
function sports(names: string[]): Topic[] {
  return topics("sport", names);
}
function instruments(names: string[]): Topic[] {
  return topics("instrument", names);
}
function natures(names: string[]): Topic[] {
  return topics("nature", names);
}

const KINDS: readonly Kind[] = ["place", "dish", "animal", "sport", "instrument", "nature"];

/**
 * Every question of the pool in `language`: each topic asked with each frame of its kind, in an
 * order that varies what is asked — frames first, kinds taking turns within a frame — and starts
 * each language at another topic, so a few drafts in four languages are not one question four times.
 */
export function offCorpusPool(language: string): OffCorpusQuestion[] {
  const frames = FRAMES[language];
  const list = TOPICS[language];
  if (!frames || !list) return [];
  const byKind = KINDS.map((kind) => list.filter((t) => t.kind === kind));
  const turns: Topic[] = [];
  for (let i = 0; turns.length < list.length; i++) for (const topics of byKind) if (i < topics.length) turns.push(topics[i]!);
  const shift = (Object.keys(TOPICS).indexOf(language) * 7) % turns.length;
  const rotated = [...turns.slice(shift), ...turns.slice(0, shift)];
  const out: OffCorpusQuestion[] = [];
  for (let f = 0; f < 3; f++)
    for (const t of rotated) {
      const frame = frames[t.kind][f];
      if (frame) out.push({ question: capitalized(frame(t.name)), topic: t.words });
    }
  return out;
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The pool's questions in `language` none of whose topic words occurs in any of `texts`. */
export function offCorpusQuestions(language: string, texts: ReadonlyArray<(fact: string) => boolean>): OffCorpusQuestion[] {
  const covered = new Map<string, boolean>();
  const isCovered = (word: string): boolean => {
    let known = covered.get(word);
    if (known === undefined) covered.set(word, (known = texts.some((has) => has(word))));
    return known;
  };
  return offCorpusPool(language).filter((q) => !q.topic.some(isCovered));
}

/** A fact test per document text (scorers/text/contains-fact.ts), computed once for all the pool's words. */
export function factTests(texts: readonly string[]): Array<(fact: string) => boolean> {
  return texts.map((text) => factsIn(text));
}
