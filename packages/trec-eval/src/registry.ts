/**
 * The measure registry: one entry per measure family, in trec_eval 10.0's print order
 * (measures.c), followed by our own additions. The CLI's help, its -m parsing and
 * docs/metrics.md are all generated from this table.
 *
 * Entry contract: `id` is the trec_eval name (output lines are `id` or `id_<param>`);
 * `describe` is the definition; `params`/`defaults` say what `-m id.<params>` accepts;
 * `compute` turns one topic's JudgedRanking into one value per output name; `summary` says how
 * the `all` line is formed (see aggregate.ts); `perTopic` whether `-q` prints a per-topic line.
 */
import { averagePrecision, averagePrecisionCut } from "./average-precision.js";
import { quote } from "./formats/format-error.js";
import { bpref } from "./bpref.js";
import { counts, positiveJudgments } from "./counts.js";
import type { ParamPair } from "./gain-table.js";
import { infAp } from "./inf-ap.js";
import { elevenPointAverage, interpolatedPrecision } from "./interpolated-precision.js";
import {
  CUTOFF,
  describeRange,
  MeasureSpecError,
  type MeasureRequest,
  type PairRules,
  type ParamSpec,
  parseCutoffs,
  parseLevels,
  parseNumbers,
  parsePairs,
} from "./measure-spec.js";
import { ndcg, ndcgExp } from "./ndcg.js";
import { ndcgCut } from "./ndcg-cut.js";
import { ndcgRel } from "./ndcg-rel.js";
import { binaryNormalizedGain, normalizedGain } from "./normalized-gain.js";
import { precision, relativePrecision } from "./precision.js";
import { formatFixedWidth } from "./printf.js";
import { rPrecision, rPrecisionMult } from "./r-precision.js";
import { rbp, rbpResid } from "./rbp.js";
import { recall } from "./recall.js";
import { recipRank, recipRankCut } from "./recip-rank.js";
import { relstring } from "./relstring.js";
import { rndcg } from "./rndcg.js";
import { setMeasures } from "./set-measures.js";
import { success } from "./success.js";
import { type JudgedRanking, MAX_GRADE, type TopicQrels } from "./types.js";
import { unjudged } from "./unjudged.js";
import { utility } from "./utility.js";
import { yaap } from "./yaap.js";

/**
 * How `-m id.<text>` is read: `cutoffs` integers sorted (P.5,10); `levels` numbers sorted
 * (iprec_at_recall..1,.2); `numbers` numbers in order (utility.1,-1,0,0); `gains` name=value
 * pairs (ndcg.1=3,2=9); `none` takes no parameters.
 */
export type ParamKind = "none" | "cutoffs" | "levels" | "numbers" | "gains";

/** How per-topic values become the `all` line: see aggregate.ts. */
export type SummaryKind = "mean" | "geometric" | "sum" | "topics" | "runid" | "none";

export interface Params {
  /** Parsed numbers (cutoffs, levels or numbers kinds). */
  readonly numbers: readonly number[];
  /** Parsed pairs (gains kind). */
  readonly pairs: readonly ParamPair[];
}

export interface EvalContext {
  /** Documents in the collection (trec_eval -N), used by utility. @default 0 */
  readonly numDocsInCollection: number;
}

export interface Measure {
  readonly id: string;
  /** Definition and conventions, printed by `trec-eval -h` and in docs/metrics.md. */
  readonly describe: string;
  readonly params: ParamKind;
  /** Default parameter text in -m syntax, or null. @example "5,10,15,20,30,100,200,500,1000" */
  readonly defaults: string | null;
  /**
   * What each value of a `levels` or `numbers` measure stands for and its range (cut-offs all
   * share CUTOFF). trec_eval takes any number; out of the range it prints nonsense, so we refuse.
   */
  readonly param?: ParamSpec;
  /** Named `name=value` parameters a `gains` measure reads besides grade=gain (rbp: p). */
  readonly named?: Readonly<Record<string, ParamSpec>>;
  /** `float` prints %6.4f, `count` prints an integer, `string` prints '…'. */
  readonly value: "float" | "count" | "string";
  readonly perTopic: boolean;
  readonly summary: SummaryKind;
  /** For a judged topic missing from the run under -c: trec_eval 10.0 zeroes these measures. */
  readonly placeholder?: "zero";
  /**
   * Under -c, trec_eval recomputes this measure's `all` value from the whole qrels instead of
   * aggregating the per-topic values (num_rel only: its own calc_avg hook).
   */
  readonly completeSummary?: (topics: Iterable<TopicQrels>) => number;
  /** Where the definition comes from: trec_eval 10.0, or an addition of ours. */
  readonly origin: "trec_eval" | "ours";
  readonly compute: (judged: JudgedRanking, params: Params, ctx: EvalContext) => Array<number | string>;
}

