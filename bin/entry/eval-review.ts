/** The process entry of `pnpm eval:review` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-review.ts. */
import { main, processReviewIo } from "../eval-review.js";

process.exitCode = await main(process.argv.slice(2), processReviewIo());
