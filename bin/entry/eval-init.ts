/** The process entry of `pnpm eval:init` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-init.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-init.js";

process.exitCode = main(process.argv.slice(2), processIo());
