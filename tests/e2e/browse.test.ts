import { describe, expect } from "vitest";
import { type Shop, screenshot } from "../fixtures.ts";
import { fetchPage, h1Of, mainOf, named } from "../page-html.ts";
import { contextOn, it, ownShopProcessForFile } from "../shop-test.ts";

let shop: Shop;

// A shop of its own on the embedded database, as on a fresh machine: no DATABASE_URL.
ownShopProcessForFile(
  (started) => {
    ({ shop } = started);
  },
  { embedded: true },
);

describe("browsing the catalogue", () => {
  it("opens the home page, then a product from it", async ({ browser }) => {
    const context = await contextOn(browser, shop);
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
    // The router commits the new screen just after the URL changes.
    await page.getByRole("heading", { level: 1, name: "Face Glow Oil" }).waitFor();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Face Glow Oil");
    await expect(page.getByRole("main").getByText("₹499").first().isVisible()).resolves.toBe(true);

    const image = page.getByRole("img", { name: "Face Glow Oil" }).first();
    await expect(
      image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).resolves.toBe(true);
    expect(failed).toEqual([]);
    await context.close();
  });

  it("shows the home page for an unknown path and a helpful page for an unknown product", async () => {
    const home = mainOf(await fetchPage(shop, "/no/such/page"));
    expect(named(home.querySelectorAll("a"), /Hair Growth Oil/).length).toBeGreaterThan(0);

    expect(h1Of(await fetchPage(shop, "/product/lipstick"))).toEqual(["We couldn't find that product"]);
  });
});
