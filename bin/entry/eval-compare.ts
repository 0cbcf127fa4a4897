/** The process entry of `pnpm eval:compare` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-compare.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-compare.js";

process.exitCode = main(process.argv.slice(2), processIo());
