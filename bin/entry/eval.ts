/** The process entry of `pnpm eval` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval.ts. */
import { main, processEvalIo } from "../eval.js";

process.exitCode = await main(process.argv.slice(2), processEvalIo());
