/**
 * The shape of an Evalite run — its eval files, suites, cases, scores per case and traces per case —
 * read from Evalite's SQLite storage, and trivial eval files of the same shape: what Evalite itself
 * costs for that many cases, scores and traces, whatever the tasks do. `pnpm bench:eval` runs them
 * as a second floor beside one trivial case (docs/benchmarks.md, "On the fixtures").
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";

/** One suite (one `evalite()` call) of a run. */
export interface SuiteShape {
  /** The eval file's name (`search.eval.ts`). */
  file: string;
  suite: string;
  cases: number;
  /** Scores each case got (the suite's largest; a case whose scorer failed may have fewer). */
  scoresPerCase: number;
  /** Traces of all the suite's cases together (cases report different numbers of them). */
  traces: number;
}

/** The suites of the latest run in an Evalite SQLite storage file, in the order they were stored. */
export function readRunShape(storageFile: string): SuiteShape[] {
  const db = new Database(storageFile, { readonly: true, fileMustExist: true });
  try {
    const run = db.prepare("SELECT max(id) AS id FROM runs").get() as { id: number | null };
    if (run.id === null) throw new Error(`${storageFile}: Evalite's storage holds no run`);
    const rows = db
      .prepare(
        `SELECT s.filepath AS filepath, s.name AS suite,
           (SELECT count(*) FROM evals e WHERE e.suite_id = s.id) AS cases,
           (SELECT coalesce(max(n), 0) FROM (SELECT count(sc.id) AS n FROM evals e LEFT JOIN scores sc ON sc.eval_id = e.id WHERE e.suite_id = s.id GROUP BY e.id)) AS scoresPerCase,
           (SELECT count(*) FROM traces t JOIN evals e ON t.eval_id = e.id WHERE e.suite_id = s.id) AS traces
         FROM suites s WHERE s.run_id = ? ORDER BY s.id`,
      )
      .all(run.id) as Array<Omit<SuiteShape, "file"> & { filepath: string }>;
    return rows.map(({ filepath, ...shape }) => ({ file: basename(filepath), ...shape }));
  } finally {
    db.close();
  }
}

/**
 * Writes one eval file per file of `shape` into `folder`, each with its suites: the same number of
 * cases, each case returning its input, reporting its share of the suite's traces (tiny ones) and
 * getting `scoresPerCase` constant scores. Returns the files written.
 */
export function writeShapeEvals(folder: string, shape: readonly SuiteShape[]): string[] {
  mkdirSync(folder, { recursive: true });
  const byFile = new Map<string, SuiteShape[]>();
  for (const suite of shape) byFile.set(suite.file, [...(byFile.get(suite.file) ?? []), suite]);
  const written: string[] = [];
  for (const [file, suites] of byFile) {
    const calls = suites.map((s) => {
      // Traces spread over the cases as evenly as whole numbers allow: case i reports ⌊(i+1)t/n⌋ − ⌊it/n⌋.
      const scorers = Array.from({ length: s.scoresPerCase }, (_, k) => `{ name: "score ${k + 1}", scorer: () => 1 }`);
      return [
        `evalite(${JSON.stringify(`${s.suite} (shape)`)}, {`,
        `  data: Array.from({ length: ${s.cases} }, (_, i) => ({ input: i })),`,
        "  task: (i) => {",
        `    const traces = Math.floor(((i + 1) * ${s.traces}) / ${s.cases}) - Math.floor((i * ${s.traces}) / ${s.cases});`,
        "    for (let t = 0; t < traces; t++) reportTrace({ input: i, output: t, start: 0, end: 0 });",
        "    return i;",
        "  },",
        `  scorers: [${scorers.join(", ")}],`,
        "});",
      ].join("\n");
    });
    const name = file.replace(/\.eval\.m?ts$/, "");
    const path = join(folder, `${name}.eval.ts`);
    writeFileSync(path, `import { evalite } from "evalite";\nimport { reportTrace } from "evalite/traces";\n\n${calls.join("\n\n")}\n`);
    written.push(path);
  }
  return written;
}
