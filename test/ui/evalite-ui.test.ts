/**
 * The Evalite UI, checked in a real browser: `evalite serve` on a free port, headless Debian
 * Chromium driven by playwright-core (never a downloaded browser). Screenshots land in the
 * git-ignored artifacts/ui/. Without /usr/bin/chromium the test is skipped with a warning,
 * unless REQUIRE_BROWSER=1 (as in .ci/run), where a missing browser fails it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { freePort, ROOT } from "../eval-run.js";

const CHROMIUM = "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser) {
  if (process.env.REQUIRE_BROWSER === "1")
    throw new Error(`${CHROMIUM} not found: install Debian's chromium package (apt-get install chromium)`);
  console.warn(`\n⚠  SKIPPED the Evalite UI browser test: ${CHROMIUM} not found (apt-get install chromium to run it).\n`);
}

const SUITE = "Hybrid query (balanced)";

/** The UI shows a trace input as a key: value tree, or as a table when it is flat. */
function stageShown(text: string): string | undefined {
  const tree = /stage:"([^"]+)"/.exec(text);
  if (tree) return tree[1];
  const lines = text.split("\n");
  const header = lines.findIndex((l) => l.split("\t")[0] === "stage");
  return header >= 0 ? lines[header + 1]?.split("\t")[0] : undefined;
}
const ARTIFACTS = join(ROOT, "artifacts", "ui");

describe.skipIf(!haveBrowser)("Evalite UI in headless Chromium", () => {
  let server: ChildProcess;
  let browser: Browser;
  let base: string;
  const scratch = mkdtempSync(join(tmpdir(), "evalite-ui-"));

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(join(ROOT, "node_modules/.bin/evalite"), ["serve", "evals/query.eval.ts"], {
      cwd: ROOT,
      env: { ...process.env, EVALITE_PORT: String(port), EVALITE_STORAGE: join(scratch, "evalite.db") },
      stdio: "ignore",
      detached: true,
    });
    // Serving starts with a run; wait until the suite is in and the run is over.
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        const menu = (await (await fetch(`${base}/api/menu-items`)).json()) as { suites: Array<{ name: string }>; runStatus?: string };
        const state = (await (await fetch(`${base}/api/server-state`)).json()) as { type: string };
        if (menu.suites.some((s) => s.name === SUITE) && state.type === "idle") break;
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
    const page = await browser.newPage();
    await page.goto(base, { waitUntil: "domcontentloaded" });
    const link = page.locator(`a[href="/suite/${encodeURIComponent(SUITE)}"]`).first();
    await link.waitFor({ timeout: 30_000 });
    // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
    expect(await link.innerText()).toContain(SUITE);
    await page.screenshot({ path: join(ARTIFACTS, "suite-list.png") });
    await page.close();
  }, 60_000);

  it("shows one case's bm25, vector and fusion stages in its trace", async () => {
    const page = await browser.newPage();
    const stages: string[] = [];
    for (const trace of [0, 1, 2]) {
      await page.goto(`${base}/suite/${encodeURIComponent(SUITE)}/eval/0?trace=${trace}`, { waitUntil: "domcontentloaded" });
      const panel = page.locator("div.flex-grow.border-l").first();
      await panel.getByText("Input", { exact: true }).waitFor({ timeout: 30_000 });
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads what the UI renders, not hidden nodes
      const text = await panel.innerText();
      stages.push(stageShown(text) ?? `(no stage in: ${text.slice(0, 120)})`);
      await page.screenshot({ path: join(ARTIFACTS, `trace-${trace}.png`) });
    }
    expect(stages).toEqual(["bm25", "vector", "fusion"]);
    await page.close();
  }, 90_000);
});
