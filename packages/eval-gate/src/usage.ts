/**
 * What a run's model calls used and cost: every call recorded by role (answerer per preset,
 * judge, expander, embedder, agent) and model, with the tokens the provider reported (input,
 * output, input read from the provider's own prompt cache), whether our cache answered it instead
 * (a hit costs nothing and is counted), whether it was only estimated (`--dry-run`) or refused by
 * the budget (`--max-cost`). Cost comes from a price table per model id (`prices.schema.json`):
 * a model without a price has an unknown cost — its tokens still counted, never a made-up price.
 * Pure: the caller reads a price table file, `checkPrices` checks it.
 *
 *   cost of a call = ((input − cached) · input price + cached · cached price + output · output price) / 10⁶
 *
 * where cached tokens without a cached price cost the input price, and a call that reported no
 * token counts has an unknown cost.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { ConfigError } from "./errors.js";
import { schemaProblems } from "./schema-errors.js";
import { compileValidator } from "./standalone-validators.js";

export const PRICES_SCHEMA_PATH = fileURLToPath(new URL("../prices.schema.json", import.meta.url));

/** One model call, as the suite records it (one JSON line in the run's usage file). */
export interface ModelCall {
  /** `answerer:<preset>`, `judge`, `expander`, `embedder`, `agent`, … */
  role: string;
  /** The model id as the provider names it (the price table's key). */
  model: string;
  /** `provider/model`, for people. */
  label?: string;
  /** Tokens the provider reported; null when it reported none. Estimated for a dry run or a refused call. */
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  /** Answered by the suite's model cache: no model was called. */
  cacheHit: boolean;
  /** `--dry-run`: not made; the tokens are estimates. */
  dryRun?: boolean;
  /** `--max-cost`: not made, because its estimated cost would have passed the budget. */
  refused?: "budget";
}

export interface Price {
  input: number;
  output?: number;
  cachedInput?: number;
  note?: string;
}

export interface PriceTable {
  currency: "USD";
  per: "1M tokens";
  source: string;
  retrieved: string;
  note?: string;
  models: Record<string, Price>;
}

/** A call's cost in dollars, or null when unknown (no price for the model, or no token counts). */
export function callCost(
  call: Pick<ModelCall, "inputTokens" | "outputTokens" | "cachedInputTokens">,
  price: Price | undefined,
): number | null {
  if (!price) return null;
  if (call.inputTokens === null && call.outputTokens === null) return null;
  const input = call.inputTokens ?? 0;
  const cached = Math.min(input, call.cachedInputTokens ?? 0);
  const output = call.outputTokens ?? 0;
  if (output > 0 && price.output === undefined) return null;
  return ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + output * (price.output ?? 0)) / 1e6;
}

export interface UsageRow {
  role: string;
  model: string;
  label: string;
  /** Calls made (cache misses that reached the model). */
  calls: number;
  /** Calls our cache answered. */
  cacheHits: number;
  /** Calls refused by the budget. */
  refused: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** Calls whose provider reported no token counts. */
  unreported: number;
  /** Dollars; null when the model has no price or a call reported no tokens. */
  cost: number | null;
}

export interface UsageSummary {
  /** Whether the tokens are estimates of a run not made (`--dry-run`). */
  estimated: boolean;
  rows: UsageRow[];
  total: Omit<UsageRow, "role" | "model" | "label"> & { unknownCostModels: string[] };
  prices: { source: string; retrieved: string; override: string | null };
  /** `--max-cost`, when given: the budget, what was spent, and the calls it stopped. */
  budget: { maxCost: number; spent: number; refused: number; firstRefused: string | null } | null;
}

