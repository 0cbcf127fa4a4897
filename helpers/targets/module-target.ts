/**
 * A target module (`EVAL_TARGET=./eval.target.ts`, a path; a URL means HTTP): a TypeScript or
 * JavaScript module whose default export is `defineTarget({...})`
 * (`@hybrid-search/target-contract/define-target`), run in a worker thread of its own in this
 * process (module-thread.ts). Each capability takes and returns the contract's messages; every
 * response is checked with the contract's schema as an HTTP response is, so a module cannot pass a
 * grader with what a service could not send.
 *
 *   EVAL_TARGET_NAME          what floors and reports call it (`module:<name>`; default: the definition's name)
 *   EVAL_TARGET_TIMEOUT_MS    per call (10000): a call that has not settled by then errors its case,
 *                             its `signal` is aborted, and the run goes on — whatever the module does,
 *                             blocking its thread included (module-thread.ts)
 *   EVAL_TARGET_CONCURRENCY   calls at once (1: the module's calls share its thread, so calls at
 *                             once would each be timed with the others' work; raise it for a module
 *                             that waits on a network)
 *   EVAL_TARGET_SEED          the collection a module with `documents` is handed the dataset's corpus
 *                             in (default `eval`); EVAL_TARGET_KEEP_SEED=1 skips its `documents.delete`
 *   EVAL_TARGET_TOKEN / EVAL_TARGET_COOKIE
 *                             not sent anywhere: a module that needs a credential may read them, and
 *                             their values are redacted from everything the run prints or stores
 *
 * A call that throws, returns what is not the contract's response, or does not settle errors its
 * case with one line (`module:minisearch: search(vsearch): threw TypeError: …`); nothing of it is
 * scored. No retries: what the module says is its answer. A module that ends its thread outside a
 * call (`process.exit`, an unhandled rejection, a throw from a timer) fails every call after it,
 * saying how; one that does so while loading stops the run with one line (exit 2).
 *
 * How a TypeScript module loads: through jiti (docs/targets.md says why), in its thread
 * (module-worker.ts), which compiles it in memory the same way under `pnpm eval`'s compiled suite,
 * under Vitest and in Evalite's worker. The contract package and the engine resolve to the thread's
 * own copies (`virtualModules`), so a module written anywhere, outside the repository too, imports
 * `defineTarget`, and a module wrapping the engine runs the same engine as the in-process target.
 */
import { Limiter } from "@hybrid-search/target-contract/limiter";
import { redactor } from "@hybrid-search/target-contract/redact";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type {
  AskResponse,
  DocumentsResponse,
  ExpandResponse,
  HealthResponse,
  Mode,
  SearchResponse,
} from "@hybrid-search/target-contract/types";
import type { ContractMessage } from "@hybrid-search/target-contract";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import { askRequest, searchRequest, turnRequest } from "./http-target.js";
import type { ModuleTargetConfig } from "./module-config.js";
import { type CapabilityName, ModuleThread, type ModuleShape } from "./module-thread.js";
import type { SeedableTarget } from "./seed.js";
import { type Reply, type Target, TargetError, type TargetTurn } from "./target.js";

/**
 * What the module's definition has, loaded in a thread of its own that is then closed (for
 * `--explain-target`). A module that does not load is a ConfigError naming the file (one line,
 * exit 2): a missing default export, a definition of the wrong shape, a syntax error, a throw or an
 * exit as it loads.
 */
export async function loadTargetShape(config: Pick<ModuleTargetConfig, "file" | "given" | "secrets">): Promise<ModuleShape> {
  const thread = await ModuleThread.open(config.file, config.given, config.secrets);
  await thread.close();
  return thread.shape;
}

/**
 * A target module, opened: what it serves, as a `/health` would say it, and the seeding calls
 * (helpers/targets/seed.ts; `deleteDocuments` with `sync` fails, saying so: a process that is
 * exiting cannot wait for a module's promise).
 */
export interface ModuleTarget extends Target, SeedableTarget {
  readonly shape: ModuleShape;
  /** Stops the module's thread (its own exit handlers run first). */
  close(): Promise<void>;
}

/** What a run's fingerprint says of a module that reports none (and was not seeded). */
const NO_FINGERPRINT = "not reported (the module's definition has no fingerprint)";

