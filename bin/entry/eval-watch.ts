/** The process entry of `pnpm eval:watch` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-watch.ts. */
import { processIo } from "../lib/cli-args.js";
import { main } from "../eval-watch.js";

const status = await main(process.argv.slice(2), processIo());
// A session that failed to start may have left Evalite's handles open: end here rather than wait on them.
if (status !== 0) process.exit(status);
