import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { launchBrowser, VIEWPORTS, waitForApp } from "../tests/fixtures.ts";

/**
 * The page-level targets of the http bench: the gzip JavaScript budget of / (the figure
 * tests/e2e/javascript-budget.test.ts holds), and Lighthouse's mobile preset, median of three runs, on /,
 * a product page and a combo page, driving Debian's Chromium.
 */
const BUDGET_BYTES = 120_000;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

async function javascriptOfHome(url: string) {
  const browser = await launchBrowser();
  try {
    const totals: string[] = [];
    let held = true;
    for (const viewport of ["phone", "desktop"] as const) {
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
      const page = await context.newPage();
      const sizes: Promise<number>[] = [];
      page.on("response", (response) => {
        if (response.request().resourceType() === "script")
          sizes.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
      });
      await page.goto(`${url}/`);
      // The server's HTML shows without the app: wait for the app itself, or a page whose code never ran
      // (refused by the CSP, say) would count as 0 kB and hold the budget.
      await waitForApp(page);
      await page.waitForLoadState("networkidle");
      const total = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
      held &&= total > 0 && total <= BUDGET_BYTES;
      totals.push(`${viewport} ${(total / 1000).toFixed(1)} kB`);
      await context.close();
    }
    console.log(
      `  ${held ? "met    " : "NOT met"}  JavaScript of / (gzip -9) <= ${BUDGET_BYTES / 1000} kB: ${totals.join(", ")}`,
    );
  } finally {
    await browser.close();
  }
}

type Scores = { performance: number; accessibility: number; bestPractices: number; seo: number; lcp: number };

async function lighthouseOnce(port: number, url: string): Promise<Scores> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcp: (audits["largest-contentful-paint"]?.numericValue ?? Number.NaN) / 1000,
  };
}

export async function browserChecks(url: string, productPath: string, comboPath: string) {
  console.log("\nPage targets:");
  await javascriptOfHome(url);
  const chrome = await chromeLauncher.launch({
    chromePath: "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"],
  });
  try {
    for (const target of ["/", productPath, comboPath]) {
      const runs: Scores[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await lighthouseOnce(chrome.port, `${url}${target}`));
      // The median run by performance score, as Lighthouse's own guidance for variance suggests.
      const median = [...runs].sort((a, b) => a.performance - b.performance)[
        Math.floor(runs.length / 2)
      ] as Scores;
      const met =
        median.performance >= 95 &&
        median.accessibility === 100 &&
        median.bestPractices === 100 &&
        median.seo === 100 &&
        median.lcp <= 2;
      console.log(
        `  ${met ? "met    " : "NOT met"}  Lighthouse mobile ${target} (median of ${RUNS}): performance ${median.performance}, accessibility ${median.accessibility}, best practices ${median.bestPractices}, SEO ${median.seo}, LCP ${median.lcp.toFixed(2)} s (performance of each run: ${runs.map((r) => r.performance).join(", ")})`,
      );
    }
  } finally {
    chrome.kill();
  }
}