const CUTOFFS = "5,10,15,20,30,100,200,500,1000";
/** A recall level is a fraction of the relevant documents. */
const RECALL_LEVEL: ParamSpec = { what: "recall level", range: { min: 0, max: 1 } };
/** RBP's persistence: p = 1 would make (1 - p) sum 0 whatever the ranking; above 1 it goes negative. */
const PERSISTENCE: Readonly<Record<string, ParamSpec>> = { p: { what: "persistence", range: { min: 0, max: 1, belowMax: true } } };
/** A grade=gain gain: any finite number (trec_eval rescales rbp's, ndcg takes them as given). */
const GAIN: ParamSpec = { what: "gain", range: { min: -Infinity, max: Infinity } };
const TIES = "Ranking: score desc, ties by docId desc (bytes); rank column ignored.";

/** A registry entry; fields left out take the common values: no params, float, per topic, mean, trec_eval. */
function measure(m: Pick<Measure, "id" | "describe" | "compute"> & Partial<Measure>): Measure {
  return { params: "none", defaults: null, value: "float", perTopic: true, summary: "mean", origin: "trec_eval", ...m };
}

export const MEASURES: readonly Measure[] = [
  measure({
    id: "runid",
    describe: "Run tag from the last line of the run file. Summary line only.",
    value: "string",
    perTopic: false,
    summary: "runid",
    compute: () => [],
  }),
  measure({
    id: "num_q",
    describe: "Number of topics averaged over: judged topics present in the run, or every judged topic with -c. Summary line only.",
    value: "count",
    perTopic: false,
    summary: "topics",
    compute: () => [1],
  }),
  measure({
    id: "num_ret",
    describe: "Documents retrieved (after -M). Summary: sum over topics.",
    value: "count",
    summary: "sum",
    placeholder: "zero",
    compute: (j) => [counts(j).numRet],
  }),
  measure({
    id: "num_rel",
    describe:
      "Judged documents with grade >= level (-l, default 1), retrieved or not. Summary: sum; with -c, as trec_eval, the count of judgments with grade > 0 in every judged topic, whatever -l.",
    value: "count",
    summary: "sum",
    completeSummary: positiveJudgments,
    compute: (j) => [counts(j).numRel],
  }),
  measure({
    id: "num_rel_ret",
    describe: "Relevant documents retrieved. Summary: sum.",
    value: "count",
    summary: "sum",
    compute: (j) => [counts(j).numRelRet],
  }),
  measure({
    id: "map",
    describe: `Average precision: sum of P@rank over relevant retrieved docs / R (all judged-relevant docs). No relevant docs: 0. Summary: mean (MAP). ${TIES}`,
    compute: (j) => [averagePrecision(j)],
  }),
  measure({
    id: "gm_map",
    describe: "Average precision averaged with a geometric mean: exp(mean(log(max(AP, 0.00001)))). Summary line only.",
    perTopic: false,
    summary: "geometric",
    compute: (j) => [averagePrecision(j)],
  }),
  measure({
    id: "Rprec",
    describe:
      "Precision after R docs, R = judged-relevant docs of the topic; fewer than R retrieved still divides by R. No relevant docs: 0.",
    compute: (j) => [rPrecision(j)],
  }),
  measure({
    id: "bpref",
    describe:
      "Binary preference: (1/R) sum over relevant retrieved of 1 - min(nonrel above, R)/min(N, R), N = judged non-relevant; unjudged docs skipped. No relevant docs: 0.",
    compute: (j) => [bpref(j)],
  }),
  measure({
    id: "recip_rank",
    describe: `1 / rank of the first relevant doc, over the whole ranking (no cut-off). None retrieved: 0. Summary: mean (MRR). ${TIES}`,
    compute: (j) => [recipRank(j)],
  }),
  measure({
    id: "iprec_at_recall",
    describe:
      "Interpolated precision at recall levels: max precision at or below the rank reaching round(level x R) relevant docs (trec_eval 10.0 rounding).",
    params: "levels",
    defaults: "0,.1,.2,.3,.4,.5,.6,.7,.8,.9,1",
    param: RECALL_LEVEL,
    compute: (j, p) => interpolatedPrecision(j, p.numbers),
  }),
  measure({
    id: "P",
    describe:
      "Precision at k: relevant in top k / k; k beyond the ranking still divides by k (4 relevant in 15 retrieved: P_20 = 0.2). No relevant docs: 0.",
    params: "cutoffs",
    defaults: CUTOFFS,
    compute: (j, p) => precision(j, p.numbers),
  }),
  measure({
    id: "relstring",
    describe: "The first N docs' grades as a string: 0-9, '>' above 9, '-' not judged, '.' negative judgment. Per topic only (-q).",
    params: "numbers",
    defaults: "10",
    // Fractions are truncated, as trec_eval's (long) cast does; the name keeps the text (relstring_2.5).
    param: { what: "length", range: { min: 1, max: Number.MAX_SAFE_INTEGER }, count: 1 },
    value: "string",
    summary: "none",
    placeholder: "zero",
    compute: (j, p) => [relstring(j, p.numbers[0] ?? 10)],
  }),
  measure({
    id: "recall",
    describe:
      "Recall at k: relevant in top k / R, R = all judged-relevant docs of the topic (not the retrieved ones). No relevant docs: 0.",
    params: "cutoffs",
    defaults: CUTOFFS,
    compute: (j, p) => recall(j, p.numbers),
  }),
  measure({
    id: "infAP",
    describe:
      "Inferred AP (Yilmaz & Aslam) for sampled judgments; negative judgments are 'pooled, unjudged'. Equals AP with complete judgments.",
    compute: (j) => [infAp(j)],
  }),
  measure({
    id: "gm_bpref",
    describe: "bpref averaged with a geometric mean: exp(mean(log(max(bpref, 0.00001)))). Summary line only.",
    perTopic: false,
    summary: "geometric",
    compute: (j) => [bpref(j)],
  }),
  measure({
    id: "Rprec_mult",
    describe: "Precision at cut-off trunc(m x R + 0.9) for each multiple m of R; beyond the ranking: relevant retrieved / cut-off.",
    params: "levels",
    defaults: "0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0",
    // m <= 0 gives a cut-off of 0 that no rank reaches (the value stays 0); up to 10000 the name
    // (%3.2f) prints whole, as trec_eval's fixed-size name buffer does.
    param: { what: "multiple of R", range: { min: 0, aboveMin: true, max: 10_000 } },
    compute: (j, p) => rPrecisionMult(j, p.numbers),
  }),
  measure({
    id: "utility",
    describe: "p1*relret + p2*nonrelret + p3*relnotret + p4*nonrelnotret (needs -N for p4). Not in [0,1].",
    params: "numbers",
    defaults: "1,-1,0,0",
    param: { what: "coefficient", range: { min: -Infinity, max: Infinity }, count: 4 },
    placeholder: "zero",
    compute: (j, p, ctx) => [utility(j, p.numbers, ctx.numDocsInCollection)],
  }),
  measure({
    id: "11pt_avg",
    describe: "Mean of interpolated precision over the given recall levels (default the 11 points 0, .1, ..., 1).",
    params: "numbers",
    defaults: "0,.1,.2,.3,.4,.5,.6,.7,.8,.9,1",
    param: RECALL_LEVEL,
    compute: (j, p) => [elevenPointAverage(j, p.numbers)],
  }),
  measure({
    id: "binG",
    describe: "Experimental: (1/R) sum over relevant retrieved of 1/log2(2 + nonrelevant above).",
    compute: (j) => [binaryNormalizedGain(j)],
  }),
  measure({
    id: "G",
    describe: "Experimental normalized gain combining MAP and nDCG ideas; gains = grade, overridable with grade=gain.",
    params: "gains",
    compute: (j, p) => [normalizedGain(j, p.pairs)],
  }),
  measure({
    id: "dcg",
    describe: "DCG over the whole ranking: sum of gain/log2(rank+1), gain = grade (overridable with grade=gain).",
    params: "gains",
    compute: (j, p) => [ndcg(j, p.pairs).dcg],
  }),
  measure({
    id: "ideal_dcg",
    describe: "DCG of the ideal ranking of all judged docs by gain (gain = grade, overridable with grade=gain).",
    params: "gains",
    compute: (j, p) => [ndcg(j, p.pairs).idcg],
  }),
  measure({
    id: "ndcg",
    describe:
      "nDCG over the whole ranking with LINEAR gain = judged grade (not 2^rel-1), discount log2(rank+1), ideal from all judged docs; ndcg.1=3,2=9 sets gains per grade. -l does not apply. No relevant docs: 0.",
    params: "gains",
    compute: (j, p) => [ndcg(j, p.pairs).ndcg],
  }),
  measure({
    id: "ndcg_rel",
    describe: "Experimental: nDCG averaged over the ranks of the relevant docs (unretrieved ones count the final nDCG).",
    params: "gains",
    compute: (j, p) => [ndcgRel(j, p.pairs)],
  }),
  measure({
    id: "Rndcg",
    describe: "Experimental: nDCG averaged at the boundaries between grade groups of the ideal ranking.",
    params: "gains",
    compute: (j, p) => [rndcg(j, p.pairs)],
  }),
  measure({
    id: "ndcg_cut",
    describe:
      "nDCG at k with LINEAR gain = judged grade, discount log2(rank+1), ideal from all judged docs with grade > 0; k beyond the ranking: DCG stops, IDCG does not. No relevant docs: 0.",
    params: "cutoffs",
    defaults: CUTOFFS,
    compute: (j, p) => ndcgCut(j, p.numbers, "linear"),
  }),
  measure({
    id: "map_cut",
    describe: "AP counting only the top k: sum of P@rank over relevant docs in top k / R. No relevant docs: 0.",
    params: "cutoffs",
    defaults: CUTOFFS,
    compute: (j, p) => averagePrecisionCut(j, p.numbers),
  }),
  measure({
    id: "relative_P",
    describe: "Relevant in top k / min(k, R): precision up to R, recall after. No relevant docs: 0.",
    params: "cutoffs",
    defaults: CUTOFFS,
    compute: (j, p) => relativePrecision(j, p.numbers),
  }),
  measure({
    id: "success",
    describe: "1 if a relevant doc is in the top k, else 0. No relevant docs: 0.",
    params: "cutoffs",
    defaults: "1,5,10",
    compute: (j, p) => success(j, p.numbers),
  }),
  measure({
    id: "set_P",
    describe: "Relevant retrieved / retrieved (whole retrieved set, no padding to a cut-off).",
    compute: (j) => [setMeasures(j).setP],
  }),
  measure({
    id: "set_relative_P",
    describe: "Relevant retrieved / min(retrieved, R).",
    compute: (j) => [setMeasures(j).setRelativeP],
  }),
  measure({
    id: "set_recall",
    describe: "Relevant retrieved / R.",
    compute: (j) => [setMeasures(j).setRecall],
  }),
  measure({
    id: "set_map",
    describe: "Relevant retrieved^2 / (retrieved x R): set precision times set recall.",
    compute: (j) => [setMeasures(j).setMap],
  }),
  measure({
    id: "set_F",
    describe: "(b+1)PR/(bP+R) of set precision and set recall; b default 1 (set_F.0.5).",
    params: "numbers",
    defaults: "1",
    // A negative beta can zero the denominator (bP + R) or flip its sign.
    param: { what: "beta", range: { min: 0, max: Infinity }, count: 1 },
    compute: (j, p) => [setMeasures(j, p.numbers[0] ?? 1).setF],
  }),
  measure({
    id: "num_nonrel_judged_ret",
    describe: "Retrieved docs judged with a grade below the level. Summary: sum.",
    value: "count",
    summary: "sum",
    compute: (j) => [counts(j).numNonrelJudgedRet],
  }),
  measure({
    id: "yaap",
    describe: "Yet another AP (Robertson): log((1 + S)/(1 + R - S)), S = AP numerator. Not in [0,1].",
    compute: (j) => [yaap(j)],
  }),
  measure({
    id: "rbp",
    describe: "Rank-biased precision (1-p) sum gain_i p^(i-1), p = 0.9 (rbp.p=0.95); gains = grade rescaled to [0,1] when outside it.",
    params: "gains",
    named: PERSISTENCE,
    compute: (j, p) => [rbp(j, p.pairs)],
  }),
  measure({
    id: "rbp_resid",
    describe: "RBP residual: how much RBP could rise if every unjudged retrieved doc were relevant (p as for rbp).",
    params: "gains",
    named: PERSISTENCE,
    placeholder: "zero",
    compute: (j, p) => [rbpResid(j, p.pairs)],
  }),
  measure({
    id: "unj",
    describe: "Fraction of the top k that is not judged (absent or negative judgment); divides by k.",
    params: "cutoffs",
    defaults: "5,10,20",
    placeholder: "zero",
    compute: (j, p) => unjudged(j, p.numbers),
  }),
  measure({
    id: "recip_rank_cut",
    describe: "Ours (not in trec_eval): 1/rank of the first relevant doc if within the top k, else 0 (MRR@k).",
    params: "cutoffs",
    defaults: CUTOFFS,
    origin: "ours",
    compute: (j, p) => recipRankCut(j, p.numbers),
  }),
  measure({
    id: "ndcg_exp",
    describe: "Ours (not in trec_eval): nDCG over the whole ranking with EXPONENTIAL gain 2^grade - 1.",
    origin: "ours",
    compute: (j) => [ndcgExp(j)],
  }),
  measure({
    id: "ndcg_exp_cut",
    describe: "Ours (not in trec_eval): nDCG at k with EXPONENTIAL gain 2^grade - 1 (the 'Burges' convention of many toolkits).",
    params: "cutoffs",
    defaults: CUTOFFS,
    origin: "ours",
    compute: (j, p) => ndcgCut(j, p.numbers, "exponential"),
  }),
];

