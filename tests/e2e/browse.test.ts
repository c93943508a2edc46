import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, type Shop, screenshot, startShop } from "../fixtures.ts";

let shop: Shop;
let browser: Browser;

beforeAll(async () => {
  // The embedded database, as on a fresh machine: no DATABASE_URL.
  [shop, browser] = await Promise.all([startShop({ embedded: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

describe("browsing the catalogue", () => {
  it("opens the home page, then a product from it", async () => {
    const context = await newContext(browser, shop);
    const page = await context.newPage();
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });

    await page.goto("/");
    const card = page.getByRole("link", { name: /Face Glow Oil/ }).first();
    await card.waitFor();
    await screenshot(page, "browse-home-desktop");

    await card.click();
    await page.waitForURL("**/product/face-glow-oil");
    // The URL changes before React commits the new page (navigations render in a transition).
    await page.getByRole("heading", { level: 1, name: "Face Glow Oil" }).waitFor();
    await expect(page.getByText("₹499").first().isVisible()).resolves.toBe(true);

    const image = page.getByRole("img", { name: "Face Glow Oil" }).first();
    await expect(
      // decode() waits for the image to arrive and fails if it is broken.
      image.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth > 0)),
    ).resolves.toBe(true);
    expect(failed).toEqual([]);
    await context.close();
  });

  it("shows the home page for an unknown path and a helpful page for an unknown product", async () => {
    const context = await newContext(browser, shop);
    const page = await context.newPage();
    await page.goto("/no/such/page");
    await page
      .getByRole("link", { name: /Hair Growth Oil/ })
      .first()
      .waitFor();

    await page.goto("/product/lipstick");
    await page.getByRole("heading", { name: "We couldn't find that product" }).waitFor();
    await context.close();
  });
});
