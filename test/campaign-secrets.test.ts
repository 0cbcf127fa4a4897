/**
 * The campaign's secrets (issue 42): a base64-style key an adapter templates into its path and its
 * query goes out percent-encoded (`AbC+dEf/GhI=` → `AbC%2BdEf%2FGhI%3D`); with the service answering
 * 500 and echoing the URL, and redirecting an answer to another origin, the key must be found in
 * none of its encodings — raw, percent-encoded (either case), JSON-escaped, base64 — in what
 * `pnpm eval` prints, in the reports, in Evalite's storage, in the run's export, in the UI export
 * (`pnpm eval:export`) or in `--explain-target`; the other origin must receive nothing. One run of
 * every eval file against the two stand-ins, and the commands around it; a credential too short to
 * redact safely is refused instead.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { Campaign, filesBelow, keysIn } from "./campaign.js";
import { evalInProcess, ROOT, RUN_TIMEOUT_MS, runEval, scriptCommand } from "./eval-run.js";
import { bodyOf, listen, sendJson } from "./stand-ins/serve.js";

const campaign = new Campaign("secrets");
const KEY = "AbC+dEf/GhI=";
const scratch = mkdtempSync(join(tmpdir(), "campaign-secrets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("campaign: a key in an adapter's path and query, a service that echoes it and redirects", () => {
  it(
    "is found in no encoding anywhere the run writes or prints, and never reaches another origin",
    async () => {
      const elsewhere: string[] = [];
      const other = await listen((req, res) => {
        elsewhere.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
        sendJson(res, 200, { answer: "stolen", citations: [] });
      });
      const service = await listen((req, res) => {
        bodyOf(req).then(() => {
          if (req.url!.startsWith("/ask")) {
            res.writeHead(307, { location: `${other.url}${req.url}` });
            return res.end();
          }
          // The service quotes what it was sent, URL and key header included.
          sendJson(res, 500, { error: { code: "DOWN", message: `cannot serve ${req.url} for ${req.headers["x-api-key"]}` } });
        });
      });
      const adapter = join(scratch, "keyed.adapter.json");
      writeFileSync(
        adapter,
        JSON.stringify({
          name: "keyed",
          headers: { "x-api-key": "{{env.MY_KEY}}" },
          search: {
            search: {
              request: { method: "GET", path: "/v1/{{env.MY_KEY}}/search", query: { q: "{{query}}", key: "{{env.MY_KEY}}" } },
              response: { results: { list: "/hits", docId: "/id" } },
            },
          },
          ask: {
            request: { method: "POST", path: "/ask", query: { key: "{{env.MY_KEY}}" }, json: { q: "{{question}}" } },
            response: { answer: { pointer: "/answer" } },
          },
        }),
      );
      const env = { EVAL_TARGET: service.url, EVAL_TARGET_ADAPTER: adapter, MY_KEY: KEY, EVAL_TARGET_RETRIES: "1" };
      try {
        const explained = await evalInProcess(["--explain-target"], env);
        expect(explained.stdout).toContain("GET");
        const run = await runEval([], env);
        const exported = join(run.dir, "ui-export");
        const command = scriptCommand("eval:export");
        const ui = spawnSync(command.command, [...command.args, "--output", exported], {
          cwd: ROOT,
          encoding: "utf8",
          env: { ...process.env, EVALITE_STORAGE: join(run.dir, "evalite.db") },
        });
        expect(ui.status, ui.stderr).toBe(0);
        const keys = keysIn(
          KEY,
          {
            "--explain-target": explained.stdout + explained.stderr,
            stdout: run.stdout,
            stderr: run.stderr,
            "eval:export": ui.stdout + ui.stderr,
          },
          filesBelow(run.dir),
        );
        campaign.record({
          name: "a percent-encoded key, a 500 echoing it, a redirect",
          expect: 1,
          code: run.code,
          stdout: run.stdout,
          stderr: run.stderr,
          keys,
        });
        const said = stripAnsi(run.stderr);
        expect(said).toMatch(
          /TargetError: GET \/v1\/\[redacted\]\/search\?q=.*&key=\[redacted\]: HTTP 500: DOWN cannot serve \/v1\/\[redacted\]\/search\?q=.*key=\[redacted\] for \[redacted\] \(2 attempts\)/,
        );
        expect(said).toContain(`redirected (HTTP 307) to another origin (${other.url})`);
        expect(said.trim().split("\n").length).toBeLessThanOrEqual(11);
        expect(elsewhere).toEqual([]);
        rmSync(run.dir, { recursive: true, force: true });
      } finally {
        await service.stop();
        await other.stop();
      }
    },
    RUN_TIMEOUT_MS,
  );
});

describe("campaign: a credential too short to redact safely is refused", () => {
  it.each([
    [
      "a one-character adapter key",
      { MY_KEY: "k" },
      /^eval: EVAL_TARGET_ADAPTER .*: \/headers\/x-api-key: \{\{env\.MY_KEY\}\}: MY_KEY is 1 character long/m,
    ],
    ["a seven-character cookie", { EVAL_TARGET_COOKIE: "a=12345" }, /^eval: EVAL_TARGET_COOKIE is 7 characters long/m],
  ] as const)("%s: one line, exit 2", async (name, extra, message) => {
    const adapter = join(scratch, "short.adapter.json");
    writeFileSync(
      adapter,
      JSON.stringify({
        name: "short",
        headers: { "x-api-key": "{{env.MY_KEY}}" },
        search: { search: { request: { method: "GET", path: "/s" }, response: { results: { list: "/hits", docId: "/id" } } } },
      }),
    );
    const r = await evalInProcess(["--explain-target"], {
      EVAL_TARGET: "http://127.0.0.1:9",
      EVAL_TARGET_ADAPTER: adapter,
      MY_KEY: "long-enough-key",
      ...extra,
    });
    campaign.record({ name, expect: 2, ...r });
    expect(r.stderr).toMatch(message);
  });
});
