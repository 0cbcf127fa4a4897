/**
 * The Evalite UI, checked in a real browser as a person uses it: `evalite serve` on a free port
 * and then the static export (`pnpm eval:export`) on the plainest static server, each opened in
 * headless Debian Chromium driven by playwright-core (never a downloaded browser; every request
 * that is not to 127.0.0.1 is aborted, so the test needs no network). It clicks a case, then the
 * trace menu's links (Evalite's fix for evalite#391 is carried by patches/), reads each stage's
 * name, the relevant-documents table and the cross-language matrix. Screenshots land in the
 * git-ignored artifacts/ui/. Without /usr/bin/chromium the test is skipped with a warning,
 * unless REQUIRE_BROWSER=1 (as in .ci/run), where a missing browser fails it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main as exportUi } from "../../bin/eval-export.js";
import { freePort, ROOT } from "../eval-run.js";
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

/** The checks both UIs must pass: click-through traces, the relevant-documents table, the matrix. */
async function checkUi(browser: Browser, base: string, shots: string): Promise<void> {
  const page = await openPage(browser, `${base}/suite/${encodeURIComponent(SUITE)}`);
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
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(join(ROOT, "node_modules/.bin/evalite"), ["serve", EVAL_FILE], {
      cwd: ROOT,
      env: { ...process.env, EVALITE_PORT: String(port), EVALITE_STORAGE: storage },
      stdio: "ignore",
      detached: true,
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

  it("renders the suite list", async () => {
    const page = await openPage(browser, base);
    const link = page.locator(`a[href="/suite/${encodeURIComponent(SUITE)}"]`).first();
    await link.waitFor({ timeout: RENDER_MS });
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
    expect(await link.innerText()).toContain(SUITE);
    await page.screenshot({ path: join(ARTIFACTS, "suite-list.png") });
    await page.close();
  }, 60_000);

  it("opens each stage by clicking its trace link; shows the relevant documents and the matrix as tables", async () => {
    await checkUi(browser, base, "serve");
  }, 240_000);

  it("does the same in the exported bundle on a plain static server, deep links included", async () => {
    const output = join(scratch, "export");
    const exportIo = { stdout: () => undefined, stderr: (t: string) => process.stderr.write(t) };
    expect(await exportUi(["--output", output], exportIo, { EVALITE_STORAGE: storage })).toBe(0);
    const port = await freePort();
    const staticServer: Server = await serveStatic(output, port);
    const exported = `http://127.0.0.1:${port}`;
    try {
      // A deep link straight to a trace, as a reload or a shared URL would ask for it.
      const deep = await fetch(`${exported}/suite/${encodeURIComponent(SUITE)}/eval/0?trace=4`);
      expect(deep.status).toBe(200);
      await checkUi(browser, exported, "export");
    } finally {
      staticServer.close();
    }
  }, 300_000);
});
