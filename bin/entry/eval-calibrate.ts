/** The process entry of `pnpm eval:calibrate` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-calibrate.ts. */
import { main } from "../eval-calibrate.js";

process.exitCode = await main(process.argv.slice(2));