/** Measure sets selectable by name, as trec_eval's nicknames (plus `all`, ours). */
export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  official: [
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
  ],
  set: ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P", "set_map", "set_F"],
  all_trec: [
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
    "relstring",
    "recall",
    "unj",
    "rbp",
    "rbp_resid",
    "infAP",
    "gm_bpref",
    "utility",
    "11pt_avg",
    "ndcg",
    "relative_P",
    "Rprec_mult",
    "success",
    "map_cut",
    "ndcg_cut",
    "ndcg_rel",
    "Rndcg",
    "binG",
    "G",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
  ],
  all: MEASURES.map((m) => m.id),
};

/** trec_eval measures we do not compute (preference and judgment-group formats). */
export const UNSUPPORTED_TREC_MEASURES: readonly string[] = [
  "prefs_num_prefs_poss",
  "prefs_num_prefs_ful",
  "prefs_num_prefs_ful_ret",
  "prefs_simp",
  "prefs_pair",
  "prefs_avgjg",
  "prefs_avgjg_Rnonrel",
  "prefs_simp_ret",
  "prefs_pair_ret",
  "prefs_avgjg_ret",
  "prefs_avgjg_Rnonrel_ret",
  "prefs_simp_imp",
  "prefs_pair_imp",
  "prefs_avgjg_imp",
  "map_avgjg",
  "P_avgjg",
  "Rprec_mult_avgjg",
];

