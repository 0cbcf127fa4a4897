/**
 * Averaging over topics: how a measure's per-topic values become its `all` line (trec_eval's
 * acc/avg hooks). Values are summed in qrels topic order, as trec_eval does, so the doubles
 * match bit for bit.
 *
 *   mean       Σ v / n   (n = topics evaluated; with -c every judged topic)
 *   geometric  exp(Σ log(max(v, 0.00001)) / n): gm_map, gm_bpref; a topic scoring 0 pulls the
 *              mean towards 0.00001 rather than making it 0
 *   sum        Σ v       (the num_* counts)
 *   topics     n         (num_q)
 * With n = 0 every summary is 0.
 */
import type { SummaryKind } from "./registry.js";

/** Floor for values entering a geometric mean (trec_eval's MIN_GEO_MEAN). */
export const MIN_GEO_MEAN = 0.00001;

export function aggregate(kind: SummaryKind, values: readonly number[]): number {
  const n = values.length;
  switch (kind) {
    case "mean": {
      let sum = 0;
      for (const v of values) sum += v;
      return n > 0 ? sum / n : 0;
    }
    case "geometric": {
      let sum = 0;
      for (const v of values) sum += Math.log(Math.max(v, MIN_GEO_MEAN));
      return n > 0 ? Math.exp(sum / n) : 0;
    }
    case "sum": {
      let sum = 0;
      for (const v of values) sum += v;
      return sum;
    }
    case "topics":
      return n;
    case "runid":
    case "none":
      throw new RangeError(`a '${kind}' measure has no numeric summary`);
  }
}
