import { createServer } from "node:http";
import { findFreePort } from "../server/db/embedded.ts";
import { launchBrowser } from "../tests/fixtures.ts";
import { SLOW_PHONE, slowDown } from "../tests/slow-phone.ts";
import { startBenchShop } from "./support.ts";

/**
 * Issue 27's first tap: a slow phone (375 px, CPU 4x slower, 1.6 Mbit/s, 150 ms) opens a product page and
 * taps Add to cart the moment the button shows. Counted when the item then reaches the cart. Target: 10 of
 * 10 (before the app loader kept taps, 0 of 10). Each run also says when the tap came and when the app
 * started, so a run where the app beat the tap (proving nothing) is visible.
 */
const RUNS = Number(process.env.BENCH_FIRST_TAP_RUNS ?? 10);
const PRODUCT = { path: "/product/badam-mix", name: "Badam Mix" };
// Long enough for a lost tap to be lost: the app starts in 2-5 s on the slowed phone.
const COUNT_WITHIN_MS = 15_000;

export default async function firstTapBench() {
  const shop = await startBenchShop();
  const port = await findFreePort();
  const server = createServer(shop.listener()).listen(port, "127.0.0.1");
  const url = `http://127.0.0.1:${port}`;
  const browser = await launchBrowser();
  try {
    // The first render of a page is made once and kept (decision 048): the runs measure the phone, not that.
    await fetch(`${url}${PRODUCT.path}`);
    console.log(
      `\nfirst tap on Add to cart, 375 px, CPU ${SLOW_PHONE.cpuSlowdown}x slower, ` +
        `${((SLOW_PHONE.downloadBytesPerSecond * 8) / 1024 / 1024).toFixed(1)} Mbit/s, ${SLOW_PHONE.latencyMs} ms`,
    );
    let counted = 0;
    let beforeApp = 0;
    for (let run = 1; run <= RUNS; run++) {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 375, height: 812 } });
      const page = await context.newPage();
      await slowDown(context, page);
      // Whether the app had started, as the page saw it at the tap (not after Playwright's click returns).
      await page.addInitScript(() => {
        window.addEventListener(
          "click",
          () => {
            Object.assign(window, {
              __tapBeforeApp: !document.documentElement.hasAttribute("data-hydrated"),
            });
          },
          { capture: true, once: true },
        );
      });
      const opened = performance.now();
      await page.goto(PRODUCT.path, { waitUntil: "commit" });
      // The moment it shows, as a thumb would: not after Playwright's wait for the page to stop moving,
      // which on the slowed phone can outlast the app's start.
      const add = page.getByRole("button", { name: "Add to cart" });
      await add.waitFor({ state: "visible", timeout: 30_000 });
      await add.click({ force: true });
      const tapAt = performance.now() - opened;
      const tapBeforeApp = await page.evaluate(
        () => (window as unknown as { __tapBeforeApp?: boolean }).__tapBeforeApp === true,
      );
      if (tapBeforeApp) beforeApp++;
      await page
        .locator("html[data-hydrated]")
        .waitFor({ state: "attached", timeout: 30_000 })
        .catch(() => undefined);
      const appAt = performance.now() - opened;
      // The cart as the app keeps a guest's: in this browser's storage, read after the app has had its time.
      let inCart = false;
      const deadline = performance.now() + COUNT_WITHIN_MS;
      while (!inCart && performance.now() < deadline) {
        inCart = await page.evaluate(
          (id) => (localStorage.getItem("cart") ?? "").includes(`"${id}"`),
          PRODUCT.path.split("/").pop(),
        );
        if (!inCart) await page.waitForTimeout(250);
      }
      if (inCart) counted++;
      console.log(
        `  run ${String(run).padStart(2)}: tap at ${(tapAt / 1000).toFixed(2)} s (${tapBeforeApp ? "before" : "after"} the app), ` +
          `app at ${(appAt / 1000).toFixed(2)} s, ${inCart ? "counted" : "LOST"}`,
      );
      await context.close();
    }
    console.log(
      `  ${counted === RUNS ? "met    " : "NOT met"}  first tap counted in ${counted} of ${RUNS} runs ` +
        `(${beforeApp} of the taps came before the app had started)`,
    );
  } finally {
    await browser.close();
    server.close();
    await shop.stop();
  }
}
