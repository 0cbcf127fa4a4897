/**
 * A service over HTTP (`EVAL_TARGET=http://host:port`): speaking the target contract
 * (http-target.ts), or described by a declarative adapter (`EVAL_TARGET_ADAPTER`, adapter-*.ts).
 *
 *   EVAL_TARGET_NAME=staging            what floors and reports call it (default: /health's or the adapter's name)
 *   EVAL_TARGET_TOKEN / EVAL_TARGET_COOKIE
 *                                       sent as `Authorization: Bearer …` / `Cookie: …`, nowhere else:
 *                                       never printed, never in an error, a report or the run info
 *   EVAL_TARGET_TIMEOUT_MS (10000), EVAL_TARGET_RETRIES (2), EVAL_TARGET_CONCURRENCY (4)
 *   EVAL_TARGET_SEED=<collection>       seed the dataset's corpus into that collection first, scope
 *                                       every search and ask to it, delete it after the run
 *                                       (helpers/targets/seed.ts); EVAL_TARGET_KEEP_SEED=1 keeps it,
 *                                       EVAL_TARGET_SEED_TIMEOUT_MS (600000) bounds the PUT and DELETE
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import type { Mode } from "@hybrid-search/target-contract";
import { type LoadedAdapter, loadAdapter } from "../adapter-file.js";
import type { HttpClient, HttpRequest, HttpTargetConfig } from "../http-client.js";
import type { TargetKind } from "../kind.js";
import { credential, positiveInt, RANGES, seedConfig, targetName, URL_FORM } from "../settings.js";
import { bodyShown, CALLED_TARGET_SETTINGS, CONTRACT_MODES, gradingLine, remoteVariants, SEARCH_OPTIONS } from "./shared.js";

export interface HttpConfig {
  http: HttpTargetConfig;
  adapter?: LoadedAdapter;
}

/** The HTTP target's configuration from EVAL_TARGET (a URL) and its companions. */
export function httpTargetConfig(env: NodeJS.ProcessEnv): HttpTargetConfig {
  const url = env.EVAL_TARGET!.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`EVAL_TARGET must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new ConfigError(`EVAL_TARGET must be an http(s) URL, got the scheme ${parsed.protocol}`);
  if (parsed.username || parsed.password)
    throw new ConfigError("EVAL_TARGET must not carry credentials; set EVAL_TARGET_TOKEN or EVAL_TARGET_COOKIE instead");
  const name = targetName(env);
  const seed = seedConfig(env);
  const token = credential(env, "EVAL_TARGET_TOKEN");
  const cookie = credential(env, "EVAL_TARGET_COOKIE");
  return {
    url: parsed.href.replace(/\/+$/, ""),
    ...(name ? { name } : {}),
    ...(token ? { token } : {}),
    ...(cookie ? { cookie } : {}),
    timeoutMs: positiveInt(env, "EVAL_TARGET_TIMEOUT_MS", 10_000, RANGES.timeout),
    retries: positiveInt(env, "EVAL_TARGET_RETRIES", 2, RANGES.retries),
    concurrency: positiveInt(env, "EVAL_TARGET_CONCURRENCY", 4, RANGES.concurrency),
    ...(seed ? { seed } : {}),
  };
}

const label = (name: string) => `http:${name}`;

export const http: TargetKind<HttpConfig> = {
  name: "http",
  title: "a service over HTTP",
  reach: "remote",
  suiteIndex: false,
  seedsInEveryProcess: false,
  knownCapabilities: null,
  settings: [...CALLED_TARGET_SETTINGS, "EVAL_TARGET_RETRIES", "EVAL_TARGET_ADAPTER"],
  namedBy: "EVAL_TARGET",
  claims: (env) => URL_FORM.test(env.EVAL_TARGET?.trim() ?? ""),
  fromEnv(env) {
    const config = httpTargetConfig(env);
    const adapterFile = env.EVAL_TARGET_ADAPTER?.trim();
    return { http: config, ...(adapterFile ? { adapter: loadAdapter(adapterFile, env) } : {}) };
  },
  givenName: (config) => config.http.name ?? null,
  async open(config, { dataset }) {
    // Loaded when a run opens one: the default run (the in-process engine) never needs them.
    const [{ openAdapterTarget }, { openHttpTarget }, { observedFingerprint }] = await Promise.all([
      import("../adapter-target.js"),
      import("../http-target.js"),
      import("../observe.js"),
    ]);
    const target = config.adapter ? await openAdapterTarget(config.http, config.adapter, label) : await openHttpTarget(config.http, label);
    return {
      target,
      fingerprint: observedFingerprint(target.health.fingerprint, dataset, config.http.seed?.collection),
      seedable: target,
      seed: config.http.seed ?? null,
    };
  },
  label,
  floorsKey: label,
  // The origin only: a path or a query could carry a secret.
  location: (config) => new URL(config.http.url).origin,
  async explain(config, context) {
    const [{ HttpClient }, { adapterRequest, adapterSeedRequests }, { datasetDocuments }] = await Promise.all([
      import("../http-client.js"),
      import("../adapter-request.js"),
      import("../seed.js"),
    ]);
    const tools = { HttpClient, adapterRequest, adapterSeedRequests, datasetDocuments };
    return config.adapter ? explainAdapter(config, context, tools) : explainContract(config, context, tools);
  },
  answerSuites: remoteVariants,
  agentSuites: remoteVariants,
  modelsLine: gradingLine,
  runModels: (label, config, models) => ({ target: `${label} (${new URL(config.http.url).origin})`, judge: models.ids.judge ?? null }),
};

/** The request of `request` as it would be sent, every credential redacted. */
function shown(client: HttpClient, url: string, request: HttpRequest): string[] {
  const headers = client.headers(request.headers);
  if (request.body === undefined) delete headers["content-type"];
  return [
    `    ${request.method} ${url}${request.path}`,
    ...Object.entries(headers).map(([name, value]) => `    ${name}: ${value}`),
    ...(request.body === undefined ? [] : [`    ${bodyShown(request.body)}`]),
  ].map(client.redact);
}

type Explain = Parameters<TargetKind<HttpConfig>["explain"]>[1];

/** What explaining needs, loaded when a run explains its target. */
interface ExplainTools {
  HttpClient: typeof HttpClient;
  adapterRequest: typeof import("../adapter-request.js").adapterRequest;
  adapterSeedRequests: typeof import("../adapter-request.js").adapterSeedRequests;
  datasetDocuments: typeof import("../seed.js").datasetDocuments;
}

const searchFor = (query: Explain["query"], mode: Mode) => ({
  query: query?.query ?? "",
  mode,
  ...SEARCH_OPTIONS,
  ...(query?.collection ? { collection: query.collection } : {}),
});
const askFor = (question: Explain["question"]) => ({ question: question?.question ?? "", preset: "balanced" as const });
const queryLine = (query: Explain["query"]) =>
  query ? `query ${query.id} ${JSON.stringify(query.query)}` : "no query (the dataset has none)";

function explainContract({ http: config }: HttpConfig, { dataset, query, question }: Explain, tools: ExplainTools): string[] {
  const { HttpClient, datasetDocuments } = tools;
  const client = new HttpClient(config);
  const show = (request: HttpRequest) => shown(client, config.url, request);
  const scope = config.seed ? { collection: config.seed.collection } : {};
  const lines = [
    `target: the service at ${config.url}, speaking the target contract (docs/targets.md), ${config.concurrency} request(s) at once`,
    "  first, to learn its name and capabilities:",
    ...show({ method: "GET", path: "/health" }),
    `  ranking, for ${queryLine(query)} (one request per mode it serves: ${CONTRACT_MODES.join(", ")}):`,
    ...show({ method: "POST", path: "/search", body: JSON.stringify({ ...searchFor(query, "balanced"), ...scope }) }),
  ];
  if (question)
    lines.push(
      `  answering, for question ${question.id} ${JSON.stringify(question.question)}:`,
      ...show({ method: "POST", path: "/ask", body: JSON.stringify({ ...askFor(question), ...scope }) }),
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

function explainAdapter(
  { http: config, adapter: loaded }: HttpConfig,
  { dataset, query, question }: Explain,
  tools: ExplainTools,
): string[] {
  const { HttpClient, adapterRequest, adapterSeedRequests, datasetDocuments } = tools;
  const { adapter } = loaded!;
  const client = new HttpClient(config, Object.values(loaded!.env));
  const show = (request: HttpRequest) => shown(client, config.url, request);
  const scope = config.seed ? { collection: config.seed.collection } : {};
  const lines = [
    `target: ${label(config.name ?? adapter.name)}: the service at ${config.url}, called as the adapter ${loaded!.given} describes, ${config.concurrency} request(s) at once`,
  ];
  if (adapter.health)
    lines.push("  first (a failure stops the run):", ...show(adapterRequest(adapter.health.request, scope, loaded!, "/health/request")));
  const modes = CONTRACT_MODES.filter((m) => adapter.search?.[m]);
  if (modes.length === 0) lines.push("  ranking: none (the adapter has no search requests: the retrieval evals are skipped)");
  for (const mode of modes)
    lines.push(
      `  ranking in mode ${mode}, for ${queryLine(query)}:`,
      ...show(adapterRequest(adapter.search![mode]!.request, { ...searchFor(query, mode), ...scope }, loaded!, `/search/${mode}/request`)),
    );
  if (question)
    lines.push(
      `  answering, for question ${question.id} ${JSON.stringify(question.question)}:`,
      ...(adapter.ask
        ? show(adapterRequest(adapter.ask.request, { ...askFor(question), ...scope }, loaded!, "/ask/request"))
        : ["    none (the adapter has no ask request: the answer evals are skipped)"]),
    );
  if (config.seed && adapter.documents) {
    const { ids, documents } = datasetDocuments(dataset);
    const seed = adapter.documents.seed;
    const request = adapterSeedRequests(loaded!, config.seed.collection, seed.each ? documents.slice(0, 1) : documents, ids)[0]!;
    lines.push(
      `  seeding (EVAL_TARGET_SEED), ${seed.each ? `one request per document (${documents.length}), the first:` : `one request for all ${documents.length} documents:`}`,
      ...show(request),
    );
    if (adapter.documents.delete)
      lines.push(
        "  after the run:",
        ...show(
          adapterRequest(adapter.documents.delete.request, { collection: config.seed.collection }, loaded!, "/documents/delete/request"),
        ),
      );
  }
  return lines;
}