/** The calls summed per role and model (in order of first call), with their cost, and the total. */
export function summarizeUsage(
  calls: readonly ModelCall[],
  prices: PriceTable,
  options: { override?: string | null; maxCost?: number | null } = {},
): UsageSummary {
  const rows = new Map<string, UsageRow>();
  let costKnown = new Map<string, boolean>();
  for (const c of calls) {
    const key = `${c.role}\u0000${c.model}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        role: c.role,
        model: c.model,
        label: c.label ?? c.model,
        calls: 0,
        cacheHits: 0,
        refused: 0,
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        unreported: 0,
        cost: 0,
      };
      rows.set(key, row);
      costKnown.set(key, true);
    }
    if (c.cacheHit) {
      row.cacheHits++;
      continue;
    }
    if (c.refused) {
      row.refused++;
      continue;
    }
    row.calls++;
    row.inputTokens += c.inputTokens ?? 0;
    row.outputTokens += c.outputTokens ?? 0;
    row.cachedInputTokens += c.cachedInputTokens ?? 0;
    if (c.inputTokens === null && c.outputTokens === null) row.unreported++;
    const cost = callCost(c, prices.models[c.model]);
    if (cost === null) costKnown.set(key, false);
    else row.cost = (row.cost ?? 0) + cost;
  }
  for (const [key, row] of rows) if (!costKnown.get(key)) row.cost = null;
  costKnown = new Map();
  const list = [...rows.values()];
  const sum = (f: (r: UsageRow) => number) => list.reduce((s, r) => s + f(r), 0);
  const unknown = [...new Set(list.filter((r) => r.cost === null).map((r) => r.model))];
  const spent = sum((r) => r.cost ?? 0);
  const refused = calls.filter((c) => c.refused);
  return {
    estimated: calls.some((c) => c.dryRun),
    rows: list,
    total: {
      calls: sum((r) => r.calls),
      cacheHits: sum((r) => r.cacheHits),
      refused: sum((r) => r.refused),
      inputTokens: sum((r) => r.inputTokens),
      outputTokens: sum((r) => r.outputTokens),
      cachedInputTokens: sum((r) => r.cachedInputTokens),
      unreported: sum((r) => r.unreported),
      cost: unknown.length > 0 ? null : spent,
      unknownCostModels: unknown,
    },
    prices: { source: prices.source, retrieved: prices.retrieved, override: options.override ?? null },
    budget:
      options.maxCost === undefined || options.maxCost === null
        ? null
        : {
            maxCost: options.maxCost,
            spent,
            refused: refused.length,
            firstRefused: refused[0] ? `${refused[0].role} ${refused[0].label ?? refused[0].model}` : null,
          },
  };
}

export const dollars = (x: number | null): string =>
  x === null ? "unknown" : x === 0 ? "$0" : x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;
const n = (x: number): string => x.toLocaleString("en-US");

/** The terminal's lines: one per role and model, then the total and the budget. */
export function usageLines(u: UsageSummary): string[] {
  const word = u.estimated ? "would be made" : "made";
  if (u.rows.length === 0) return ["tokens: no model calls (offline)"];
  const lines = u.rows.map((r) => {
    const parts = [`${r.calls} call(s) ${word}`, `${r.cacheHits} cache hit(s)`];
    if (r.refused > 0) parts.push(`${r.refused} refused by --max-cost`);
    const tokens = `${u.estimated ? "~" : ""}${n(r.inputTokens)} in${r.cachedInputTokens > 0 ? ` (${n(r.cachedInputTokens)} cached by the provider)` : ""} / ${u.estimated ? "~" : ""}${n(r.outputTokens)} out${r.unreported > 0 ? `, ${r.unreported} call(s) reported no tokens` : ""}`;
    return `  ${r.role} ${r.label}: ${parts.join(", ")}; ${tokens}; cost ${u.estimated && r.cost !== null ? "~" : ""}${dollars(r.cost)}`;
  });
  const t = u.total;
  const cost =
    t.cost === null
      ? `unknown (no price for ${t.unknownCostModels.join(", ")}; known part ${dollars(u.rows.reduce((s, r) => s + (r.cost ?? 0), 0))})`
      : `${u.estimated ? "~" : ""}${dollars(t.cost)}`;
  const head = `tokens${u.estimated ? " (dry run: estimates, no model called)" : ""}: ${t.calls} call(s) ${word}, ${t.cacheHits} answered by the cache; ${u.estimated ? "~" : ""}${n(t.inputTokens)} in / ${u.estimated ? "~" : ""}${n(t.outputTokens)} out; cost ${cost} (prices: ${u.prices.override ?? "evals/model-prices.json"}, ${u.prices.retrieved})`;
  const out = [head, ...lines];
  if (u.budget)
    out.push(
      u.budget.refused > 0
        ? `budget: STOPPED: --max-cost ${dollars(u.budget.maxCost)} reached (spent ${dollars(u.budget.spent)}); ${u.budget.refused} call(s) not made, the first: ${u.budget.firstRefused}`
        : `budget: --max-cost ${dollars(u.budget.maxCost)}, spent ${dollars(u.budget.spent)}`,
    );
  return out;
}

let validatePrices: ValidateFunction | undefined;

/**
 * A price table's parsed JSON, checked against its schema (prices ≥ 0); a problem is a ConfigError
 * of one line naming the file (`shown`) and the field. The caller reads the file (the suite's one
 * reader of a person's files: encoding, then JSON).
 */
export function checkPrices(value: unknown, shown: string): PriceTable {
  validatePrices ??= compileValidator({
    options: { allErrors: true, strict: false },
    schema: JSON.parse(readFileSync(PRICES_SCHEMA_PATH, "utf8")) as object,
  });
  if (!validatePrices(value)) throw new ConfigError(`${shown}: ${schemaProblems(validatePrices.errors ?? [])[0]}`);
  return value as PriceTable;
}

/** The shipped table with an override's entries on top (by model id); the override's source and date win. */
export function mergePrices(shipped: PriceTable, override: PriceTable | null): PriceTable {
  if (!override) return shipped;
  return { ...shipped, source: override.source, retrieved: override.retrieved, models: { ...shipped.models, ...override.models } };
}
