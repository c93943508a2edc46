import { describe, expect } from "vitest";
import { newContext, waitForApp } from "../fixtures.ts";
import { it } from "../shop-test.ts";

/** How many listeners `emitter` has of `event` (Playwright's emitters count them; its types do not say so). */
const listeners = (emitter: object, event: string) =>
  (emitter as { listenerCount(event: string): number }).listenerCount(event);

// A context given back is handed to the next test of the worker with its page kept warm
// (tests/warm-contexts.ts): nothing the last holder did may show. A run with FRESH_CONTEXTS=1 keeps none.
describe.skipIf(process.env.FRESH_CONTEXTS === "1")("a context given back", () => {
  it("comes back as a new one: one blank-state page, no cookies, storage, listeners, routes or looks", async ({
    browser,
    shop,
  }) => {
    const first = await newContext(browser, shop);
    const page = await first.newPage();
    await page.goto("/");
    await waitForApp(page);
    await first.addCookies([{ name: "left", value: "behind", url: shop.url }]);
    await page.evaluate(async () => {
      localStorage.setItem("left", "behind");
      sessionStorage.setItem("left", "behind");
      await new Promise((done) => {
        const opening = indexedDB.open("left-behind");
        opening.onsuccess = done;
      });
    });
    page.on("console", () => undefined);
    first.on("request", () => undefined);
    await page.route("**/robots.txt", (route) => route.fulfill({ body: "routed" }));
    await first.setExtraHTTPHeaders({ "x-left": "behind" });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ colorScheme: "dark" });
    await first.newPage();
    await first.close();

    const second = await newContext(browser, shop);
    expect(second, "the context is kept").toBe(first);
    const again = await second.newPage();
    expect(again, "its page is kept").toBe(page);
    expect(second.pages()).toEqual([page]);
    expect(await second.cookies()).toEqual([]);
    expect(listeners(page, "console")).toBe(0);
    expect(listeners(second, "request")).toBe(0);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 900 });
    await page.goto("/robots.txt");
    expect(await page.textContent("body")).not.toBe("routed");
    const left = await page.evaluate(async () => ({
      local: localStorage.getItem("left"),
      session: sessionStorage.getItem("left"),
      databases: (await indexedDB.databases()).map(({ name }) => name),
      dark: matchMedia("(prefers-color-scheme: dark)").matches,
      history: history.length,
    }));
    expect(left).toEqual({ local: null, session: null, databases: [], dark: false, history: 1 });
    await second.close();
  });

  it("is closed for good after something a reset cannot undo", async ({ browser, shop }) => {
    const first = await newContext(browser, shop);
    const page = await first.newPage();
    await page.addInitScript(() => undefined);
    await first.close();
    expect(page.isClosed()).toBe(true);
    const second = await newContext(browser, shop);
    expect(second).not.toBe(first);
    await second.close();
  });
});
