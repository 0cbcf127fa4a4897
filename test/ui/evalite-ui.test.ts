/**
 * The Evalite UI, checked in a real browser as a person uses it: `evalite serve` on a port the system picks
 * and then the static export (`pnpm eval:export`) of a gated `pnpm eval` run (the shared run
 * `ui:gated`) on the plainest static server, each opened in headless Debian Chromium driven by playwright-core (never a
 * downloaded browser; every request that is not to 127.0.0.1 is aborted, so the test needs no
 * network). It clicks a case, then the trace menu's links (Evalite's fix for evalite#391 is
 * carried by patches/), reads each stage's name, the relevant-documents table and the
 * cross-language matrix, and what the UI says of a suite: its duration (Evalite's is always 0),
 * its mark (⊗ exactly where the gate failed a suite) and the summary (the mean the terminal
 * prints). The agent eval is opened too, in the export of the full offline run (the shared run
 * `fixtures`): a turn case's trace links open its steps, one tool call (or the answer) each, in the
 * order of the turn the task returned. Screenshots land in the git-ignored artifacts/ui/ (the path is printed). Without
 * /usr/bin/chromium the test is skipped with a warning, unless REQUIRE_BROWSER=1 (as in
 * .ci/run), where a missing browser fails it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Report } from "@hybrid-search/eval-gate/report";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE_POLICY_LABEL } from "@hybrid-search/engine/models";
import { main as exportUi } from "../../bin/eval-export.js";
import { toolsInOrder, turnTraceEntries } from "../../helpers/agent-task.js";
import type { AgentTurnOutput } from "../../scorers/agent/turn-verdict.js";
import { ROOT, RUN_TIMEOUT_MS } from "../eval-run.js";
import { UI_EVAL_FILE, UI_SUITE } from "../shared-runs/configurations/ui.js";
import { sharedRun } from "../shared-runs/read.js";
import { serveStatic } from "./static-server.js";

const gatedRun = sharedRun("ui:gated");
const fixtures = sharedRun("fixtures");

const CHROMIUM = "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser) {
  if (process.env.REQUIRE_BROWSER === "1")
    throw new Error(`${CHROMIUM} not found: install Debian's chromium package (apt-get install chromium)`);
  console.warn(`\n⚠  SKIPPED the Evalite UI browser test: ${CHROMIUM} not found (apt-get install chromium to run it).\n`);
}

/** The eval file served: retrieval cases with every balanced-tier stage, and the matrix. */
const EVAL_FILE = UI_EVAL_FILE;
const SUITE = UI_SUITE;
const MATRIX = "Cross-language recall matrix";
const ARTIFACTS = join(ROOT, "artifacts", "ui");
/** Evalite renders Markdown tables lazily: allow for a slow, shared machine. */
const RENDER_MS = 30_000;

/** The stage in a trace input: Evalite shows the flat input as a one-row table, `stage` first. */
function stageShown(panelText: string): string | undefined {
  const lines = panelText.split("\n");
  const header = lines.findIndex((l) => l.split("\t")[0]?.trim() === "stage");
  return header >= 0 ? lines[header + 1]?.split("\t")[0]?.trim() : undefined;
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  // Offline: the UI asks Google Fonts for a typeface; nothing may leave the machine.
  await page.route("**/*", (route) => (new URL(route.request().url()).hostname === "127.0.0.1" ? route.continue() : route.abort()));
  await page.goto(url, { waitUntil: "domcontentloaded" });
  return page;
}

const tracePanel = (page: Page) => page.locator("div.flex-grow.border-l").first();

/**
 * From a suite page: click case 0, then each "Trace N" link in the menu; returns the stage each
 * one shows, and checks the last one, the relevant-documents table.
 */
async function clickThroughTraces(page: Page, shots: string): Promise<string[]> {
  await page
    .locator(`a[href*="${encodeURIComponent(SUITE)}/eval/0"]`)
    .first()
    .click();
  return stagesOfTraces(page, shots);
}

/** On a case's page: click each "Trace N" link in turn; returns the stage each one shows. */
async function stagesOfTraces(page: Page, shots: string): Promise<string[]> {
  const traceLinks = page.getByRole("link", { name: /^Trace \d+/ });
  await traceLinks.first().waitFor({ timeout: RENDER_MS });
  const count = await traceLinks.count();
  const stages: string[] = [];
  let previous = "";
  for (let i = 0; i < count; i++) {
    await page.getByRole("link", { name: new RegExp(`^Trace ${i + 1}\\b`) }).click();
    await page.waitForURL(new RegExp(`[?&]trace=${i}\\b`), { timeout: RENDER_MS });
    // The panel re-renders after the URL changes: wait for this trace's input table.
    const panel = tracePanel(page);
    let text = "";
    const deadline = Date.now() + RENDER_MS;
    do {
      await page.waitForTimeout(250);
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
      text = await panel.innerText();
    } while ((text === previous || stageShown(text) === undefined) && Date.now() < deadline);
    previous = text;
    stages.push(stageShown(text) ?? `(no stage in: ${text.slice(0, 120)})`);
    await page.screenshot({ path: join(ARTIFACTS, `${shots}-trace-${i + 1}.png`) });
  }
  return stages;
}

