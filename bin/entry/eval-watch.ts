/** The process entry of `pnpm eval:watch` (compiled to dist/bin/entry/; package.json runs it). The command is bin/eval-watch.ts. */
import { processIo } from "../../helpers/cli-args.js";
import { main } from "../eval-watch.js";

process.exitCode = await main(process.argv.slice(2), processIo());
