/**
 * `ask "<question>"`: one answer with its citations; `ask --batch <questions.jsonl>`: one JSON
 * answer per line. A failed answer is one line on stderr and exit status 2; a batch writes every
 * line first, failed ones with their error.
 */
import { writeFileSync } from "node:fs";
import { EngineError, quoteInput } from "../errors.js";
import { readJsonlObjects } from "../formats/jsonl.js";
import type { AskResult, Preset } from "../types.js";
import { checkWritable, type Command, onIndex, parseTier, UsageError } from "./command.js";

export const askCommand: Command = {
  options: ["db", "preset", "limit", "tier", "collection", "language", "as-of", "include-superseded", "json", "batch", "out"],
  arguments: (values) =>
    values.batch !== undefined
      ? { count: 0, mistake: `"ask --batch" takes no question argument` }
      : { count: 1, mistake: `"ask" takes exactly one argument (quote a query with spaces)` },
  check(values) {
    if (values.out !== undefined && values.batch === undefined) throw new UsageError(`--out applies to "ask --batch" only`);
  },
  run: onIndex(async (engine, { values, args, io, limit, filters }) => {
    const askOptions = {
      ...(values.preset ? { preset: values.preset as Preset } : {}),
      ...(limit ? { limit } : {}),
      ...(values.tier ? { tier: parseTier(values.tier) } : {}),
      ...filters,
    };
    if (values.batch !== undefined) {
      if (values.json) throw new UsageError(`--json does not apply to "ask --batch" (its output is JSONL)`);
      if (values.out) checkWritable(values.out);
      const lines: string[] = [];
      let failed = 0;
      for (const q of readQuestionsJsonl(values.batch)) {
        const r = await engine.ask(q.text, askOptions);
        if (r.error) failed++;
        lines.push(
          JSON.stringify({
            id: q.id,
            question: q.text,
            answer: r.answer,
            citations: r.citations,
            refused: r.refused,
            ...(r.refusal ? { refusal: r.refusal } : {}),
            answerer: r.answerer,
            preset: r.preset,
            ...(r.error ? { error: r.error } : {}),
            // What the answer was written from: the answer evals grade citations and faithfulness
            // against it when they score this file as recorded runs (EVAL_RUN_DIR).
            sources: r.sources,
            invalidCitations: r.invalidCitations,
          }),
        );
      }
      const jsonl = `${lines.join("\n")}\n`;
      if (values.out) {
        writeFileSync(values.out, jsonl);
        io.stderr(`engine: wrote ${lines.length} answers to ${values.out}\n`);
      } else io.stdout(jsonl);
      // Every answer is written, failed ones with their error; the status still says some failed.
      if (failed > 0) throw new EngineError("PROVIDER_ERROR", `${failed} of ${lines.length} answers failed; their lines carry the error`);
      return 0;
    }
    const r = await engine.ask(args[0]!, askOptions);
    if (r.error && !values.json) throw new EngineError("PROVIDER_ERROR", r.error);
    io.stdout(values.json ? `${JSON.stringify(r, null, 2)}\n` : formatAnswer(r));
    // --json prints the result with its error; the failure is still one line on stderr.
    if (r.error) io.stderr(`engine: ${r.error.split("\n")[0]}\n`);
    return r.error ? 2 : 0;
  }),
};

/** Questions for `ask --batch`: BEIR-style query lines, with `question` accepted for `text`. */
function readQuestionsJsonl(file: string): Array<{ id: string; text: string }> {
  const seen = new Map<string, number>();
  return readJsonlObjects(file).map(({ line, value }) => {
    const id = value._id ?? value.id;
    const text = value.text ?? value.question;
    if ((typeof id !== "string" || id === "") && typeof id !== "number")
      throw new EngineError("MALFORMED_RECORD", `${file}:${line}: missing "_id" or "id"`);
    if (typeof text !== "string" || text.trim() === "")
      throw new EngineError("MALFORMED_RECORD", `${file}:${line}: missing "text" (or "question")`);
    const first = seen.get(String(id));
    if (first !== undefined)
      throw new EngineError("MALFORMED_RECORD", `${file}:${line}: id ${quoteInput(String(id))} repeats the record on line ${first}`);
    seen.set(String(id), line);
    return { id: String(id), text };
  });
}

function formatAnswer(r: AskResult): string {
  const sources = r.citations.map((c) => `  [${c.ref}] ${c.passageId}`).join("\n");
  return `${r.answer}\n${sources ? `\n${sources}\n` : ""}(${r.answerer}${r.refused ? `, refused: ${r.refusal}` : ""}, evidence ${r.evidence.coverage.toFixed(2)}/${r.evidence.threshold}, ${r.elapsedMs.toFixed(0)} ms)\n`;
}
