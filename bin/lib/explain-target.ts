/**
 * `pnpm eval --explain-target`: how the run would call its target, without running an eval or
 * calling the target: the request for one query (the dataset's first judged query, in each mode
 * the target serves) and for one question (the first answer case), resolved as they would be sent
 * — a service's method, URL, headers and body; a module's function and argument; the in-process
 * engine's call; the recorded file read — and, when the run seeds, the seeding request. Every
 * credential (the token, the cookie, an adapter's environment variables) is shown as `[redacted]`.
 * A target module is loaded (that is how its capabilities are known), not called.
 */
import { CONTRACT_MODES, type Mode } from "@hybrid-search/target-contract";
import { datasetDocuments } from "../../helpers/targets/seed.js";
import { type Dataset, judgedCases } from "../../helpers/dataset.js";
import type { AskCase } from "../../helpers/fixtures.js";
import { adapterRequest, adapterSeedRequests } from "../../helpers/targets/adapter-request.js";
import { HttpClient, type HttpRequest } from "../../helpers/targets/http-target.js";
import { DEFAULT_MODULE_COLLECTION, loadTargetDefinition } from "../../helpers/targets/module-target.js";
import { RUN_FILE, ANSWERS_FILE } from "../../helpers/targets/recorded-target.js";
import type { TargetChoice } from "../../helpers/targets/select.js";
import { targetLabel } from "../../helpers/targets/target.js";

/** The ranking options every retrieval eval asks with (helpers/retrieval-task.ts: depth 10, trace 50). */
const SEARCH_OPTIONS = { limit: 10, traceDepth: 50 };
/** A body shown longer than this is cut, saying how long it is. */
const SHOWN = 600;

