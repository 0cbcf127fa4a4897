import { main } from "./bin/eval-harvest.ts";
const code = main(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }, {});
console.log("exit", code);
