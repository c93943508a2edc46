import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { signInContext, signUpViaHttp } from "../accounts.ts";
import { scrollThrough, VIEWPORTS, waitForApp } from "../fixtures.ts";
import { it, uniqueEmail } from "../shop-test.ts";

// Everything a first visit to / downloads before the visitor does anything, gzipped at level 9 (so the
// figure does not depend on the server's compression level). 1 kB = 1000 bytes.
const BUDGET_BYTES = 120_000;

/** Records every script the page downloads from now on, as file name and gzip -9 size. */
function recordScripts(page: Page) {
  const scripts = new Map<string, Promise<number>>();
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    const name = new URL(response.url()).pathname;
    scripts.set(
      name,
      response.body().then((body) => gzipSync(body, { level: 9 }).length),
    );
  });
  return async () => {
    const sizes = await Promise.all([...scripts].map(async ([name, size]) => ({ name, gzip: await size })));
    return { total: sizes.reduce((sum, { gzip }) => sum + gzip, 0), sizes };
  };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

describe("the JavaScript / loads", () => {
  it.for(Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[])(
    "stays within 120 kB of gzip on a first visit at the %s width",
    async (viewport, { openContext }) => {
      const context = await openContext({ viewport, fresh: true });
      const page = await context.newPage();
      const scripts = recordScripts(page);
      await page.goto("/");
      await waitForApp(page);
      await page.waitForLoadState("networkidle");
      const firstVisit = await scripts();

      // Reported, not budgeted: what a visitor who reads the whole page down to the footer adds.
      await scrollThrough(page);
      await page.locator("#contact").waitFor();
      const wholePage = await scripts();

      console.log(
        [
          `/ at ${viewport} width: ${kB(firstVisit.total)} of JavaScript (gzip -9), budget ${kB(BUDGET_BYTES)}`,
          ...firstVisit.sizes.map(({ name, gzip }) => `  ${kB(gzip).padStart(9)}  ${name}`),
          `  read to the footer: ${kB(wholePage.total)} in all`,
        ].join("\n"),
      );
      expect(firstVisit.sizes.length).toBeGreaterThan(0);
      expect(firstVisit.total).toBeLessThanOrEqual(BUDGET_BYTES);
      await context.close();
    },
  );

  it("reports what a returning shopper, signed in with a cart, loads on top", async ({
    shop,
    openContext,
  }) => {
    const account = await signUpViaHttp(shop.url, uniqueEmail("returning"));
    const added = await fetch(`${shop.url}/api/cart/items`, {
      method: "POST",
      headers: { Cookie: account.cookie, "Content-Type": "application/json", Origin: shop.url },
      body: JSON.stringify({ id: "coconut-oil", kind: "product" }),
    });
    expect(added.status).toBe(200);
    const context = await openContext({ fresh: true });
    await signInContext(context, shop.url, account);
    const page = await context.newPage();
    const scripts = recordScripts(page);
    await page.goto("/");
    await page.getByRole("link", { name: "Cart, 1 item" }).waitFor();
    await page.waitForLoadState("networkidle");
    const visit = await scripts();
    console.log(
      [
        `/ signed in, with a cart: ${kB(visit.total)} of JavaScript (gzip -9)`,
        ...visit.sizes.map(({ name, gzip }) => `  ${kB(gzip).padStart(9)}  ${name}`),
      ].join("\n"),
    );
    await context.close();
  });
});
