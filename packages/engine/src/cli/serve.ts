/**
 * `serve`: runs until SIGINT or SIGTERM, then stops accepting, answers what it has, closes the
 * index and returns 0. The token comes from the environment, never the command line (which `ps`
 * shows to every user of the machine).
 */
import { Engine } from "../engine.js";
import { EngineError } from "../errors.js";
import { type EngineServer, serveEngine } from "../serve/server.js";
import { type Command, noArguments, parseCount } from "./command.js";

export const serveCommand: Command = {
  options: ["db", "port", "host", "concurrency", "max-body", "max-documents-body", "name"],
  arguments: noArguments("serve"),
  async run({ values, io, models }) {
    const token = io.env.ENGINE_SERVE_TOKEN;
    const port = values.port === undefined ? 8080 : parseCount("--port", values.port, 0, 65_535);
    const concurrency = values.concurrency === undefined ? undefined : parseCount("--concurrency", values.concurrency, 1, 1024);
    const maxBodyBytes = values["max-body"] === undefined ? undefined : parseCount("--max-body", values["max-body"], 1, 2 ** 30);
    const maxDocumentsBytes =
      values["max-documents-body"] === undefined ? undefined : parseCount("--max-documents-body", values["max-documents-body"], 1, 2 ** 30);
    const engine = Engine.open(values.db!, models);
    let server: EngineServer;
    try {
      server = await serveEngine(engine, {
        host: values.host ?? "127.0.0.1",
        port,
        ...(concurrency ? { concurrency } : {}),
        ...(maxBodyBytes ? { maxBodyBytes } : {}),
        ...(maxDocumentsBytes ? { maxDocumentsBytes } : {}),
        ...(values.name ? { name: values.name } : {}),
        ...(token ? { token } : {}),
      });
    } catch (error) {
      engine.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL")
        throw new EngineError(
          "BAD_ARGUMENT",
          `cannot listen on ${values.host ?? "127.0.0.1"}:${port} (${code}); pick another --port or --host`,
        );
      throw error;
    }
    io.stdout(`engine: serving ${values.db} on ${server.url}${token ? " (bearer token required)" : ""}\n`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    await server.close();
    engine.close();
    io.stderr("engine: stopped\n");
    return 0;
  },
};
