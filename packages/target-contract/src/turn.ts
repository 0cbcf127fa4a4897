/**
 * The agent turn's messages as TypeScript types, one per definition of schemas/turn.schema.json
 * and named as it names them: `POST /turn` takes a `TurnRequest` and answers a `TurnResponse`, the
 * turn trace. The schema decides; these types say the same for the code on either side of a call.
 * docs/targets.md (the route, recorded turns) and docs/evals.md (what each field means to the
 * graders) explain them.
 */
/** The turn's messages, each a definition of schemas/turn.schema.json. */
export const TURN_MESSAGES = ["TurnRequest", "TurnResponse"] as const;

export type TurnMessage = (typeof TURN_MESSAGES)[number];

/**
 * How a turn ended:
 * - `answered`: it wrote an answer;
 * - `refused`: the documents do not answer the question, and it said so;
 * - `stopped-at-approval`: it called a tool that needs approval and stopped there (`proposal`);
 * - `step-limit`: the step cap ended a loop that still wanted to call tools;
 * - `budget-exhausted`: the token budget did;
 * - `error`: a model or the target failed (`error` says what).
 */
export const TURN_OUTCOMES = ["answered", "refused", "stopped-at-approval", "step-limit", "budget-exhausted", "error"] as const;

export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

/** `POST /turn`. No other field is allowed. */
export interface TurnRequest {
  /** 1–100,000 characters. */
  question: string;
  /** Which language model drives the turn; a target without models answers with its own policy. */
  preset?: "slim" | "balanced" | "quality";
  /** The surface: the tools the turn may call (no name twice). Absent: every tool the target has. @example ["search", "read_document"] */
  tools?: string[];
  /** Model steps at most, 1–50 (a step: one model call and the tools it calls). */
  maxSteps?: number;
  /** Tokens the turn may use, every step's input and output together, 1–10,000,000. */
  tokenBudget?: number;
  /** 1–200 characters. */
  collection?: string;
  /** A BCP 47 tag of 1–35 characters. */
  language?: string;
  /** The instant document validity is evaluated at: `YYYY-MM-DD` or an ISO 8601 date-time, UTC unless it names an offset. */
  asOf?: string;
  /** @default false */
  includeSuperseded?: boolean;
}

/** One call of a tool, in the order the step made them. */
export interface TurnToolCall {
  /** The call's id, when the loop gives one. */
  id?: string;
  name: string;
  /** What the call was given. */
  input: unknown;
  /** What the tool returned; present exactly when `status` is `done`. */
  output?: unknown;
  /** Why it failed, one line; present when `status` is `error`. */
  error?: string;
  /**
   * `done`; `error` (the tool threw, or the call named a tool or an input the surface does not
   * take); `awaiting-approval` (a tool that needs approval: never run within the turn).
   */
  status: "done" | "error" | "awaiting-approval";
  /** Whether the tool needs a person's approval before it runs. */
  needsApproval: boolean;
  /** How long the tool ran, ≥ 0 (0 for a call that never ran). */
  durationMs: number;
}

/** One step of the loop: a model call, what it wrote, and the tools it called. */
export interface TurnStep {
  /** 1-based, in order. */
  index: number;
  toolCalls: TurnToolCall[];
  /** Text the step wrote (the answer, in the last step of an answered turn). */
  text?: string;
  /** Why the model's call ended (`tool-calls`, `stop`, `length`, …). */
  finishReason?: string;
  /** Why the step did what it did, when the agent says (the offline policy names its rule). */
  note?: string;
  /** Epoch milliseconds. */
  start?: number;
  end?: number;
}

/**
 * A document the answer cites: `surfaced` when a tool's output in this turn returned it (and, with
 * a `quote`, the quoted words within that document's returned text), and `match` names that call;
 * otherwise recalled (not surfaced).
 */
export interface TurnCitation {
  docId: string;
  /** The words the answer quotes from it. */
  quote?: string;
  surfaced: boolean;
  /** The call whose output surfaced it: its step and its position in the step, both 1-based. Required when surfaced. */
  match?: { step: number; call: number };
}

/** The action the turn stopped at, for a person to approve. */
export interface TurnProposal {
  tool: string;
  input: unknown;
  /** The step that proposed it. */
  step: number;
  /** What it would do, in words. */
  summary?: string;
}

/** Tokens the turn used, every step together. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** `model`: as the model reported them; `estimate`: a policy without a model, 4 characters a token. */
  counted: "model" | "estimate";
}

/** The answer to `POST /turn`: the turn trace. Fields beyond these are allowed and ignored. */
export interface TurnResponse {
  question?: string;
  /** The answer; empty when the turn ended without one. */
  answer: string;
  outcome: TurnOutcome;
  steps: TurnStep[];
  citations: TurnCitation[];
  proposal?: TurnProposal;
  usage?: TurnUsage;
  /** The caps the turn ran under. */
  limits?: { maxSteps: number; tokenBudget: number };
  /** The surface the turn had. */
  tools?: string[];
  /** What drove the loop. @example "offline/agent-policy-v1" */
  agent?: string;
  /** What failed, one line; required when `outcome` is `error`. */
  error?: string;
  /** ≥ 0, in ms. */
  elapsedMs?: number;
}