/** The relevant-documents entry (the last trace) as a table: its header row and first line. */
async function relevantDocumentsTable(page: Page): Promise<{ header: string[]; firstRow: string[] }> {
  const table = tracePanel(page).locator("table").nth(1);
  await table.waitFor({ timeout: RENDER_MS });
  const cells = async (row: string) => (await table.locator(row).first().locator("th, td").allInnerTexts()).map((c) => c.trim());
  return { header: await cells("thead tr"), firstRow: await cells("tbody tr") };
}

/** The matrix column of the matrix suite's one case: its rows' first cells and the header. */
async function matrixShown(page: Page): Promise<{ header: string[]; queryLanguages: string[] }> {
  const table = tracePanel(page).locator("table").first();
  await table.waitFor({ timeout: RENDER_MS });
  return {
    header: (await table.locator("thead th").allInnerTexts()).map((c) => c.trim()),
    queryLanguages: (await table.locator("tbody tr td:first-child").allInnerTexts()).map((c) => c.trim()),
  };
}

const EXPECTED_STAGES = ["bm25", "vector", "fusion", "rerank", "relevant documents"];

/** How Evalite's UI prints a duration (its `formatDuration`). */
const shownDuration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`);

/** The suite's duration in the newest run of `storagePath`: what the suite page must show. */
async function storedDuration(storagePath: string, suite: string): Promise<number> {
  const storage = await createSqliteStorage(storagePath);
  try {
    const [row] = await storage.suites.getMany({ name: suite, orderBy: "created_at", orderDirection: "desc", limit: 1 });
    return row!.duration;
  } finally {
    await storage.close();
  }
}

/** The mark Evalite draws beside a score (a lucide icon): ⊗ (`circle-x`) for a failed suite, else a trend chevron. */
async function markIn(scope: Locator): Promise<string> {
  const icon = scope.locator("svg.lucide").first();
  await icon.waitFor({ timeout: RENDER_MS });
  const lucide = (await icon.getAttribute("class"))?.split(/\s+/).find((c) => c.startsWith("lucide-"));
  return lucide?.replace(/^lucide-/, "") ?? "(no mark)";
}

const sidebarEntry = (page: Page, suite: string) => page.locator(`a[href="/suite/${encodeURIComponent(suite)}"]`).first();
/** The summary at the top of the sidebar: its label's parent holds the percentage and its mark. */
const summaryBlock = (page: Page) => page.getByText("Mean of all scores", { exact: true }).locator("xpath=..");

/**
 * The checks both UIs must pass: click-through traces, the relevant-documents table, the matrix,
 * and the suite's duration as stored (Evalite's own is always 0).
 */
async function checkUi(browser: Browser, base: string, shots: string, storagePath: string): Promise<void> {
  const page = await openPage(browser, `${base}/suite/${encodeURIComponent(SUITE)}`);
  // The suite page's header: score and mark, then the duration.
  const duration = page.locator("h1 + div > span").nth(1);
  await duration.waitFor({ timeout: RENDER_MS });
  const stored = await storedDuration(storagePath, SUITE);
  expect(stored).toBeGreaterThan(0);
  // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
  expect(await duration.innerText()).toBe(shownDuration(stored));
  // One figure for the suite, rounded one way: the sidebar shows what the page's header shows.
  // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
  const headerScore = await page.locator("h1 + div > span").first().locator("span").first().innerText();
  expect(headerScore).toMatch(/^\d+%$/);
  // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
  expect(await sidebarEntry(page, SUITE).locator("span span").first().innerText()).toBe(headerScore);
  await page.screenshot({ path: join(ARTIFACTS, `${shots}-suite.png`) });
  expect(await clickThroughTraces(page, shots)).toEqual(EXPECTED_STAGES);
  const docs = await relevantDocumentsTable(page);
  expect(docs.header).toEqual(["document", "grade", "bm25", "vector", "fusion", "rerank", "final", "lost at"]);
  expect(docs.firstRow[7]).toMatch(
    /^(found|not retrieved: not in .* top \d+|fusion: (fusion rank \d+ > 5|not in fusion top \d+)|rerank: rerank moved it \d+ → \d+)$/,
  );
  await page.close();

  const matrix = await openPage(browser, `${base}/suite/${encodeURIComponent(MATRIX)}/eval/0`);
  const shown = await matrixShown(matrix);
  expect(shown.header).toEqual(["Recall@5: query ↓ document →", "de", "en", "fr", "it"]);
  expect(shown.queryLanguages).toEqual(["de", "en", "fr", "it"]);
  await matrix.screenshot({ path: join(ARTIFACTS, `${shots}-matrix.png`) });
  await matrix.close();
}

/**
 * `evalite serve <evalFile>` on a port the system picks, once its first run is over and `suites`
 * are in: the server (to stop by its process group) and the UI's URL.
 */
async function serveEvalite(evalFile: string, storage: string, suites: readonly string[]): Promise<{ server: ChildProcess; base: string }> {
  // Port 0: the server binds a port the system picks and says which (patched Evalite,
  // docs/evals.md#evalites-ui-patch), so no other process can take it between a check and the bind.
  const server = spawn(join(ROOT, "node_modules/.bin/evalite"), ["serve", evalFile], {
    cwd: ROOT,
    env: { ...process.env, EVALITE_PORT: "0", EVALITE_STORAGE: storage },
    stdio: ["ignore", "pipe", "ignore"],
    detached: true,
  });
  const base = await new Promise<string>((resolve, reject) => {
    let printed = "";
    server.stdout!.on("data", (d: Buffer) => {
      printed += d.toString();
      const port = /^Port 0: using port (\d+), picked by the system$/m.exec(printed)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    server.on("exit", (code) => reject(new Error(`evalite serve exited (${code}) before saying its port: ${printed.slice(-2000)}`)));
  });
  // Serving starts with a run; wait until the suites are in and the run is over.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const menu = (await (await fetch(`${base}/api/menu-items`)).json()) as { suites: Array<{ name: string }> };
      const state = (await (await fetch(`${base}/api/server-state`)).json()) as { type: string };
      const names = menu.suites.map((s) => s.name);
      if (suites.every((suite) => names.includes(suite)) && state.type === "idle") break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`evalite serve did not finish its run on ${base} within 120 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return { server, base };
}

