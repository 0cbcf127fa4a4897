/**
 * The process entry of `pnpm trec-eval` (compiled to dist/entry.js; package.json runs it): the
 * process's arguments and streams in, its exit status out. The command line is cli.ts.
 */
import { main, processIo } from "./cli.js";

process.exitCode = main(process.argv.slice(2), processIo());
