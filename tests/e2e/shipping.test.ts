import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { products } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../fake-shiprocket.ts";
import { newContext, SCREENSHOTS, type Shop, type ShopDatabase } from "../fixtures.ts";
import { putInCart, TEST_ADDRESS } from "../orders.ts";
import { ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

/**
 * The owner ships through Shiprocket (a local fake): books three orders (one from its page, two together
 * from the shipping desk), prints the labels as one PDF, and the fake's scans move two to delivered and one
 * to undelivered, which the owner sends out again until it is delivered. On a phone and a desktop.
 */
let fake: FakeShiprocket;
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let shopper: TestAccount;
let db: ShopDatabase;
let addressId: string;
const SHOTS = process.env.SHIP_SHOTS_DIR ?? "/tmp/ship-shots";

async function apiAs(account: TestAccount, method: string, path: string, body?: unknown) {
  const response = await fetch(`${shop.url}${path}`, {
    method,
    headers: {
      Cookie: account.cookie,
      Origin: shop.url,
      "Content-Type": "application/json",
      "Idempotency-Key": crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A cash-on-delivery order, confirmed and packed by the owner. */
async function packedOrder(): Promise<string> {
  await putInCart(db.db, shopper.userId, [{ itemId: "coconut-oil" }]);
  const placed = await apiAs(shopper, "POST", "/api/orders", { addressId, paymentMethod: "cod" });
  const number = placed.order.number as string;
  for (const status of ["confirmed", "packed"]) {
    await apiAs(owner, "POST", `/api/admin/orders/${number}/status`, { status });
  }
  return number;
}

/** One whole-page picture, kept with the run's screenshots and in SHOTS. */
async function shot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  const picture = await page.screenshot({ fullPage: true });
  const folders = [path.resolve(import.meta.dirname, "../../test-results/screenshots"), SHOTS];
  await Promise.all(
    folders.map(async (folder) => {
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, `${name}.png`), picture);
    }),
  );
}

async function noSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
}

const webhookUrl = () => `${shop.url}/api/shipping/tracking-updates`;

beforeAll(async () => {
  fake = await startFakeShiprocket();
});
afterAll(() => fake?.stop());
// The fake answers at an address known once it runs, so the shop's environment is read after it.
ownShopForFile(
  (started) => {
    ({ shop, browser, owner, database: db } = started);
  },
  () => fake.env,
);
beforeAll(async () => {
  shopper = await signUpViaHttp(shop.url, "asha.ship@example.in");
  await db.db.update(products).set({ weightGrams: 220, lengthCm: 6, breadthCm: 6, heightCm: 16 });
  addressId = (await apiAs(shopper, "POST", "/api/addresses", TEST_ADDRESS)).address.id;
}, 120_000);

describe("shipping through Shiprocket", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`the owner books, prints, and the scans move the orders (${viewport})`, async () => {
      const [single, ...pair] = [await packedOrder(), await packedOrder(), await packedOrder()];
      const context = await newContext(browser, shop, { viewport });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();

      // One order from its own page: the couriers serving the PIN, with price and estimate.
      await page.goto(`/admin/orders/${single}`);
      await page.getByRole("button", { name: "Book shipment" }).click();
      const dialog = page.getByRole("dialog", { name: `Book a courier for ${single}` });
      await dialog.getByText("Cheapest").waitFor();
      await dialog.getByText("Fastest").waitFor();
      await shot(page, `ship-book-dialog-${viewport}-light`);
      await dialog.getByRole("radio", { name: /Blue Dart Air/ }).check();
      await dialog.getByRole("button", { name: "Book courier" }).click();
      await page.getByText(/Booked with Blue Dart Air, AWB/).waitFor();
      await page.getByRole("link", { name: "Print label" }).waitFor();

      // The other two together from the shipping desk, labels in one PDF.
      await page.goto("/admin/shipping");
      await page.getByRole("heading", { name: "Ready to book" }).waitFor();
      for (const number of pair) await page.getByRole("checkbox", { name: number }).check();
      await page.getByText("2 selected").waitFor();
      await noSidewaysScroll(page);
      await shot(page, `ship-desk-${viewport}-light`);
      await page.getByRole("button", { name: "Book cheapest" }).click();
      const print = page.getByRole("link", { name: "Print 2 labels" });
      await print.waitFor();
      const labels = await page.request.get((await print.getAttribute("href")) ?? "");
      expect(labels.headers()["content-type"]).toBe("application/pdf");
      const pdf = (await labels.body()).toString("latin1");
      expect(pdf.startsWith("%PDF-")).toBe(true);
      expect(pdf.match(/\/Type \/Page\b/g)?.length).toBe(2);
      await shot(page, `ship-desk-booked-${viewport}-light`);

      // The courier's scans: two delivered, one not.
      const awbs = await Promise.all(
        [single, ...pair].map(async (number) => {
          const view = await apiAs(owner, "GET", `/api/admin/shipping/orders/${number}`);
          return view.shipment.awb as string;
        }),
      );
      const [missed, ...fine] = awbs as [string, ...string[]];
      for (const awb of fine) {
        for (const label of ["PICKED UP", "IN TRANSIT", "OUT FOR DELIVERY", "DELIVERED"] as const) {
          fake.scan(awb, label);
          expect(await fake.sendWebhook(webhookUrl(), awb)).toBe(200);
        }
      }
      fake.scan(missed, "PICKED UP");
      fake.scan(missed, "UNDELIVERED");
      expect(await fake.sendWebhook(webhookUrl(), missed)).toBe(200);

      // The owner sees it among parcels needing a decision and asks for another attempt.
      await page.goto("/admin/shipping");
      const waiting = page
        .getByRole("list", { name: "Parcels needing a decision" })
        .getByRole("listitem")
        .filter({
          hasText: single,
        });
      await waiting.getByText("Delivery attempt failed").waitFor();
      await noSidewaysScroll(page);
      await shot(page, `ship-undelivered-${viewport}-light`);
      await waiting.getByRole("button", { name: "Ask for another attempt" }).click();
      await page.getByText(`${single}: another attempt asked.`).waitFor();
      expect(fake.byAwb(missed).ndrActions.at(-1)).toMatchObject({ action: "re-attempt" });

      fake.scan(missed, "OUT FOR DELIVERY", new Date(Date.now() + 1000));
      fake.scan(missed, "DELIVERED", new Date(Date.now() + 2000));
      expect(await fake.sendWebhook(webhookUrl(), missed)).toBe(200);

      await page.goto(`/admin/orders/${single}`);
      await page.getByRole("list", { name: "Parcel scans" }).getByText("Delivery attempt failed").waitFor();
      await page.getByRole("heading", { name: "Parcel" }).waitFor();
      await noSidewaysScroll(page);
      await shot(page, `ship-order-delivered-${viewport}-light`);
      for (const number of [single, ...pair]) {
        const order = await apiAs(owner, "GET", `/api/admin/orders/${number}`);
        expect(order.order.status).toBe("delivered");
      }
      await context.close();

      // The shopper follows the same parcel on their order page.
      const shopperContext = await newContext(browser, shop, { viewport });
      await signInContext(shopperContext, shop.url, shopper);
      const shopperPage = await shopperContext.newPage();
      await shopperPage.goto(`/orders/${single}`);
      const scans = shopperPage.getByRole("list", { name: "Parcel scans" });
      await scans.getByText("Delivery attempt failed").waitFor();
      expect(await scans.getByRole("listitem").count()).toBe(4);
      await noSidewaysScroll(shopperPage);
      await shot(shopperPage, `ship-shopper-order-${viewport}-light`);
      await shopperContext.close();
    });
  }

  it("the journey in the shop's words, and a parcel coming back until it is back", async () => {
    const number = await packedOrder();
    await apiAs(owner, "POST", `/api/admin/shipping/orders/${number}/book`, { rule: "cheapest" });
    const awb = (await apiAs(owner, "GET", `/api/admin/shipping/orders/${number}`)).shipment.awb as string;
    const open = async (
      who: TestAccount,
      path: string,
      viewport: "phone" | "desktop",
      colorScheme: "light" | "dark",
    ) => {
      const context = await newContext(browser, shop, { viewport, colorScheme });
      await signInContext(context, shop.url, who);
      const page = await context.newPage();
      await page.goto(path);
      return { page, close: () => context.close() };
    };

    // Booked, no scan yet: the pickup day as the shop writes dates, not 2026-12-06.
    const before = await open(shopper, `/orders/${number}`, "phone", "light");
    await before.page
      .getByText(/^The courier collects the parcel on \d{1,2} [A-Z][a-z]{2} \d{4}\.$/)
      .waitFor();
    await before.close();

    for (const label of ["MANIFEST GENERATED", "PICKED UP", "RTO INITIATED"] as const) {
      fake.scan(awb, label);
      expect(await fake.sendWebhook(webhookUrl(), awb)).toBe(200);
    }
    // The shopper's page and the owner's, each loaded once and shown at each width and in each theme.
    const mine = await open(shopper, `/orders/${number}`, "phone", "light");
    await inEachView(mine.page, EVERY_VIEW, async (viewport, scheme) => {
      const scans = mine.page.getByRole("list", { name: "Parcel scans" });
      await scans.getByText("Ready for the courier to collect").waitFor();
      expect(await scans.getByText("MANIFEST GENERATED", { exact: true }).count()).toBe(0);
      expect(await scans.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      // The return has only started: not "Returned".
      await mine.page.getByText("Coming back to us", { exact: true }).first().waitFor();
      expect(await mine.page.getByText("Returned to origin", { exact: true }).count()).toBe(0);
      await noSidewaysScroll(mine.page);
      await shot(mine.page, `ship-coming-back-shopper-${viewport}-${scheme}`);
    });
    await mine.close();
    const staff = await open(owner, `/admin/orders/${number}`, "phone", "light");
    await inEachView(staff.page, EVERY_VIEW, async (viewport, scheme) => {
      await staff.page.getByRole("list", { name: "Parcel scans" }).getByText("Returning to us").waitFor();
      await staff.page.getByText("Coming back to us", { exact: true }).first().waitFor();
      expect(await staff.page.getByText("Returned to origin", { exact: true }).count()).toBe(0);
      await noSidewaysScroll(staff.page);
      await shot(staff.page, `ship-coming-back-admin-${viewport}-${scheme}`);
    });
    await staff.close();

    fake.scan(awb, "RTO DELIVERED", new Date(Date.now() + 1000));
    expect(await fake.sendWebhook(webhookUrl(), awb)).toBe(200);
    const back = await open(shopper, `/orders/${number}`, "phone", "light");
    await back.page.getByText("Returned to us", { exact: true }).first().waitFor();
    await shot(back.page, "ship-returned-shopper-phone-light");
    await back.close();
    const listed = await open(owner, `/admin/orders?q=${number}`, "desktop", "dark");
    await listed.page
      .getByText("Returned to us", { exact: true })
      .filter({ visible: true })
      .first()
      .waitFor();
    await shot(listed.page, "ship-returned-admin-list-desktop-dark");
    await listed.close();
  });

  it("the owner's shipping screens in the dark", async () => {
    const number = await packedOrder();
    const missed = await packedOrder();
    await apiAs(owner, "POST", `/api/admin/shipping/orders/${missed}/book`, { rule: "cheapest" });
    const awb = (await apiAs(owner, "GET", `/api/admin/shipping/orders/${missed}`)).shipment.awb as string;
    fake.scan(awb, "PICKED UP");
    fake.scan(awb, "UNDELIVERED");
    expect(await fake.sendWebhook(webhookUrl(), awb)).toBe(200);
    for (const viewport of ["phone", "desktop"] as const) {
      const context = await newContext(browser, shop, { viewport, colorScheme: "dark" });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();
      await page.goto(`/admin/orders/${number}`);
      await page.getByRole("button", { name: "Book shipment" }).click();
      await page.getByRole("dialog").getByText("Cheapest").waitFor();
      await shot(page, `ship-book-dialog-${viewport}-dark`);
      await page.goto("/admin/shipping");
      await page.getByRole("heading", { name: "Ready to book" }).waitFor();
      await page.getByRole("list", { name: "Parcels needing a decision" }).getByText(missed).waitFor();
      await noSidewaysScroll(page);
      await shot(page, `ship-desk-${viewport}-dark`);
      await page.goto(`/admin/orders/${missed}`);
      await page.getByRole("button", { name: "Return to us" }).waitFor();
      await noSidewaysScroll(page);
      await shot(page, `ship-order-undelivered-${viewport}-dark`);
      await context.close();
    }
  });
});
