import { main } from "./bin/eval-review.ts";
const code = await main(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), input: process.stdin }, {});
console.log("exit", code);
