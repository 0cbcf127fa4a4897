/** The process entry of `pnpm eval:import` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-import.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-import.js";

process.exitCode = main(process.argv.slice(2), processIo());
