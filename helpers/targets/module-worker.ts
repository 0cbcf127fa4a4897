/**
 * The worker thread a target module runs in (module-thread.ts starts it; loaded by its URL, never
 * imported). It loads the module — jiti compiles TypeScript in memory, the contract package and the
 * engine resolve to this thread's own copies — checks its definition, says what the definition has
 * (`ModuleShape`), then answers each call the suite sends: the capability's value with the time it
 * took in this thread, or what it threw. A call's `signal` is aborted when the suite stops waiting.
 *
 * What happens outside a call is the thread's own: a module that calls `process.exit`, leaves a
 * rejection unhandled or throws from a timer ends this thread, and the suite sees it end
 * (module-thread.ts); a module that blocks this thread cannot block the suite's.
 */
import { parentPort, workerData } from "node:worker_threads";
import * as engine from "@hybrid-search/engine";
import * as contract from "@hybrid-search/target-contract";
import * as defineTargetModule from "@hybrid-search/target-contract/define-target";
import {
  type CallContext,
  type Capability,
  definedModes,
  type TargetDefinition,
  targetDefinitionProblems,
} from "@hybrid-search/target-contract/define-target";
import { redactor } from "@hybrid-search/target-contract/redact";
import { createJiti } from "jiti";
import { cutDeep } from "./depth.js";
import type { CallMessage, ModuleSetup, ModuleShape, ToThread, FromThread } from "./module-thread.js";

const setup = workerData as ModuleSetup;
const port = parentPort!;

// What the module prints leaves this thread with every credential redacted.
const redact = redactor(setup.secrets);
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(
      typeof chunk === "string" ? redact(chunk) : Buffer.isBuffer(chunk) ? redact(chunk.toString()) : chunk,
      ...rest,
    )) as typeof stream.write;
}
const send = (message: FromThread): void => port.postMessage(message);

/** An error's name and first line (`TypeError: x is not a function`), never its stack. */
function firstLine(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split("\n")[0]}`;
  return String(error).split("\n")[0]!;
}

async function load(): Promise<TargetDefinition | string> {
  const jiti = createJiti(setup.file, {
    interopDefault: true,
    moduleCache: false,
    virtualModules: {
      "@hybrid-search/target-contract": contract,
      "@hybrid-search/target-contract/define-target": defineTargetModule,
      "@hybrid-search/engine": engine,
    },
  });
  let namespace: Record<string, unknown>;
  try {
    namespace = (await jiti.import(setup.file)) as Record<string, unknown>;
  } catch (error) {
    return `loading the module failed: ${firstLine(error)}`;
  }
  // An ES module's default export; a CommonJS module's exports are the definition itself.
  const keys = Object.keys(namespace);
  if (!keys.includes("default") && !keys.includes("name"))
    return `the module has no default export (export default defineTarget({ name, search, … }))${keys.length > 0 ? `; it exports ${keys.slice(0, 5).join(", ")}` : ""}`;
  const loaded = keys.includes("default") ? namespace.default : namespace;
  const problems = targetDefinitionProblems(loaded);
  if (problems.length > 0) return `the default export is not a target definition: ${problems.slice(0, 3).join("; ")}`;
  return loaded as TargetDefinition;
}

function shapeOf(definition: TargetDefinition): ModuleShape {
  return {
    name: definition.name,
    ...(definition.version !== undefined ? { version: definition.version } : {}),
    ...(definition.fingerprint !== undefined ? { fingerprint: definition.fingerprint } : {}),
    trace: definition.trace === true,
    modes: definedModes(definition),
    ask: definition.ask !== undefined,
    expand: definition.expand !== undefined,
    turn: definition.turn !== undefined,
    documents: definition.documents ? { delete: definition.documents.delete !== undefined } : null,
  };
}

/** The function a call names, or undefined when the definition has none. */
function capability(definition: TargetDefinition, call: CallMessage): Capability<unknown, unknown> | undefined {
  const fn =
    call.capability === "search"
      ? definition.search?.[call.mode!]
      : call.capability === "documents.seed"
        ? definition.documents?.seed
        : call.capability === "documents.delete"
          ? definition.documents?.delete
          : definition[call.capability];
  return fn as Capability<unknown, unknown> | undefined;
}

/** Each call's abort, while it runs. */
const aborts = new Map<number, (reason: string) => void>();

async function answer(definition: TargetDefinition, call: CallMessage): Promise<void> {
  const fn = capability(definition, call);
  if (!fn) {
    send({ type: "threw", id: call.id, error: `the definition has no ${call.capability}` });
    return;
  }
  // The signal is made when the module first reads it: an AbortSignal costs as much as a fast search.
  let controller: AbortController | undefined;
  let stopped: Error | undefined;
  aborts.set(call.id, (reason) => {
    stopped = new Error(reason);
    controller?.abort(stopped);
  });
  const context: CallContext = {
    get signal() {
      controller ??= new AbortController();
      if (stopped) controller.abort(stopped);
      return controller.signal;
    },
  };
  const started = performance.now();
  try {
    const value = await fn(call.request, context);
    const ms = performance.now() - started;
    try {
      try {
        send({ type: "reply", id: call.id, value, ms });
      } catch (error) {
        // A structured clone of a value nested thousands deep overflows the stack: cut past the depth
        // limit (depth.ts) and send it again. Only then: walking every reply to check its depth first
        // cost a fifth of a fast call.
        if (!(error instanceof RangeError)) throw error;
        send({ type: "reply", id: call.id, value: cutDeep(value), ms });
      }
    } catch (error) {
      // A function, a symbol, a class instance with no plain form: not a message the contract knows.
      send({ type: "threw", id: call.id, error: `returned a value that is not plain data (${firstLine(error)})`, returned: true });
    }
  } catch (error) {
    send({ type: "threw", id: call.id, error: `threw ${firstLine(error)}` });
  } finally {
    aborts.delete(call.id);
  }
}

const loaded = await load();
if (typeof loaded === "string") {
  send({ type: "load-failed", problem: loaded });
} else {
  const definition = loaded;
  port.on("message", (message: ToThread) => {
    if (message.type === "call") void answer(definition, message);
    else if (message.type === "abort") aborts.get(message.id)?.(message.reason);
    else if (message.type === "ping") send({ type: "pong", id: message.id });
    else if (message.type === "exit") {
      // Leaving as a process does, so the module's own exit handlers (a temp folder's removal) run,
      // then telling the suite, which waits for this on its own way out.
      const flag = new Int32Array(setup.exited);
      process.on("exit", () => {
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
      });
      process.exit(0);
    }
  });
  send({ type: "loaded", shape: shapeOf(definition) });
}