function stopServer(server: ChildProcess | undefined): void {
  if (!server?.pid) return;
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });

describe.skipIf(!haveBrowser)("Evalite UI in headless Chromium", () => {
  let server: ChildProcess;
  let browser: Browser;
  let base: string;
  const scratch = mkdtempSync(join(tmpdir(), "evalite-ui-"));
  const storage = join(scratch, "evalite.db");

  beforeAll(async () => {
    // Its own run: the browser needs the live server, which serves what its own first run stored.
    ({ server, base } = await serveEvalite(EVAL_FILE, storage, [SUITE, MATRIX]));
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    if (existsSync(ARTIFACTS)) console.log(`\nEvalite UI screenshots: ${ARTIFACTS}\n`);
    await browser?.close();
    stopServer(server);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("renders the suite list; an ungated run marks no suite failed, only its trend", async () => {
    const page = await openPage(browser, base);
    const link = sidebarEntry(page, SUITE);
    await link.waitFor({ timeout: RENDER_MS });
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
    expect(await link.innerText()).toContain(SUITE);
    // `evalite serve` is not gated and no case threw: a trend chevron (a first run: "right"), never ⊗.
    expect(await markIn(link)).toBe("circle-chevron-right");
    expect(await markIn(summaryBlock(page))).toBe("circle-chevron-right");
    expect(await page.locator("svg.lucide-circle-x").count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, "suite-list.png") });
    await page.close();
  }, 60_000);

  it("opens each stage by clicking its trace link; shows the relevant documents and the matrix as tables", async () => {
    await checkUi(browser, base, "serve", storage);
  }, 240_000);

  it(
    "does the same in the exported bundle of a gated run on a plain static server, deep links included; ⊗ where the gate failed a suite",
    async () => {
      // A pnpm eval run whose baseline asks more of Cross-language recall than it gives: the gate
      // fails that suite (exit 1) and passes the matrix's.
      const run = await gatedRun.run();
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/ {2}Cross-language recall\|Recall@5\|all {2}0\.\d{4} < floor 0\.9900/);
      const reportFile = readdirSync(run.reportsDir).find((f) => /Z\.json$/.test(f))!;
      const report = JSON.parse(readFileSync(join(run.reportsDir, reportFile), "utf8")) as Report;
      // A one-file run on the committed floors: the raised floor fell, and the floors of the files
      // the filter left out are not run, never missing (test/eval-init.test.ts: what the filter runs).
      expect(report.gate.failures.map((c) => c.key)).toEqual([`${SUITE}|Recall@5|all`]);
      expect(report.gate.missing).toBe(0);
      const gated = join(run.dir, "evalite.db");

      const output = join(scratch, "export");
      const exportIo = { stdout: () => undefined, stderr: (t: string) => process.stderr.write(t) };
      expect(await exportUi(["--output", output], exportIo, { EVALITE_STORAGE: gated })).toBe(0);
      const staticServer: Server = await serveStatic(output);
      const exported = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
      try {
        // A deep link straight to a trace, as a reload or a shared URL would ask for it.
        const deep = await fetch(`${exported}/suite/${encodeURIComponent(SUITE)}/eval/0?trace=4`);
        expect(deep.status).toBe(200);
        await checkUi(browser, exported, "export", gated);

        const page = await openPage(browser, exported);
        await sidebarEntry(page, SUITE).waitFor({ timeout: RENDER_MS });
        // ⊗ beside the suite the gate failed and on the summary; the suite it passed keeps its trend.
        expect(await markIn(sidebarEntry(page, SUITE))).toBe("circle-x");
        expect(await markIn(sidebarEntry(page, MATRIX))).toBe("circle-chevron-right");
        expect(await markIn(summaryBlock(page))).toBe("circle-x");
        // The summary is the mean the terminal prints (`evalite: mean … %`), rounded as the UI rounds.
        // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
        expect(await summaryBlock(page).locator("span span").first().innerText()).toBe(`${Math.round(report.evalite.mean! * 100)}%`);
        expect(run.stdout).toContain(`evalite: mean ${(report.evalite.mean! * 100).toFixed(1)} %`);
        await page.screenshot({ path: join(ARTIFACTS, "export-suite-list.png") });
        // The failed suite's page says what ⊗ means.
        await sidebarEntry(page, SUITE).click();
        await page.getByText("The gate of pnpm eval failed this suite", { exact: false }).waitFor({ timeout: RENDER_MS });
        await page.screenshot({ path: join(ARTIFACTS, "export-failed-suite.png") });
        await page.close();
      } finally {
        staticServer.close();
      }
    },
    RUN_TIMEOUT_MS + 300_000,
  );
});

