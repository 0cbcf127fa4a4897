import { main } from "./bin/eval-draft.ts";
const code = await main(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }, {});
console.log("exit", code);
