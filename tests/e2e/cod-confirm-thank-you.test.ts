import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../server/db/schema.ts";
import { orderWithPayment } from "../../server/money/ledger.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { setUpFakeRazorpay } from "../fake-razorpay.ts";
import { newContext, type Shop, type ShopDatabase, screenshotLightAndDark as shoot } from "../fixtures.ts";
import { addToCart, enterGuestAddress } from "../forms.ts";
import { putInCart, setStock, TEST_ADDRESS } from "../orders.ts";
import { callShopApi, requestShop, saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";

/**
 * Issue 41, point 5: right after "Place order", and whenever the shopper opens the order again, a
 * cash-on-delivery order waiting for confirmation says so, with the deadline, a Confirm button and "Pay online
 * instead", for guests and accounts alike.
 */
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
let shopper: TestAccount;
let addressId: string;
const fake = setUpFakeRazorpay();

ownShopForFile(
  (started) => {
    ({ shop, browser, database } = started);
  },
  () => ({ COD_CONFIRM_HOURS: "24", ...fake.env }),
);
beforeAll(async () => {
  await setStock(database.db, "bath-powder", 40);
  shopper = await signUpViaHttp(shop.url, "kavya@example.in");
  addressId = await saveShopAddress(shop.url, shopper);
}, 120_000);

const rowOf = async (number: string) =>
  (await database.db.select(orderWithPayment).from(orders).where(eq(orders.number, number)))[0];

const card = (page: Page) => page.getByRole("region", { name: "Please confirm your order" });

/** The deadline as the page writes it, from the database's own. */
async function expectDeadline(page: Page, number: string) {
  const row = await rowOf(number);
  expect(row?.codConfirmBy).toBeTruthy();
  const shown = await card(page).locator("time").getAttribute("datetime");
  expect(shown).toBe(row?.codConfirmBy?.toISOString());
  // 24 hours after it was placed.
  expect((row?.codConfirmBy?.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)).toBe(24 * 3_600_000);
}

describe("the thank-you page asks for the COD confirmation", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`for a guest, who confirms with one tap (${viewport})`, async () => {
      const context = await newContext(browser, shop, { viewport });
      const page = await context.newPage();
      await addToCart(page, "bath-powder", "Bath Powder");
      await page.goto("/checkout?as=guest");
      await page.getByRole("heading", { name: "Checkout" }).waitFor();
      await enterGuestAddress(page, `guest-cod-${viewport}@example.in`, {
        ...TEST_ADDRESS,
        phone: viewport === "phone" ? "98765 43001" : "98765 43002",
      });
      await page.getByRole("radio", { name: /Cash on delivery/ }).check();
      await page.getByRole("button", { name: /^Place order/ }).click();

      await page.waitForURL(/\/guest-order\/PN-\d{4}-\d{6}\?token=[\w-]{43}&placed=1$/);
      const number = page.url().match(/PN-\d{4}-\d{6}/)?.[0] ?? "";
      await page.getByText("One more step: please confirm it below.").waitFor();
      await card(page)
        .getByText(/Cash-on-delivery orders are packed once you confirm/)
        .waitFor();
      await expectDeadline(page, number);
      await card(page)
        .getByRole("button", { name: /^Pay online instead · ₹\d/ })
        .waitFor();
      await shoot(page, `cod-thank-you-guest-${viewport}`);

      await card(page).getByRole("button", { name: "Confirm my order" }).click();
      await page.getByRole("status").getByText("your order is confirmed and goes to packing").waitFor();
      await card(page).waitFor({ state: "detached" });
      expect((await rowOf(number))?.status).toBe("confirmed");
      await shoot(page, `cod-thank-you-guest-confirmed-${viewport}`);
      // Opened again from the mail's link, it no longer asks.
      await page.goto(page.url().replace("&placed=1", ""));
      await page.getByRole("heading", { name: `Order ${number}` }).waitFor();
      expect(await card(page).count()).toBe(0);
      await context.close();
    }, 120_000);
  }

  it("for an account, on the thank-you page and on My Orders later, paying online instead", async () => {
    await putInCart(database.db, shopper.userId, [{ itemId: "bath-powder", quantity: 1 }]);
    const { order } = await callShopApi(shop.url, shopper, "POST", "/orders", {
      addressId,
      paymentMethod: "cod",
    });
    const context = await newContext(browser, shop, { viewport: "phone" });
    await signInContext(context, shop.url, shopper);
    const page = await context.newPage();
    await page.goto(`/orders/${order.number}?placed=1`);
    await page.getByText("One more step: please confirm it below.").waitFor();
    await expectDeadline(page, order.number);
    await shoot(page, "cod-thank-you-account-phone");

    // Later, from My Orders: the same question, without the thank-you.
    await page.goto(`/orders/${order.number}`);
    await card(page).waitFor();
    expect(await page.getByText("One more step").count()).toBe(0);
    await card(page)
      .getByRole("button", { name: /^Pay online instead · ₹599$/ })
      .click();
    const razorpay = page.getByRole("dialog", { name: "Razorpay test checkout" });
    await razorpay.getByRole("button", { name: "Pay with UPI (test)" }).click();
    await page.getByRole("status").getByText("your payment is received").waitFor();
    await card(page).waitFor({ state: "detached" });
    const row = await rowOf(order.number);
    expect(row).toMatchObject({ status: "confirmed", paymentMethod: "razorpay" });
    expect(row?.paidAt).not.toBeNull();
    await context.close();
  }, 120_000);

  it("tells the order's key only to its shopper: another account's order page is not found", async () => {
    await putInCart(database.db, shopper.userId, [{ itemId: "bath-powder", quantity: 1 }]);
    const { order } = await callShopApi(shop.url, shopper, "POST", "/orders", {
      addressId,
      paymentMethod: "cod",
    });
    expect(order.codConfirm?.token).toMatch(/^[\w-]{43}$/);
    const other = await signUpViaHttp(shop.url, "someone-else@example.in");
    const { status } = await requestShop(shop.url, `/api/orders/${order.number}`, { cookie: other.cookie });
    expect(status).toBe(404);
  });
});
