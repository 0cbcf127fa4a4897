/** The process entry of `pnpm eval:harvest` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-harvest.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-harvest.js";

process.exitCode = main(process.argv.slice(2), processIo());