/** A measure chosen for a run, with its parameters resolved and its output line names. */
export interface MeasureInstance {
  readonly measure: Measure;
  readonly params: Params;
  /** Names printed in column 1, one per computed value (e.g. P_5, P_10). */
  readonly names: readonly string[];
}

const BY_ID = new Map(MEASURES.map((m) => [m.id, m]));

export function supportedMeasureList(): string {
  return `${MEASURES.map((m) => m.id).join(", ")}; presets: ${Object.keys(PRESETS).join(", ")}`;
}

/**
 * Resolves `-m` requests to measure instances in registry (print) order. A measure named several
 * times is computed once; the first request that carries parameters decides them (trec_eval).
 * With no requests the `official` preset is used.
 */
export function resolveMeasures(requests: readonly MeasureRequest[]): MeasureInstance[] {
  const chosen = new Set<string>();
  const paramText = new Map<string, string>();
  for (const { name, params } of requests.length > 0 ? requests : [{ name: "official" }]) {
    const preset = PRESETS[name];
    if (preset) {
      if (params !== undefined) throw new MeasureSpecError(`preset '${name}' takes no parameters (got '${quote(`${name}.${params}`)}')`);
      for (const id of preset) chosen.add(id);
      continue;
    }
    if (!BY_ID.has(name)) {
      const why = UNSUPPORTED_TREC_MEASURES.includes(name)
        ? "needs a preference/judgment-group rel_info format we do not read"
        : "unknown measure";
      throw new MeasureSpecError(`unsupported measure '${quote(name)}' (${why}); supported: ${supportedMeasureList()}`);
    }
    chosen.add(name);
    if (params !== undefined && !paramText.has(name)) paramText.set(name, params);
  }
  return MEASURES.filter((m) => chosen.has(m.id)).map((m) => instantiate(m, paramText.get(m.id)));
}

