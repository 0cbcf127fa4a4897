/**
 * The campaign's secrets (issue 42): a base64-style key an adapter templates into its path and its
 * query goes out percent-encoded (`AbC+dEf/GhI=` → `AbC%2BdEf%2FGhI%3D`); with the service answering
 * 500 and echoing the URL, and redirecting an answer to another origin, the key must be found in
 * none of its encodings — raw, percent-encoded (either case), JSON-escaped, base64 — in what
 * `pnpm eval` prints, in the reports, in Evalite's storage, in the run's export, in the UI export
 * (`pnpm eval:export`) or in `--explain-target`; the other origin must receive nothing. One run of
 * every eval file against the two stand-ins and the UI export of its storage (the shared run
 * `campaign:secrets`, test/shared-runs/configurations/campaign.ts), `--explain-target` in process;
 * a credential too short to redact safely is refused instead.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { Campaign, filesBelow, keysIn } from "./campaign.js";
import { evalInProcess, RUN_TIMEOUT_MS } from "./eval-run.js";
import { CAMPAIGN_KEY as KEY } from "./shared-runs/configurations/campaign.js";
import { sharedRun } from "./shared-runs/read.js";

const campaign = new Campaign("secrets");
const keyed = sharedRun("campaign:secrets");
const scratch = mkdtempSync(join(tmpdir(), "campaign-secrets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("campaign: a key in an adapter's path and query, a service that echoes it and redirects", () => {
  it(
    "is found in no encoding anywhere the run writes or prints, and never reaches another origin",
    async () => {
      // The run's settings, the service's URL included: --explain-target shows the same requests.
      const env = await keyed.fact<Record<string, string>>("env");
      const explained = await evalInProcess(["--explain-target"], env);
      expect(explained.stdout).toContain("GET");
      const run = await keyed.run();
      const ui = await keyed.command("export");
      expect(ui.code, ui.stderr).toBe(0);
      const keys = keysIn(
        KEY,
        {
          "--explain-target": explained.stdout + explained.stderr,
          stdout: run.stdout,
          stderr: run.stderr,
          "eval:export": ui.stdout + ui.stderr,
        },
        [...filesBelow(run.dir), ...filesBelow(await keyed.fact<string>("exported"))],
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
      expect(said).toContain(`redirected (HTTP 307) to another origin (${await keyed.fact<string>("otherOrigin")})`);
      expect(said.trim().split("\n").length).toBeLessThanOrEqual(11);
      expect(await keyed.fact<string[]>("elsewhere")).toEqual([]);
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
