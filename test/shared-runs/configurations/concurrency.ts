/**
 * Runs started together (test/concurrent-runs.test.ts): `pnpm eval expansion` three times at once
 * in one folder, with the stub model as the expander (so each run also shows a model's expansions
 * scored), watched for listening ports from start to verdict; and Evalite's own CLI twice at once,
 * configured for one port.
 */
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { treeListeningPorts } from "../../../bench/lib/process-tree.js";
import { startStubServer } from "../../stub-openai-server.js";
import { type Configuration, EVALITE_BIN } from "../configuration.js";
import { KEY } from "./models.js";

/** How many `pnpm eval` runs start together: more than two, so no pairing of two hides what a third would meet. */
export const TOGETHER = 3;

/** A port that nothing listened on a moment ago (the system picked it). */
async function unusedPort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

export const CONCURRENCY: Record<string, Configuration> = {
  "concurrent:together": {
    what: `${TOGETHER} runs of \`pnpm eval expansion\` started together on one Evalite storage and one reports folder, the stub as the expander, each watched for a listening port (concurrent-runs, models-e2e)`,
    cores: 2,
    steps: async (ctx) => {
      const stub = await startStubServer("good");
      try {
        const shared = join(ctx.work, "shared");
        mkdirSync(shared);
        // Every run with Evalite's configuration as it stands (EVALITE_PORT as the caller's environment
        // has it), as CI jobs start them; the model cache off, so each run makes its own calls.
        const env = {
          EVALITE_STORAGE: join(shared, "evalite.db"),
          EVAL_REPORTS_DIR: join(shared, "reports"),
          OPENAI_COMPATIBLE_BASE_URL: stub.url,
          OPENAI_COMPATIBLE_API_KEY: KEY,
          ENGINE_MODEL: "stub-model",
          EVAL_CACHE: "off",
        };
        const ports: number[][] = Array.from({ length: TOGETHER }, () => []);
        await Promise.all(
          Array.from({ length: TOGETHER }, (_, i) => {
            let watching: NodeJS.Timeout | undefined;
            return ctx
              .evalRun(`run ${i + 1}`, ["expansion"], env, (child) => {
                watching = setInterval(() => {
                  for (const port of treeListeningPorts(child.pid!)) if (!ports[i]!.includes(port)) ports[i]!.push(port);
                }, 20);
              })
              .finally(() => clearInterval(watching));
          }),
        );
        ctx.fact("reportsDir", join(shared, "reports"));
        ctx.fact("ports", ports);
      } finally {
        await stub.close();
        const { requests } = stub;
        ctx.fact(
          "requests",
          requests.map((r) => ({
            kind: r.kind,
            trial: (r.headers["x-eval-trial"] as string | undefined) ?? null,
            keyInHeader: r.headers.authorization === `Bearer ${KEY}`,
            keyInBody: JSON.stringify(r.body).includes(KEY),
          })),
        );
      }
    },
  },
  "concurrent:evalite-port": {
    what: "two `evalite run evals/expansion.eval.ts` started together, configured for one port: the second falls back, saying to which (concurrent-runs)",
    cores: 2,
    steps: async (ctx) => {
      const port = await unusedPort();
      ctx.fact("port", port);
      await Promise.all(
        [1, 2].map((i) =>
          ctx.command(`run ${i}`, "evalite run evals/expansion.eval.ts", EVALITE_BIN, ["run", "evals/expansion.eval.ts"], {
            ...process.env,
            EVAL_GATED: "",
            EVAL_SELECTED_FILES: "",
            EVALITE_PORT: String(port),
            EVALITE_STORAGE: join(ctx.work, `${i}.db`),
          }),
        ),
      );
    },
  },
};