function instantiate(measure: Measure, text: string | undefined): MeasureInstance {
  const { id } = measure;
  if (measure.params === "none") {
    if (text !== undefined) throw new MeasureSpecError(`measure '${id}' takes no parameters (got '${quote(`${id}.${text}`)}')`);
    return { measure, params: { numbers: [], pairs: [] }, names: [id] };
  }
  const source = text ?? measure.defaults;
  switch (measure.params) {
    case "cutoffs": {
      const numbers = parseCutoffs(source!, id);
      return { measure, params: { numbers, pairs: [] }, names: numbers.map((k) => `${id}_${k}`) };
    }
    case "levels": {
      const numbers = parseLevels(source!, id, paramSpec(measure));
      return { measure, params: { numbers, pairs: [] }, names: numbers.map((x) => `${id}_${formatFixedWidth(x, 3, 2)}`) };
    }
    case "numbers": {
      const numbers = parseNumbers(source!, id, paramSpec(measure));
      return { measure, params: { numbers, pairs: [] }, names: [text === undefined ? id : `${id}_${text}`] };
    }
    case "gains": {
      const pairs = source === null ? [] : parsePairs(source, id, pairRules(measure));
      return { measure, params: { numbers: [], pairs }, names: [text === undefined ? id : `${id}_${text}`] };
    }
  }
}