/** Loads the module named by `config` in its thread and serves the contract through its functions. */
export async function openModuleTarget(config: ModuleTargetConfig, labelOf: (name: string) => string): Promise<ModuleTarget> {
  const redact = redactor(config.secrets);
  const thread = await ModuleThread.open(config.file, config.given, config.secrets);
  const shape = thread.shape;
  const name = config.name ?? shape.name;
  const label = labelOf(name);
  const limiter = new Limiter(config.concurrency, Number.POSITIVE_INFINITY);
  /** The collection every search and ask is scoped to once seeded. */
  let scope: { collection: string } | Record<string, never> = {};

  /**
   * One call of the capability (`what` in messages), at most `concurrency` at once, timed in the
   * module's thread from its start to its value; the value checked as the contract's `message`.
   */
  const call = (
    what: string,
    capability: CapabilityName,
    request: unknown,
    message: ContractMessage,
    options: { mode?: Mode; timeoutMs?: number; replay?: boolean } = {},
  ): Promise<{ value: unknown; clientMs: number }> =>
    limiter.run(async () => {
      let reply: { value: unknown; ms: number };
      try {
        reply = await thread.call(capability, request, options.timeoutMs ?? config.timeoutMs, {
          ...(options.mode ? { mode: options.mode } : {}),
          ...(options.replay ? { replay: true } : {}),
        });
      } catch (error) {
        if (error instanceof TargetError) throw new TargetError(error.reason, redact(`${label}: ${what}: ${error.message}`));
        throw error;
      }
      const problems = contractProblems(message, reply.value);
      if (problems.length > 0)
        throw new TargetError("schema", redact(`${label}: ${what}: returned no ${message}: ${problems.slice(0, 3).join("; ")}`));
      return { value: redacted(reply.value, config.secrets), clientMs: reply.ms };
    });

  const seedTimeout = config.seed?.timeoutMs ?? 600_000;
  const capabilities = { modes: shape.modes, ask: shape.ask, expand: shape.expand, trace: shape.trace, turn: shape.turn };
  const health: HealthResponse = {
    name,
    version: shape.version ?? "",
    fingerprint: shape.fingerprint ?? NO_FINGERPRINT,
    capabilities: { ...capabilities, documents: shape.documents !== null },
  };
  return {
    name,
    kind: "module",
    label,
    reach: "this-thread",
    shape,
    health,
    origin: config.given,
    noDocuments: "its definition has no documents.seed",
    ...(shape.documents && !shape.documents.delete ? { cannotDelete: "its definition has no documents.delete" } : {}),
    removal: (collection) => `the module's documents.delete({ collection: ${JSON.stringify(collection)} })`,
    capabilities,
    readHealth: async () => health,
    close: () => thread.close(),
    async search(request): Promise<Reply<SearchResponse>> {
      if (!shape.modes.includes(request.mode)) throw new TargetError("unsupported", `${label} does not serve mode ${request.mode}`);
      const { value, clientMs } = await call(`search(${request.mode})`, "search", searchRequest(request, scope), "SearchResponse", {
        mode: request.mode,
      });
      return { message: value as SearchResponse, clientMs, serverMs: null };
    },
    async ask(request): Promise<Reply<AskResponse>> {
      if (!shape.ask) throw new TargetError("unsupported", `${label} does not answer questions`);
      const { value, clientMs } = await call("ask", "ask", askRequest(request, scope), "AskResponse");
      return { message: value as AskResponse, clientMs, serverMs: null };
    },
    ...(shape.expand
      ? { expand: async (query: string) => (await call("expand", "expand", { query }, "ExpandResponse")).value as ExpandResponse }
      : {}),
    ...(shape.turn
      ? {
          turn: async (request: TargetTurn): Promise<Reply<TurnResponse>> => {
            const { value, clientMs } = await call("turn", "turn", turnRequest(request, scope), "TurnResponse");
            return { message: value as TurnResponse, clientMs, serverMs: null };
          },
        }
      : {}),
    async putDocuments(collection, corpus) {
      if (!shape.documents) throw new TargetError("unsupported", `${label} takes no documents (its definition has no documents.seed)`);
      // Replayed first if the module's thread is started again (after it blocked): it holds the corpus then too.
      const { value } = await call("documents.seed", "documents.seed", { collection, ...corpus }, "DocumentsResponse", {
        timeoutMs: seedTimeout,
        replay: true,
      });
      scope = { collection };
      return value as DocumentsResponse;
    },
    async deleteDocuments(collection, options = {}) {
      if (!shape.documents?.delete)
        throw new TargetError("unsupported", `${label} has no documents.delete: it cannot remove what it was handed`);
      if (options.sync) throw new TargetError("unsupported", "a process that is exiting cannot wait for a module's documents.delete");
      return (await call("documents.delete", "documents.delete", { collection }, "DocumentsResponse", { timeoutMs: seedTimeout }))
        .value as DocumentsResponse;
    },
  };
}

/** `value` with every secret replaced, in any of its forms, when it holds one (a module echoing a credential). */
function redacted<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  const clean = redactor(secrets)(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}
