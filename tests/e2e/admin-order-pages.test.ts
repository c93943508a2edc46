import type { Browser } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import { fillBigShop } from "../../scripts/big-shop.ts";
import { signInContext, type TestAccount } from "../accounts.ts";
import { type Shop, type ShopDatabase, screenshot } from "../fixtures.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

/** Staff page through a shop's orders by Newer / Older, on a phone and a desktop, light and dark. */
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let database: ShopDatabase;

// A shop of its own: the list it pages through holds exactly the 120 orders it adds.
ownShopForFile((started) => {
  ({ shop, database, owner } = started);
});
it.beforeAll(({ browser: workerBrowser }) => {
  browser = workerBrowser;
});
beforeAll(async () => {
  await fillBigShop(database.db, { orders: 120 });
}, 120_000);

describe("the staff's order list", () => {
  // The paging once per width; the list is looked at in both themes, switched under the loaded page (the
  // theme changes how the list looks, not how it pages).
  for (const viewport of ["phone", "desktop"] as const) {
    const looks = viewsAt([viewport]);
    it(`pages older and newer by cursor (${viewport}, light and dark)`, async () => {
      const context = await contextOn(browser, shop, { viewport, colorScheme: "light" });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();
      await page.goto("/admin/orders");
      await page.getByRole("heading", { name: "Orders" }).waitFor();
      await page.getByText("120 orders").waitFor();
      // The phone shows a card per order, the desktop the table: the order numbers are links in either.
      const numbers =
        viewport === "phone"
          ? page.getByRole("list", { name: "Orders" }).getByRole("link")
          : page.locator("tbody th");
      const firstNumbers = await numbers.allTextContents();
      expect(firstNumbers).toHaveLength(25);
      const pages = page.getByRole("navigation", { name: "Pages of orders" });
      expect(await pages.getByRole("link", { name: "← Newer" }).count()).toBe(0);
      await inEachView(page, looks, async (_, colorScheme) => {
        await screenshot(page, `admin-orders-${viewport}-${colorScheme}`);
      });

      await pages.getByRole("link", { name: "Older →" }).click();
      await page.waitForURL(/after=/);
      await numbers
        .first()
        .filter({ hasNotText: firstNumbers[0] ?? "" })
        .waitFor();
      const second = await numbers.allTextContents();
      expect(second).toHaveLength(25);
      expect(second.some((number) => firstNumbers.includes(number))).toBe(false);
      // Newest first: the second page starts below the first page's last order.
      expect((second[0] ?? "") < (firstNumbers.at(-1) ?? "")).toBe(true);

      await pages.getByRole("link", { name: "← Newer" }).click();
      await page.waitForURL(/before=/);
      await numbers
        .first()
        .filter({ hasText: firstNumbers[0] ?? "" })
        .waitFor();
      expect(await numbers.allTextContents()).toEqual(firstNumbers);
      expect(await pages.getByRole("link", { name: "← Newer" }).count()).toBe(0);

      // Nothing wider than the screen but the table's own scroller.
      await inEachView(page, looks, async (_, colorScheme) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, colorScheme).toBeLessThanOrEqual(0);
      });
      await context.close();
    });
  }
});
