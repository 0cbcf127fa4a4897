/**
 * A target module (`EVAL_TARGET=./eval.target.ts`, a path; a URL means HTTP): a TypeScript or
 * JavaScript module whose default export is `defineTarget({...})`
 * (`@hybrid-search/target-contract/define-target`), called in this process. Each capability takes
 * and returns the contract's messages; every response is checked with the contract's schema as
 * an HTTP response is, so a module cannot pass a grader with what a service could not send.
 *
 *   EVAL_TARGET_NAME          what floors and reports call it (`module:<name>`; default: the definition's name)
 *   EVAL_TARGET_TIMEOUT_MS    per call (10000): a call that has not settled by then errors its case,
 *                             its `signal` is aborted, and the run goes on
 *   EVAL_TARGET_CONCURRENCY   calls at once (1: a module shares this process's thread, so calls at
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
 * scored. No retries: what the module says is its answer.
 *
 * How a TypeScript module loads: through jiti (docs/targets.md says why), which compiles it in
 * memory the same way under `pnpm eval`'s compiled suite (plain Node, which cannot run
 * TypeScript), under Vitest and in Evalite's worker, without a loader hook to register per thread.
 * The contract package and the engine resolve to this process's own copies (`virtualModules`), so
 * a module written anywhere, outside the repository too, imports `defineTarget`, and a module
 * wrapping the engine runs the same engine as the in-process target.
 */
import * as engine from "@hybrid-search/engine";
import { ConfigError } from "@hybrid-search/eval-gate";
import * as contract from "@hybrid-search/target-contract";
import * as defineTargetModule from "@hybrid-search/target-contract/define-target";
import {
  type CallContext,
  type Capability,
  definedModes,
  type TargetDefinition,
  targetDefinitionProblems,
} from "@hybrid-search/target-contract/define-target";
import { Limiter } from "@hybrid-search/target-contract/limiter";
import { redactor } from "@hybrid-search/target-contract/redact";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type { AskResponse, DocumentsResponse, ExpandResponse, HealthResponse, SearchResponse } from "@hybrid-search/target-contract/types";
import type { ContractMessage } from "@hybrid-search/target-contract";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import { createJiti } from "jiti";
import { askRequest, searchRequest, turnRequest } from "./http-target.js";
import type { ModuleTargetConfig } from "./module-config.js";
import type { SeedableTarget } from "./seed.js";
import { type Reply, type Target, TargetError, type TargetTurn } from "./target.js";

let jiti: ReturnType<typeof createJiti> | undefined;

/**
 * The module's checked definition. Loading it is compiling and running it: a missing default
 * export, a definition of the wrong shape, a syntax error or a module that throws as it loads is
 * a ConfigError naming the file (one line, exit 2).
 */
