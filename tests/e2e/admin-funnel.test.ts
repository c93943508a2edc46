import { sql } from "drizzle-orm";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { FunnelFigures } from "../../common/funnel.ts";
import type { TestAccount } from "../accounts.ts";
import { shootRegionLightAndDark } from "../color-scheme.ts";
import { newContext, type Shop, type ShopDatabase, shoot } from "../fixtures.ts";
import { addToCart, enterGuestAddress } from "../forms.ts";
import { TEST_ADDRESS } from "../orders.ts";
import { ownShopForFile } from "../shop-test.ts";
import { openSignedInPage } from "../signed-in-page.ts";

/**
 * The funnel counted from what shoppers' browsers ask of the shop (issue 44, docs/decisions/090): a guest views
 * a product, adds it to the cart, reaches checkout and places a cash-on-delivery order, which the owner then
 * confirms (paid, for cash on delivery); the owner's dashboard shows one session at each step. A browser that
 * sends do-not-track is not counted, nor anyone while the owner has turned counting off.
 */
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let database: ShopDatabase;

ownShopForFile((started) => {
  ({ shop, browser, owner, database } = started);
});

/** What Chrome on a phone sends: the test browser's own says "HeadlessChrome", which the shop takes for a robot. */
const shopperBrowser = (build: number) =>
  `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.${build}.0 Mobile Safari/537.36`;

async function shopperContext(build: number, headers: Record<string, string> = {}): Promise<BrowserContext> {
  const context = await newContext(browser, shop, { viewport: "phone" });
  await context.setExtraHTTPHeaders({ "User-Agent": shopperBrowser(build), ...headers });
  return context;
}

const viewAndAdd = (page: Page) => addToCart(page, "face-glow-oil", "Face Glow Oil");

async function guestOrdersCashOnDelivery(page: Page): Promise<string> {
  await viewAndAdd(page);
  await page.goto("/cart");
  await page.getByRole("link", { name: "Checkout" }).click();
  await page.getByRole("link", { name: "Check out as a guest" }).click();
  await page.getByRole("heading", { name: "Checkout" }).waitFor();
  await enterGuestAddress(page, "funnel-guest@example.in", TEST_ADDRESS);
  const cash = page.getByRole("radio", { name: /Cash on delivery/ });
  if ((await cash.count()) > 0) await cash.check();
  await page.getByRole("button", { name: /^Place order/ }).click();
  await page.waitForURL(/\/guest-order\/PN-\d{4}-\d{6}\?token=/);
  await page.getByText("Thank you! Your order is placed.").waitFor();
  return page.url().match(/PN-\d{4}-\d{6}/)?.[0] ?? "";
}

/** The sessions a table row shows, its first cell (the step or the day) left out. */
const cellsOf = async (row: Locator) => (await row.locator("th, td").allInnerTexts()).slice(1);

/** The owner's dashboard for today, reloaded until the shop has written what it counted (every 2 s). */
async function funnelToday(page: Page, expected: FunnelFigures["totals"]) {
  for (let attempt = 0; ; attempt++) {
    const answer = (await (
      await page.request.get("/api/admin/analytics/funnel?period=today")
    ).json()) as FunnelFigures;
    if (JSON.stringify(answer.totals) === JSON.stringify(expected) || attempt > 20) return answer;
    await page.waitForTimeout(500);
  }
}

