import { mkdir } from "node:fs/promises";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../server/db/client.ts";
import { makeAdmin, signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { newContext, type Shop, startShopAndBrowser, VIEWPORTS } from "../fixtures.ts";
import { putInCart, stockOf } from "../orders.ts";
import { callShopApi } from "../shop-api-call.ts";

/**
 * The owner's COD rules and returns to origin (issue 29): an order refused cash by a PIN rule at checkout with
 * the reason beside the choice, and a parcel returned to origin, received back with its stock, in the figures.
 */
let shop: Shop;
let browser: Browser;
let stop: (() => Promise<void>) | undefined;
let database: ReturnType<typeof createDb>;
let owner: TestAccount;
let staff: TestAccount;
let shopper: TestAccount;
let _chennaiAddress: string;
let bengaluruAddress: string;

const SHOTS = "/tmp/cod-rules-shots";
const ITEM = "badam-mix";

const call = (as: TestAccount, method: string, url: string, body?: unknown) =>
  callShopApi(shop.url, as, method, url, body);

/** The screen in light and dark at the context's width, for a person to look at. */
async function lookAt(page: Page, name: string, show?: Locator) {
  await mkdir(SHOTS, { recursive: true });
  await show?.scrollIntoViewIfNeeded();
  const width = page.viewportSize()?.width;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

async function shippedCod(): Promise<string> {
  await putInCart(database.db, shopper.userId, [{ itemId: ITEM }]);
  const { order } = await call(shopper, "POST", "/orders", {
    addressId: bengaluruAddress,
    paymentMethod: "cod",
  });
  const admin = `/admin/orders/${order.number}`;
  for (const status of ["confirmed", "packed"]) await call(staff, "POST", `${admin}/status`, { status });
  await call(staff, "POST", `${admin}/ship`, { courier: "Delhivery", trackingNumber: `DLV${Date.now()}` });
  return order.number;
}

beforeAll(async () => {
  ({ shop, browser, stop } = await startShopAndBrowser());
  database = createDb(shop.databaseUrl ?? "", { max: 2 });
  owner = await signUpViaHttp(shop.url, "owner@example.in");
  await makeAdmin(database.db, owner.userId, "owner");
  staff = await signUpViaHttp(shop.url, "staff@example.in");
  await makeAdmin(database.db, staff.userId, "staff");
  shopper = await signUpViaHttp(shop.url, "meera@example.in");
  const address = (pin: string, city: string, state: string) =>
    call(shopper, "POST", "/addresses", {
      name: "Meera Iyer",
      phone: "98765 43210",
      line1: "12, Lotus Apartments",
      city,
      state,
      pin,
    });
  _chennaiAddress = (await address("600020", "Chennai", "Tamil Nadu")).address.id;
  bengaluruAddress = (await address("560038", "Bengaluru", "Karnataka")).address.id;
}, 120_000);
afterAll(async () => {
  await database?.pool.end();
  await stop?.();
});

describe("the owner's COD rules and returns to origin", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`refuses cash for a PIN with the reason, and takes a returned parcel back into stock (${VIEWPORTS[viewport].width} px)`, async () => {
      const failures: string[] = [];
      // The owner adds the rule on the Rules tab of Cash on delivery.
      const ownerContext = await newContext(browser, shop, { viewport });
      await signInContext(ownerContext, shop.url, owner);
      const rulesPage = await ownerContext.newPage();
      rulesPage.on("pageerror", (error) => failures.push(error.message));
      await rulesPage.goto("/admin/cod/rules");
      const form = rulesPage.getByRole("form", { name: "Add a place rule" });
      await form.getByLabel("PIN code, or its first digits").fill("600020");
      await form.getByLabel("Note").fill("Parcels keep coming back");
      await form.getByRole("button", { name: "Save rule" }).click();
      await rulesPage
        .getByRole("status")
        .getByText("Rule for 600020 saved; checkout follows it now.")
        .waitFor();
      const rules = rulesPage.getByRole("list", { name: "Place rules" });
      await rules.getByText("No cash on delivery · Parcels keep coming back").waitFor();
      await lookAt(rulesPage, "cod-rules", rules);
      await ownerContext.close();

      // The shopper's checkout to that PIN says why cash is not offered, beside the choice.
      await putInCart(database.db, shopper.userId, [{ itemId: ITEM }]);
      const shopperContext = await newContext(browser, shop, { viewport });
      await signInContext(shopperContext, shop.url, shopper);
      const checkout = await shopperContext.newPage();
      checkout.on("pageerror", (error) => failures.push(error.message));
      await checkout.goto("/checkout");
      await checkout.getByRole("radio", { name: /Meera Iyer.*600020/ }).check();
      const cod = checkout.getByRole("radio", { name: /Cash on delivery/ });
      await checkout.getByText("Cash on delivery is not available for PIN code 600020.").waitFor();
      await expect(cod.isDisabled()).resolves.toBe(true);
      await lookAt(checkout, "checkout-cod-refused", cod);
      // The other address is not touched by the rule.
      await checkout.getByRole("radio", { name: /Meera Iyer.*560038/ }).check();
      await expect.poll(() => cod.isEnabled()).toBe(true);
      await shopperContext.close();
      await database.pool.query("delete from cart_items where user_id = $1", [shopper.userId]);

      // A shipped COD order comes back: staff record it on the order page, then receive it.
      const number = await shippedCod();
      const before = (await stockOf(database.db, ITEM)) ?? 0;
      const staffContext = await newContext(browser, shop, { viewport });
      await signInContext(staffContext, shop.url, staff);
      const orderPage = await staffContext.newPage();
      orderPage.on("pageerror", (error) => failures.push(error.message));
      await orderPage.goto(`/admin/orders/${number}`);
      const panel = orderPage.getByRole("region", { name: "Returned to origin" });
      await panel.getByRole("button", { name: "Returned to origin…" }).click();
      await panel.getByLabel("Shipping out (₹)").fill("65");
      await panel.getByLabel("Shipping back (₹)").fill("70");
      await panel.getByLabel("Why it came back (optional)").fill("Refused at the door");
      await panel.getByRole("button", { name: "Record return to origin" }).click();
      await orderPage.getByText("Recorded as returned to origin.", { exact: false }).first().waitFor();
      await panel.getByText("₹135").waitFor();
      await lookAt(orderPage, "order-rto-recorded", panel);
      expect(await stockOf(database.db, ITEM)).toBe(before);
      await panel.getByRole("button", { name: "Mark received back" }).click();
      await orderPage.getByText("Parcel received back; stock restored.").first().waitFor();
      await panel.getByText(/its stock is back on the shelf/).waitFor();
      expect(await stockOf(database.db, ITEM)).toBe(before + 1);
      await lookAt(orderPage, "order-rto-received", panel);

      // The figures: the PIN's rate and what it cost.
      await orderPage.goto("/admin/cod/returns?by=pin");
      const list = orderPage.getByRole("list", { name: "Returns to origin by pin code" });
      const row = list.getByRole("listitem").filter({ hasText: "560038 Bengaluru" });
      await row.waitFor();
      await expect(row.textContent()).resolves.toMatch(/of \d+ back/);
      await lookAt(orderPage, "rto-stats", list);
      await staffContext.close();

      await call(owner, "DELETE", "/admin/cod-rules/places?kind=pin&value=600020");
      expect(failures).toEqual([]);
    }, 120_000);
  }
});
