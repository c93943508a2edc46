import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { newContext, type Shop, type ShopDatabase, screenshot } from "../fixtures.ts";
import { putInCart } from "../orders.ts";
import { callShopApi, saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";

/** Cash on delivery counted (issue 29): a delivered COD order's cash matched from the courier's report. */
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
let owner: TestAccount;
let shopper: TestAccount;
let addressId: string;

const call = (as: TestAccount, method: string, url: string, body?: unknown) =>
  callShopApi(shop.url, as, method, url, body);

async function deliveredCod(): Promise<{ number: string; totalPaise: number }> {
  await putInCart(database.db, shopper.userId, [{ itemId: "badam-mix" }]);
  const { order } = await call(shopper, "POST", "/orders", { addressId, paymentMethod: "cod" });
  const admin = `/admin/orders/${order.number}`;
  for (const status of ["confirmed", "packed"]) await call(owner, "POST", `${admin}/status`, { status });
  await call(owner, "POST", `${admin}/ship`, { courier: "Delhivery", trackingNumber: `DLV${Date.now()}` });
  await call(owner, "POST", `${admin}/status`, { status: "delivered" });
  return order;
}

ownShopForFile((started) => {
  ({ shop, browser, database, owner } = started);
});
beforeAll(async () => {
  shopper = await signUpViaHttp(shop.url, "meera@example.in");
  addressId = await saveShopAddress(shop.url, shopper);
}, 120_000);

describe("the Cash on delivery page", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`imports a remittance report, lists what did not match, and shows the cash counted (${viewport})`, async () => {
      const paid = await deliveredCod();
      const overdue = await deliveredCod();
      await database.db
        .update(orders)
        .set({ deliveredAt: new Date(Date.now() - 12 * 24 * 3600 * 1000) })
        .where(eq(orders.number, overdue.number));
      // The phone in dark, the desktop in light: both themes looked at without doubling the run.
      const colorScheme = viewport === "phone" ? "dark" : "light";
      const context = await newContext(browser, shop, { viewport, colorScheme });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();
      await page.goto("/admin/cod");
      await page.getByRole("heading", { name: "Cash on delivery", level: 1 }).waitFor();
      await page.getByRole("region", { name: "Overdue" }).getByText(overdue.number).waitFor();

      const today = new Date().toISOString().slice(0, 10);
      const csv = [
        "Order Number,COD Amount,Remittance Date,UTR",
        `${paid.number},${(paid.totalPaise / 100).toFixed(2)},${today},UTR-${viewport}`,
        `${overdue.number},1.00,${today},UTR-${viewport}`,
        `PN-2026-999999,10.00,${today},UTR-${viewport}`,
      ].join("\n");
      await page.getByLabel("Report (CSV)").setInputFiles({
        name: "remittance.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(csv),
      });
      await page.getByRole("button", { name: "Import" }).click();
      await page.getByText("1 recorded").waitFor();
      const notApplied = page.getByRole("list", { name: "Rows not applied" });
      await notApplied.getByText("Amount differs").waitFor();
      await notApplied.getByText("No such order or AWB").waitFor();
      await page.getByRole("region", { name: "Collected" }).getByText(paid.number).waitFor();
      // Nothing on the page is wider than a phone's screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-cod-${viewport}`);

      await page.goto(`/admin/orders/${overdue.number}`);
      await page.getByText("Cash to collect").waitFor();
      await page.getByRole("button", { name: "Record cash collected" }).click();
      await page.getByLabel("Reference").fill(`HAND-${viewport}`);
      await page.getByRole("button", { name: "Record", exact: true }).click();
      await page.getByText(/Cash collected: ₹/).waitFor();
      await screenshot(page, `admin-order-cash-${viewport}`);
      await context.close();
    }, 60_000);
  }
});
