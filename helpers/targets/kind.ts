/**
 * What a kind of target is: one module of helpers/targets/kinds/ each, listed in the table of
 * kinds/index.ts, as trec_eval lists its measures. A kind says whether the environment names a
 * target of it, reads its configuration, opens it, explains the requests it would make, and names
 * it; the suite asks the table and never branches on a kind (docs/architecture.md, "Where it goes").
 */
import type { Preset } from "@hybrid-search/target-contract/types";
import type { Dataset } from "../dataset.js";
import type { AskCase } from "../fixture-files.js";
import type { EvalModels } from "../models.js";
import type { SuiteFingerprint } from "../setup-db.js";
import type { SeedableTarget, SeedConfig } from "./seed.js";
import type { Reach, Target, TargetCapabilities } from "./target.js";

/** One suite of an eval that asks the target (answers, agent turns): its name, and the preset it asks at. */
export interface Variant {
  name: string;
  input: Preset;
}

/** What opening a target needs besides its configuration. */
export interface OpenContext {
  dataset: Dataset;
  /** The run's model configuration's name (`offline`, …). */
  configuration: string;
  /** The engine on the run's temp index of the dataset, and its fingerprint: only a kind with `suiteIndex` asks for it. */
  suiteIndex(): Promise<{ engine: import("@hybrid-search/engine").Engine; fingerprint: SuiteFingerprint; dbPath: string }>;
}

/** A target, opened, with what it has indexed, and how the run seeds it when it does. */
export interface OpenedTarget {
  target: Target;
  fingerprint: SuiteFingerprint;
  /** What the run hands the dataset's corpus to, when it seeds this target (`seedConfig`). */
  seedable?: SeedableTarget;
  /** When and where the run seeds it, or null: not seeded. */
  seed: SeedConfig | null;
}

/** The static facts of a kind's target that eval files decide by before any target is opened. */
export interface KindFacts {
  reach: Reach;
  /**
   * Whether the target is the in-repo engine on the suite's own temp index of the dataset: the run
   * then builds that index (and the lanes' indexes), and the evals that measure the engine's own
   * text analysis (the lanes) can run.
   */
  suiteIndex: boolean;
  /** Whether each eval worker hands its own copy of the target the dataset's corpus (a module, whose state lives in the process that loaded it). */
  seedsInEveryProcess: boolean;
  /** What it can do, when that is known without opening it (the in-repo engine); null: asked when it is opened. */
  knownCapabilities: TargetCapabilities | null;
}

export interface TargetKind<Config> extends KindFacts {
  /** The kind's name: what `Target.kind` and the reports say (`in-process`, `http`, `module`, `recorded`). */
  readonly name: string;
  /** What it is, in a few words, for messages. */
  readonly title: string;
  /** Whether the environment names a target of this kind (exactly one kind may claim a run; in-process claims none). */
  claims(env: NodeJS.ProcessEnv): boolean;
  /** The environment variable that names a target of this kind, for messages (`EVAL_TARGET`, `EVAL_RUN_DIR`); none for the default. */
  readonly namedBy: string | null;
  /** The environment variables it reads beyond those that claim it: one set for another kind is a mistake worth a line. */
  readonly settings: readonly string[];
  /** Its configuration from the environment, checked (a ConfigError, one line, exit 2, when malformed); plain JSON, so the run plan carries it. */
  fromEnv(env: NodeJS.ProcessEnv): Config;
  /** Opens the target (in the run's first process and in each eval worker). A target that does not answer is a ConfigError. */
  open(config: Config, context: OpenContext): Promise<OpenedTarget>;
  /** A target's name before it is opened, when its configuration says it (EVAL_TARGET_NAME, the run folder's name); else null. */
  givenName(config: Config): string | null;
  /** How runs name a target of this kind called `name`: its header, its suites, its columns. */
  label(name: string, configuration: string): string;
  /** What the floors of a run on it are keyed by, so that targets never share floors. */
  floorsKey(name: string, configuration: string): string;
  /** Where it is, for a report: never a secret (an HTTP target's origin only). */
  location(config: Config): string;
  /** The lines `pnpm eval --explain-target` prints: the requests it would make, every credential redacted. */
  explain(config: Config, context: ExplainContext): Promise<string[]>;
  /** The suites of an eval that asks it for answers (`presets`: the suite's model presets, or null offline). */
  answerSuites(label: string, presets: readonly Preset[] | null): Variant[];
  /** The suites of the agent eval. */
  agentSuites(label: string, presets: readonly Preset[] | null): Variant[];
  /** The run's models line: what did the work (the suite's models, or the target itself, graded by the suite's judge). */
  modelsLine(models: EvalModels): string;
  /** What the report records of the models behind the run. */
  runModels(label: string, config: Config, models: EvalModels, fingerprint: SuiteFingerprint): Record<string, string | null>;
}

/** What `--explain-target` shows requests for: the dataset's first judged query and its first answer case. */
export interface ExplainContext {
  dataset: Dataset;
  /** The first judged query's text, id and collection, when the dataset has one. */
  query: { id: string; query: string; collection?: string } | undefined;
  question: AskCase | undefined;
}

/** Every capability the contract knows: what the in-process engine has, and what a target is assumed to have before it is asked. */
export type { TargetCapabilities };