/** The agent eval's offline suite: each step of a turn is one trace entry (helpers/agent-task.ts). */
const AGENT_SUITE = `Agent turns [agent: ${OFFLINE_POLICY_LABEL}]`;

/** The first case of the newest run of `suite` in `storagePath`: its output, as the agent task returned it. */
async function firstCaseOutput(storagePath: string, suite: string): Promise<AgentTurnOutput> {
  const storage = await createSqliteStorage(storagePath);
  try {
    const [row] = await storage.suites.getMany({ name: suite, orderBy: "created_at", orderDirection: "desc", limit: 1 });
    const [first] = await storage.evals.getMany({ suiteIds: [row!.id], order: 0 });
    return first!.output as AgentTurnOutput;
  } finally {
    await storage.close();
  }
}

describe.skipIf(!haveBrowser)("an agent turn in the Evalite UI, in headless Chromium", () => {
  let browser: Browser;
  let staticServer: Server;
  let base: string;
  let storage: string;
  const scratch = mkdtempSync(join(tmpdir(), "evalite-ui-agent-"));

  beforeAll(async () => {
    // The export of the full offline run (the shared run `fixtures`), which holds the agent eval.
    storage = join((await fixtures.run()).dir, "evalite.db");
    const output = join(scratch, "export");
    const exportIo = { stdout: () => undefined, stderr: (t: string) => process.stderr.write(t) };
    expect(await exportUi(["--output", output], exportIo, { EVALITE_STORAGE: storage })).toBe(0);
    staticServer = await serveStatic(output);
    base = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    staticServer?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("opens a turn's trace: one entry per step's tool call and one for its answer, in the turn's order; the row lists the tools", async () => {
    const { turn } = await firstCaseOutput(storage, AGENT_SUITE);
    expect(turn, "the first turn case has a turn").not.toBeNull();
    // What the trace must show, from the turn the task returned: `step 1: catalog`, …, `step N: answer`.
    const expected = turnTraceEntries(turn!, 0).map((e) => (e.input as { stage: string }).stage);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(expected.at(-1)).toMatch(/^step \d+: answer$/);

    const page = await openPage(browser, `${base}/suite/${encodeURIComponent(AGENT_SUITE)}`);
    // The row's "Tools" column: the tools called, in order (`1 catalog`, `1 search → 2 read_document`).
    await page.getByText(toolsInOrder(turn), { exact: true }).first().waitFor({ timeout: RENDER_MS });
    await page.screenshot({ path: join(ARTIFACTS, "agent-suite.png") });
    await page.goto(`${base}/suite/${encodeURIComponent(AGENT_SUITE)}/eval/0`, { waitUntil: "domcontentloaded" });
    expect(await stagesOfTraces(page, "agent")).toEqual(expected);
    await page.close();
  }, 240_000);
});
