/** The process entry of `pnpm eval:export` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-export.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-export.js";

process.exitCode = await main(process.argv.slice(2), processIo());
