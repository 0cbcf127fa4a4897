/**
 * The statistics of the gate and of `pnpm eval:compare`: plain means and spreads, nearest-rank
 * percentiles, and the paired tests on per-case differences d_i = b_i − a_i.
 *
 * - **Paired randomization test** (sign flip): under H0 "no difference", each d_i is as likely to
 *   be −d_i. Statistic T = |Σ d_i|; p = share of sign assignments with |Σ ±d_i| ≥ T. Zero
 *   differences (ties) never change T, so only the m non-zero ones are flipped: all 2^m
 *   assignments when m ≤ `EXACT_LIMIT` (exact p), otherwise `permutations` random ones from a
 *   seeded generator with p = (1 + hits) / (1 + permutations), which never reports 0. Two-sided.
 * - **Bootstrap CI** of the mean difference: `resamples` resamples of the n pairs with
 *   replacement (seeded), percentile interval.
 * - **Minimum detectable effect** of a paired mean difference at two-sided α = 0.05 with power
 *   0.8 (normal approximation): MDE = (z₀.₉₇₅ + z₀.₈) · s_d / √n = 2.8016 · s_d / √n, with s_d the
 *   sample SD of the differences; the queries needed to detect an effect δ are
 *   ⌈(2.8016 · s_d / δ)²⌉.
 * - **Holm's step-down adjustment** over a family of p-values.
 */

/** mulberry32 (Tommy Ettinger): a small, fast, well-distributed 32-bit generator of floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** z of 1 − α/2 for α = 0.05, plus z of power 0.8. */
export const MDE_Z = 1.959964 + 0.841621;
/** Up to this many non-zero differences, the randomization test enumerates every sign assignment. */
export const EXACT_LIMIT = 16;
/** The fixed seed of every resampling, so the same two reports always give the same numbers. */
export const SEED = 20_261_129;

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function sd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let sq = 0;
  for (const x of xs) sq += (x - m) ** 2;
  return Math.sqrt(sq / (xs.length - 1));
}

/** Nearest-rank percentile: the value at rank ⌈p/100 · n⌉ of the sorted values; NaN when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export interface RandomizationResult {
  p: number;
  method: "exact" | "monte-carlo";
  /** Sign assignments evaluated. */
  assignments: number;
}

export function pairedRandomizationTest(diffs: readonly number[], permutations = 10_000, seed = SEED): RandomizationResult {
  const nonZero = diffs.filter((d) => d !== 0);
  if (nonZero.length === 0) return { p: 1, method: "exact", assignments: 1 };
  const observed = Math.abs(nonZero.reduce((a, b) => a + b, 0));
  // Sums that differ from the observed one only by float rounding count as "at least as extreme".
  const threshold = observed - 1e-9 * Math.max(1, observed);
  if (nonZero.length <= EXACT_LIMIT) {
    const m = nonZero.length;
    let hits = 0;
    for (let mask = 0; mask < 2 ** m; mask++) {
      let sum = 0;
      for (let i = 0; i < m; i++) sum += mask & (1 << i) ? -nonZero[i]! : nonZero[i]!;
      if (Math.abs(sum) >= threshold) hits++;
    }
    return { p: hits / 2 ** m, method: "exact", assignments: 2 ** m };
  }
  const rng = mulberry32(seed);
  let hits = 0;
  for (let k = 0; k < permutations; k++) {
    let sum = 0;
    for (const d of nonZero) sum += rng() < 0.5 ? -d : d;
    if (Math.abs(sum) >= threshold) hits++;
  }
  return { p: (1 + hits) / (1 + permutations), method: "monte-carlo", assignments: permutations };
}

/** Percentile bootstrap interval of the mean of `diffs` at `level` (e.g. 0.95). */
export function bootstrapMeanCI(diffs: readonly number[], resamples = 10_000, level = 0.95, seed = SEED): [number, number] {
  const n = diffs.length;
  if (n === 0) return [Number.NaN, Number.NaN];
  const rng = mulberry32(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[Math.floor(rng() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  const tail = (1 - level) / 2;
  const lo = means[Math.floor(tail * resamples)]!;
  const hi = means[Math.min(resamples - 1, Math.ceil((1 - tail) * resamples) - 1)]!;
  return [lo, hi];
}

/** Minimum detectable paired mean difference (α = 0.05 two-sided, power 0.8). */
export function minimumDetectableEffect(sdOfDiffs: number, n: number): number {
  return n > 0 ? (MDE_Z * sdOfDiffs) / Math.sqrt(n) : Number.POSITIVE_INFINITY;
}

/** Pairs needed to detect a mean difference of `effect` with that power; Infinity for no effect. */
export function requiredPairs(sdOfDiffs: number, effect: number): number {
  if (effect === 0) return Number.POSITIVE_INFINITY;
  return Math.ceil(((MDE_Z * sdOfDiffs) / Math.abs(effect)) ** 2);
}

/** Holm–Bonferroni adjusted p-values, in the input order. */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(ps.length);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/**
 * Percentile bootstrap interval of any statistic over `clusters` units resampled with replacement
 * (seeded): each resample draws `clusters` unit indices and asks `statistic` for its value on
 * them (a unit may be drawn several times and then counts as often). A case labelled by two people
 * is one unit with both its labels, so the interval reflects how many cases were labelled, not how
 * many labels. Resamples whose statistic is undefined (NaN: every drawn label in one category) are
 * dropped; when more than half are, the interval is undefined ([NaN, NaN]), as it is with no units.
 */
export function bootstrapCI(
  clusters: number,
  statistic: (picks: readonly number[]) => number,
  resamples = 2_000,
  level = 0.95,
  seed = SEED,
): [number, number] {
  if (clusters === 0) return [Number.NaN, Number.NaN];
  const rng = mulberry32(seed);
  const values: number[] = [];
  const picks = new Array<number>(clusters);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < clusters; i++) picks[i] = Math.floor(rng() * clusters);
    const v = statistic(picks);
    if (!Number.isNaN(v)) values.push(v);
  }
  if (values.length * 2 < resamples) return [Number.NaN, Number.NaN];
  values.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  const m = values.length;
  return [values[Math.floor(tail * m)]!, values[Math.min(m - 1, Math.ceil((1 - tail) * m) - 1)]!];
}