describe("the funnel on the admin home", () => {
  it("counts a guest's visit, cart, checkout, order and payment from the browser's requests, once each", async () => {
    const shopper = await shopperContext(1);
    const number = await guestOrdersCashOnDelivery(await shopper.newPage());
    // Back to the product and the cart the same day: the same session.
    const again = await shopper.newPage();
    await viewAndAdd(again);
    await shopper.close();

    // A browser asking not to be tracked does the same and is not counted.
    const private_ = await shopperContext(2, { DNT: "1" });
    await viewAndAdd(await private_.newPage());
    await private_.close();

    const { page, close } = await openSignedInPage(browser, shop, owner, "/admin?period=today", {
      viewport: "desktop",
    });
    const ordered = await funnelToday(page, { viewed: 1, added: 1, checkout: 1, ordered: 1, paid: 0 });
    expect(ordered.totals).toEqual({ viewed: 1, added: 1, checkout: 1, ordered: 1, paid: 0 });

    // The owner confirms the cash-on-delivery order: for the funnel, the session has paid.
    const confirmed = await page.request.post(`/api/admin/cod-confirm/${number}/confirm`, {
      headers: { Origin: shop.url, "Content-Type": "application/json" },
      data: {},
    });
    expect(confirmed.status()).toBe(200);
    const paid = await funnelToday(page, { viewed: 1, added: 1, checkout: 1, ordered: 1, paid: 1 });
    expect(paid.totals).toEqual({ viewed: 1, added: 1, checkout: 1, ordered: 1, paid: 1 });

    // What was stored of the visitor is a hash: neither the address nor the browser is in it.
    const visitors = await database.db.execute<{ visitor: string }>(
      sql`select distinct visitor from funnel_visits`,
    );
    expect(visitors.rows).toHaveLength(1);
    expect(visitors.rows[0]?.visitor).toMatch(/^[0-9a-f]{32}$/);

    await page.reload();
    const panel = page.getByRole("region", { name: "The funnel" });
    await panel.waitFor();
    const steps = panel.getByRole("table", { name: /at each step of the funnel, and the drop/ });
    expect(await cellsOf(steps.getByRole("row", { name: /Viewed a product/ }))).toEqual(["1", "–"]);
    expect(await cellsOf(steps.getByRole("row", { name: /Placed an order/ }))).toEqual(["1", "0 % drop"]);
    expect(await cellsOf(steps.getByRole("row", { name: /^Paid/ }))).toEqual(["1", "0 % drop"]);
    const days = panel.getByRole("table", { name: /day by day/ });
    expect(await cellsOf(days.locator("tbody tr").first())).toEqual(["1", "1", "1", "1", "1"]);
    const csv = await page.request.get(
      (await panel.getByRole("link", { name: /Download CSV/ }).getAttribute("href")) ?? "",
    );
    expect(csv.status()).toBe(200);
    expect((await csv.text()).split("\r\n")[1]).toMatch(/^\d{4}-\d{2}-\d{2},1,1,1,1,1,0,0,0,0$/);
    await shootRegionLightAndDark(page, "The funnel", "admin-funnel-desktop");
    await close();

    const phone = await openSignedInPage(browser, shop, owner, "/admin?period=today", { viewport: "phone" });
    await phone.page.getByRole("region", { name: "The funnel" }).waitFor();
    await shootRegionLightAndDark(phone.page, "The funnel", "admin-funnel-phone");
    await phone.close();
  });

  it("counts nobody once the owner turns counting off in Settings, and says so on the dashboard", async () => {
    const { page, close } = await openSignedInPage(browser, shop, owner, "/admin/settings", {
      viewport: "phone",
    });
    const section = page.getByRole("region", { name: "Visits counted for the funnel" });
    await section.getByRole("checkbox", { name: "Count visits for the funnel" }).uncheck();
    await section.getByText("Saved: no visit is counted from now on.").waitFor();
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shoot(section, {
        path: `test-results/screenshots/admin-funnel-switch-off-phone-${scheme}.png`,
      });
    }
    await page.emulateMedia({ colorScheme: "light" });

    const before = (await (
      await page.request.get("/api/admin/analytics/funnel?period=today")
    ).json()) as FunnelFigures;
    const shopper = await shopperContext(3);
    await viewAndAdd(await shopper.newPage());
    await shopper.close();
    // Longer than the shop waits before writing what it counted.
    await page.waitForTimeout(3_000);
    const after = (await (
      await page.request.get("/api/admin/analytics/funnel?period=today")
    ).json()) as FunnelFigures;
    expect(after.totals).toEqual(before.totals);
    expect(after.counting).toBe(false);

    await page.goto("/admin?period=today");
    const panel = page.getByRole("region", { name: "The funnel" });
    await panel.getByText("Counting is off: visits are not being counted.").waitFor();
    await shoot(panel, { path: "test-results/screenshots/admin-funnel-off-phone-light.png" });
    await panel.getByRole("link", { name: "Turn it on in Settings" }).click();
    await page.getByRole("checkbox", { name: "Count visits for the funnel" }).check();
    await page.getByText("Saved: visits are counted for the funnel from now on.").waitFor();
    await close();
  });
});