export async function loadTargetDefinition(config: Pick<ModuleTargetConfig, "file" | "given" | "secrets">): Promise<TargetDefinition> {
  const redact = redactor(config.secrets);
  jiti ??= createJiti(import.meta.url, {
    interopDefault: true,
    // Nothing of an earlier load is reused (a module and what it imports are compiled and run anew).
    moduleCache: false,
    virtualModules: {
      "@hybrid-search/target-contract": contract,
      "@hybrid-search/target-contract/define-target": defineTargetModule,
      "@hybrid-search/engine": engine,
    },
  });
  let namespace: Record<string, unknown>;
  try {
    namespace = (await jiti.import(config.file)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(redact(`EVAL_TARGET ${config.given}: loading the module failed: ${firstLine(error)}`));
  }
  // An ES module's default export; a CommonJS module's exports are the definition itself.
  const keys = Object.keys(namespace);
  if (!keys.includes("default") && !keys.includes("name"))
    throw new ConfigError(
      `EVAL_TARGET ${config.given}: the module has no default export (export default defineTarget({ name, search, … }))${keys.length > 0 ? `; it exports ${keys.slice(0, 5).join(", ")}` : ""}`,
    );
  const loaded = keys.includes("default") ? namespace.default : namespace;
  const problems = targetDefinitionProblems(loaded);
  if (problems.length > 0)
    throw new ConfigError(
      redact(`EVAL_TARGET ${config.given}: the default export is not a target definition: ${problems.slice(0, 3).join("; ")}`),
    );
  return loaded as TargetDefinition;
}

/**
 * A target module, opened: what it serves, as a `/health` would say it, and the seeding calls
 * (helpers/targets/seed.ts; `deleteDocuments` with `sync` fails, saying so: a process that is
 * exiting cannot wait for a module's promise).
 */
export interface ModuleTarget extends Target, SeedableTarget {
  readonly definition: TargetDefinition;
}

/** What a run's fingerprint says of a module that reports none (and was not seeded). */
const NO_FINGERPRINT = "not reported (the module's definition has no fingerprint)";

/** Loads the module named by `config` and serves the contract through its functions. */
export async function openModuleTarget(config: ModuleTargetConfig, labelOf: (name: string) => string): Promise<ModuleTarget> {
  const definition = await loadTargetDefinition(config);
  const name = config.name ?? definition.name;
  const label = labelOf(name);
  const limiter = new Limiter(config.concurrency, Number.POSITIVE_INFINITY);
  const redact = redactor(config.secrets);
  /** The collection every search and ask is scoped to once seeded. */
  let scope: { collection: string } | Record<string, never> = {};

  /**
   * One call of `fn` (the capability `what`), at most `concurrency` at once, timed from its start
   * to its value; the value checked as the contract's `message`.
   */
  const call = <Request, Response>(
    what: string,
    fn: Capability<Request, Response>,
    request: Request,
    message: ContractMessage,
    timeoutMs = config.timeoutMs,
  ): Promise<{ value: Response; clientMs: number }> =>
    limiter.run(async () => {
      const started = performance.now();
      let value: Response;
      try {
        value = await settledWithin(fn, request, timeoutMs);
      } catch (error) {
        if (error instanceof TargetError) throw new TargetError(error.reason, `${label}: ${what}: ${error.message}`);
        throw new TargetError("threw", redact(`${label}: ${what}: threw ${firstLine(error)}`));
      }
      const clientMs = performance.now() - started;
      const problems = contractProblems(message, value);
      if (problems.length > 0)
        throw new TargetError("schema", redact(`${label}: ${what}: returned no ${message}: ${problems.slice(0, 3).join("; ")}`));
      return { value: redacted(value, config.secrets), clientMs };
    });

  const search = definition.search ?? {};
  const modes = definedModes(definition);
  const { ask, expand, documents, turn } = definition;
  const seedTimeout = config.seed?.timeoutMs ?? 600_000;
  const capabilities = {
    modes,
    ask: ask !== undefined,
    expand: expand !== undefined,
    trace: definition.trace === true,
    turn: turn !== undefined,
  };
  const health: HealthResponse = {
    name,
    version: definition.version ?? "",
    fingerprint: definition.fingerprint ?? NO_FINGERPRINT,
    capabilities: { ...capabilities, documents: documents !== undefined },
  };
  return {
    name,
    kind: "module",
    label,
    reach: "this-thread",
    definition,
    health,
    origin: config.given,
    noDocuments: "its definition has no documents.seed",
    ...(documents && !documents.delete ? { cannotDelete: "its definition has no documents.delete" } : {}),
    removal: (collection) => `the module's documents.delete({ collection: ${JSON.stringify(collection)} })`,
    capabilities,
    readHealth: async () => health,
    async search(request): Promise<Reply<SearchResponse>> {
      const fn = search[request.mode];
      if (!fn) throw new TargetError("unsupported", `${label} does not serve mode ${request.mode}`);
      const { value, clientMs } = await call(`search(${request.mode})`, fn, searchRequest(request, scope), "SearchResponse");
      return { message: value as SearchResponse, clientMs, serverMs: null };
    },
    async ask(request): Promise<Reply<AskResponse>> {
      if (!ask) throw new TargetError("unsupported", `${label} does not answer questions`);
      const { value, clientMs } = await call("ask", ask, askRequest(request, scope), "AskResponse");
      return { message: value as AskResponse, clientMs, serverMs: null };
    },
    ...(expand
      ? { expand: async (query: string) => (await call("expand", expand, { query }, "ExpandResponse")).value as ExpandResponse }
      : {}),
    ...(turn
      ? {
          turn: async (request: TargetTurn): Promise<Reply<TurnResponse>> => {
            const { value, clientMs } = await call("turn", turn, turnRequest(request, scope), "TurnResponse");
            return { message: value as TurnResponse, clientMs, serverMs: null };
          },
        }
      : {}),
    async putDocuments(collection, corpus) {
      if (!documents) throw new TargetError("unsupported", `${label} takes no documents (its definition has no documents.seed)`);
      const { value } = await call("documents.seed", documents.seed, { collection, ...corpus }, "DocumentsResponse", seedTimeout);
      scope = { collection };
      return value as DocumentsResponse;
    },
    async deleteDocuments(collection, options = {}) {
      if (!documents?.delete) throw new TargetError("unsupported", `${label} has no documents.delete: it cannot remove what it was handed`);
      if (options.sync) throw new TargetError("unsupported", "a process that is exiting cannot wait for a module's documents.delete");
      return (await call("documents.delete", documents.delete, { collection }, "DocumentsResponse", seedTimeout))
        .value as DocumentsResponse;
    },
  };
}

/**
 * What `fn` returns for `request`: its value, or a promise that rejects with a TargetError
 * (`timeout`) when what it returned has not settled within `timeoutMs`. A value returned at once
 * needs no timer. The call's `signal` is made when the module first reads it — an AbortSignal
 * costs tens of microseconds, as much as a fast search, and most modules never read it — and is
 * aborted once the suite stops waiting (read after that, it is made aborted).
 */
function settledWithin<Request, Response>(
  fn: Capability<Request, Response>,
  request: Request,
  timeoutMs: number,
): Response | Promise<Response> {
  let controller: AbortController | undefined;
  let expired: Error | undefined;
  const context: CallContext = {
    get signal() {
      controller ??= new AbortController();
      if (expired) controller.abort(expired);
      return controller.signal;
    },
  };
  const returned = fn(request, context);
  if (!isThenable(returned)) return returned;
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => {
      expired = new Error(`no answer within ${timeoutMs} ms`);
      controller?.abort(expired);
      reject(new TargetError("timeout", `did not settle within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = () => clearTimeout(timer);
    try {
      returned.then(
        (value) => {
          stop();
          resolve(value);
        },
        (error: unknown) => {
          stop();
          reject(error);
        },
      );
    } catch (error) {
      // A thenable whose `then` throws.
      stop();
      reject(error);
    }
  });
}

const isThenable = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === "function";

/** `value` with every secret replaced, in any of its forms, when it holds one (a module echoing a credential). */
function redacted<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  const clean = redactor(secrets)(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/** An error's name and first line (`TypeError: x is not a function`), never its stack. */
function firstLine(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split("\n")[0]}`;
  return String(error).split("\n")[0]!;
}