/** The lines `--explain-target` prints for `choice` on `dataset`; `question`: the first answer case, when the dataset has answer cases. */
export async function explainTarget(choice: TargetChoice, dataset: Dataset, question: AskCase | undefined): Promise<string[]> {
  const query = judgedCases(dataset.cases)[0] ?? dataset.cases[0];
  const lines: string[] = [];
  const searchFor = (mode: Mode) => ({
    query: query?.query ?? "",
    mode,
    ...SEARCH_OPTIONS,
    ...(query?.collection ? { collection: query.collection } : {}),
  });
  const askFor = () => ({ question: question?.question ?? "", preset: "balanced" as const });
  const queryLine = query ? `query ${query.id} ${JSON.stringify(query.query)}` : "no query (the dataset has none)";
  const questionLine = question ? `question ${question.id} ${JSON.stringify(question.question)}` : undefined;

  if (choice.kind === "in-process") {
    lines.push("target: the in-process engine, on the run's temporary index of the dataset (no request leaves this process)");
    lines.push(`  ranking, for ${queryLine}:`);
    lines.push(
      `    engine.search(query, ${JSON.stringify(SEARCH_OPTIONS)}); engine.vsearch(…); engine.query(…, { tier: fast | balanced | thorough })`,
    );
    if (questionLine) lines.push(`  answering, for ${questionLine}:`, `    engine.ask(question, { preset: "balanced" })`);
    return lines;
  }
  if (choice.kind === "recorded") {
    lines.push(
      `target: ${targetLabel({ kind: "recorded", name: choice.name ?? choice.folder })}: recorded runs in ${choice.folder}, read, never called`,
    );
    lines.push(`  ranking, for ${queryLine}: the lines of ${query?.id ?? "its id"} in ${CONTRACT_MODES.map(RUN_FILE).join(", ")}`);
    if (questionLine)
      lines.push(`  answering, for ${questionLine}: the line with "id": ${JSON.stringify(question!.id)} in ${ANSWERS_FILE}`);
    return lines;
  }
  if (choice.kind === "module") {
    const definition = await loadTargetDefinition(choice.config);
    const name = choice.config.name ?? definition.name;
    const seeded = definition.documents ? (choice.config.seed?.collection ?? DEFAULT_MODULE_COLLECTION) : undefined;
    const scope = seeded ? { collection: seeded } : {};
    lines.push(
      `target: ${targetLabel({ kind: "module", name })} (${choice.config.given}), called in this process, ${choice.config.concurrency} call(s) at once, each within ${choice.config.timeoutMs} ms`,
    );
    const modes = CONTRACT_MODES.filter((m) => definition.search?.[m]);
    if (modes.length === 0) lines.push("  ranking: none (the definition has no search functions: the retrieval evals are skipped)");
    for (const mode of modes)
      lines.push(`  ranking, for ${queryLine}:`, `    search.${mode}(${JSON.stringify({ ...searchFor(mode), ...scope })}, { signal })`);
    if (questionLine)
      lines.push(
        `  answering, for ${questionLine}:`,
        definition.ask
          ? `    ask(${JSON.stringify({ ...askFor(), ...scope })}, { signal })`
          : "    none (the definition has no ask: the answer evals are skipped)",
      );
    if (seeded) {
      const corpus = datasetDocuments(dataset);
      lines.push(
        `  seeding, before the first call (in each process of the run that calls it):`,
        `    documents.seed(${cut(JSON.stringify({ collection: seeded, ids: corpus.ids, documents: corpus.documents }))}, { signal }) — ${corpus.documents.length} documents`,
      );
    }
    return lines;
  }

  const { config, adapter: loaded } = choice;
  const client = new HttpClient(config, loaded ? Object.values(loaded.env) : []);
  const show = (request: HttpRequest): string[] => {
    const headers = client.headers(request.headers);
    if (request.body === undefined) delete headers["content-type"];
    return [
      `    ${request.method} ${config.url}${request.path}`,
      ...Object.entries(headers).map(([name, value]) => `    ${name}: ${value}`),
      ...(request.body === undefined ? [] : [`    ${cut(request.body)}`]),
    ].map(client.redact);
  };
  const scope = config.seed ? { collection: config.seed.collection } : {};
  if (!loaded) {
    lines.push(
      `target: the service at ${config.url}, speaking the target contract (docs/targets.md), ${config.concurrency} request(s) at once`,
    );
    lines.push("  first, to learn its name and capabilities:", ...show({ method: "GET", path: "/health" }));
    lines.push(
      `  ranking, for ${queryLine} (one request per mode it serves: ${CONTRACT_MODES.join(", ")}):`,
      ...show({ method: "POST", path: "/search", body: JSON.stringify({ ...searchFor("balanced"), ...scope }) }),
    );
    if (questionLine)
      lines.push(
        `  answering, for ${questionLine}:`,
        ...show({ method: "POST", path: "/ask", body: JSON.stringify({ ...askFor(), ...scope }) }),
      );
    if (config.seed) {
      const corpus = datasetDocuments(dataset);
      lines.push(
        "  seeding (EVAL_TARGET_SEED), after /health:",
        ...show({ method: "PUT", path: "/documents", body: JSON.stringify({ collection: config.seed.collection, ...corpus }) }),
      );
    }
    return lines;
  }
  const { adapter } = loaded;
  lines.push(
    `target: ${targetLabel({ kind: "http", name: config.name ?? adapter.name })}: the service at ${config.url}, called as the adapter ${loaded.given} describes, ${config.concurrency} request(s) at once`,
  );
  if (adapter.health)
    lines.push("  first (a failure stops the run):", ...show(adapterRequest(adapter.health.request, scope, loaded, "/health/request")));
  const modes = CONTRACT_MODES.filter((m) => adapter.search?.[m]);
  if (modes.length === 0) lines.push("  ranking: none (the adapter has no search requests: the retrieval evals are skipped)");
  for (const mode of modes)
    lines.push(
      `  ranking in mode ${mode}, for ${queryLine}:`,
      ...show(adapterRequest(adapter.search![mode]!.request, { ...searchFor(mode), ...scope }, loaded, `/search/${mode}/request`)),
    );
  if (questionLine)
    lines.push(
      `  answering, for ${questionLine}:`,
      ...(adapter.ask
        ? show(adapterRequest(adapter.ask.request, { ...askFor(), ...scope }, loaded, "/ask/request"))
        : ["    none (the adapter has no ask request: the answer evals are skipped)"]),
    );
  if (config.seed && adapter.documents) {
    const { ids, documents } = datasetDocuments(dataset);
    const seed = adapter.documents.seed;
    const request = adapterSeedRequests(loaded, config.seed.collection, seed.each ? documents.slice(0, 1) : documents, ids)[0]!;
    lines.push(
      `  seeding (EVAL_TARGET_SEED), ${seed.each ? `one request per document (${documents.length}), the first:` : `one request for all ${documents.length} documents:`}`,
      ...show(request),
    );
    if (adapter.documents.delete)
      lines.push(
        "  after the run:",
        ...show(
          adapterRequest(adapter.documents.delete.request, { collection: config.seed.collection }, loaded, "/documents/delete/request"),
        ),
      );
  }
  return lines;
}

/** A body as shown: whole up to `SHOWN` characters, else its start and its length. */
function cut(text: string): string {
  return text.length <= SHOWN ? text : `${text.slice(0, SHOWN)}… (${text.length} characters)`;
}
