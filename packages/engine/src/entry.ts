/**
 * The process entry of `pnpm engine` (compiled to dist/entry.js; package.json runs it): the
 * process's arguments, streams and environment in, its exit status out. The command line is cli.ts.
 */
import { main, processIo } from "./cli.js";

process.exitCode = await main(process.argv.slice(2), processIo());
