/** The process entry of `pnpm eval:draft` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-draft.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-draft.js";

process.exitCode = await main(process.argv.slice(2), processIo());
