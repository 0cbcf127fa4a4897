/**
 * `pnpm eval --explain-target`: how the run would call its target, without running an eval or
 * calling the target: the request for one query (the dataset's first judged query, in each mode
 * the target serves) and for one question (the first answer case), resolved as they would be sent
 * — a service's method, URL, headers and body; a module's function and argument; the in-process
 * engine's call; the recorded file read — and, when the run seeds, the seeding request. Each kind
 * of target explains itself (its module's `explain`, helpers/targets/kinds/); every credential
 * (the token, the cookie, an adapter's environment variables) is shown as `[redacted]`. A target
 * module is loaded (that is how its capabilities are known), not called.
 */
import { type Dataset, judgedCases } from "../../helpers/dataset.js";
import { kindOf, type TargetPlan } from "../../helpers/targets/kinds/index.js";

/** The lines `--explain-target` prints for `plan` on `dataset`. */
export async function explainTarget(plan: TargetPlan, dataset: Dataset): Promise<string[]> {
  const query = judgedCases(dataset.cases)[0] ?? dataset.cases[0];
  return kindOf(plan).explain(plan.config, { dataset, query, question: dataset.askCases[0] });
}