/** The spec of each value of a cutoffs, levels or numbers measure. */
export function paramSpec(measure: Measure): ParamSpec {
  if (measure.params === "cutoffs") return CUTOFF;
  if (measure.param === undefined) throw new TypeError(`registry entry '${measure.id}' (${measure.params}) has no param spec`);
  return measure.param;
}

/** Grade names are whole numbers from 0 to MAX_GRADE; a negative one would give unjudged documents a gain. */
function isGradeName(name: string): boolean {
  return /^\+?\d+$/.test(name) && Number(name) <= MAX_GRADE;
}

/** The names a `gains` measure accepts: grades, plus its named parameters. */
export function pairRules(measure: Measure): PairRules {
  const named = measure.named ?? {};
  const extra = Object.keys(named);
  return {
    specFor: (name) => named[name] ?? (isGradeName(name) ? GAIN : null),
    names: `grades from 0 to ${MAX_GRADE} (grade=gain)${extra.map((n) => ` or ${n}`).join("")}`,
  };
}

/** The values a measure's parameters may take, in words (help and docs/metrics.md's table). */
export function describeAllowed(measure: Measure): string {
  switch (measure.params) {
    case "none":
      return "none";
    case "gains": {
      const named = Object.entries(measure.named ?? {}).map(([name, spec]) => `; ${name} (${spec.what}) ${describeRange(spec.range)}`);
      return `grades from 0 to ${MAX_GRADE}, gains ${describeRange(GAIN.range)}${named.join("")}`;
    }
    default: {
      const { what, range, count } = paramSpec(measure);
      if (count === undefined) return `each ${what} ${describeRange(range)}`;
      return count === 1 ? `one ${what}, ${describeRange(range)}` : `exactly ${count} ${what}s, each ${describeRange(range)}`;
    }
  }
}
