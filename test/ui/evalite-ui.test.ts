/**
 * The Evalite UI, checked in a real browser as a person uses it: `evalite serve` on a port the system picks
 * and then the static export (`pnpm eval:export`) of a gated `pnpm eval` run on the plainest
 * static server, each opened in headless Debian Chromium driven by playwright-core (never a
 * downloaded browser; every request that is not to 127.0.0.1 is aborted, so the test needs no
 * network). It clicks a case, then the trace menu's links (Evalite's fix for evalite#391 is
 * carried by patches/), reads each stage's name, the relevant-documents table and the
 * cross-language matrix, and what the UI says of a suite: its duration (Evalite's is always 0),
 * its mark (⊗ exactly where the gate failed a suite) and the summary (the mean the terminal
 * prints). Screenshots land in the git-ignored artifacts/ui/ (the path is printed). Without
 * /usr/bin/chromium the test is skipped with a warning, unless REQUIRE_BROWSER=1 (as in
 * .ci/run), where a missing browser fails it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Baseline } from "@hybrid-search/eval-gate/baseline";
import type { Report } from "@hybrid-search/eval-gate/report";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main as exportUi } from "../../bin/eval-export.js";
import { ROOT, RUN_TIMEOUT_MS, runEval } from "../eval-run.js";
import { serveStatic } from "./static-server.js";

const CHROMIUM = "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser) {
  if (process.env.REQUIRE_BROWSER === "1")
    throw new Error(`${CHROMIUM} not found: install Debian's chromium package (apt-get install chromium)`);
  console.warn(`\n⚠  SKIPPED the Evalite UI browser test: ${CHROMIUM} not found (apt-get install chromium to run it).\n`);
}

/** The eval file served: retrieval cases with every balanced-tier stage, and the matrix. */
const EVAL_FILE = "evals/multilingual.eval.ts";
const SUITE = "Cross-language recall";
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
    /^(found|not retrieved: not in .* top \d+|fusion: (fusion rank \d+ > 10|not in fusion top \d+)|rerank: rerank moved it \d+ → \d+)$/,
  );
  await page.close();

  const matrix = await openPage(browser, `${base}/suite/${encodeURIComponent(MATRIX)}/eval/0`);
  const shown = await matrixShown(matrix);
  expect(shown.header).toEqual(["Recall@5: query ↓ document →", "de", "en", "fr", "it"]);
  expect(shown.queryLanguages).toEqual(["de", "en", "fr", "it"]);
  await matrix.screenshot({ path: join(ARTIFACTS, `${shots}-matrix.png`) });
  await matrix.close();
}

describe.skipIf(!haveBrowser)("Evalite UI in headless Chromium", () => {
  let server: ChildProcess;
  let browser: Browser;
  let base: string;
  const scratch = mkdtempSync(join(tmpdir(), "evalite-ui-"));
  const storage = join(scratch, "evalite.db");

  beforeAll(async () => {
    // Port 0: the server binds a port the system picks and says which (patched Evalite,
    // docs/evals.md#evalites-ui-patch), so no other process can take it between a check and the bind.
    server = spawn(join(ROOT, "node_modules/.bin/evalite"), ["serve", EVAL_FILE], {
      cwd: ROOT,
      env: { ...process.env, EVALITE_PORT: "0", EVALITE_STORAGE: storage },
      stdio: ["ignore", "pipe", "ignore"],
      detached: true,
    });
    base = await new Promise<string>((resolve, reject) => {
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
        if (names.includes(SUITE) && names.includes(MATRIX) && state.type === "idle") break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`evalite serve did not finish its run on ${base} within 120 s`);
      await new Promise((r) => setTimeout(r, 500));
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    if (existsSync(ARTIFACTS)) console.log(`\nEvalite UI screenshots: ${ARTIFACTS}\n`);
    await browser?.close();
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
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
      const baseline = JSON.parse(readFileSync(join(ROOT, "evals/baseline.json"), "utf8")) as Baseline;
      baseline.floors.offline![SUITE]!["Recall@5"]!.all = 0.99;
      const baselinePath = join(scratch, "baseline.json");
      writeFileSync(baselinePath, JSON.stringify(baseline));
      const run = await runEval([EVAL_FILE], { EVAL_BASELINE: baselinePath, EVAL_REPORTS_DIR: join(scratch, "reports") });
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
        rmSync(run.dir, { recursive: true, force: true });
      }
    },
    RUN_TIMEOUT_MS + 300_000,
  );
});
