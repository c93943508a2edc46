import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import { savePrepaidIncentive } from "../../server/cod/cod-rules.ts";
import { lapseUnconfirmedOrders } from "../../server/cod-orders/confirmation.ts";
import { orders } from "../../server/db/schema.ts";
import type { Deps } from "../../server/deps.ts";
import { parseEnv } from "../../server/env.ts";
import { createJobSignal } from "../../server/jobs/job-queue.ts";
import { orderWithPayment } from "../../server/money/ledger.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { setUpFakeRazorpay } from "../fake-razorpay.ts";
import { type Shop, type ShopDatabase, screenshotLightAndDark as shoot } from "../fixtures.ts";
import { linkIn, waitForMail } from "../mail.ts";
import { putInCart, setStock, stockOf } from "../orders.ts";
import { callShopApi, saveShopAddress } from "../shop-api-call.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";

/** Confirm before packing (issue 29): by the shopper's link, by staff from the list, or cancelled by the clock. */
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
let owner: TestAccount;
let shopper: TestAccount;
let addressId: string;
const fake = setUpFakeRazorpay();

const HOURS = 6;

const call = (as: TestAccount, method: string, url: string, body?: unknown) =>
  callShopApi(shop.url, as, method, url, body);

async function placeCod(quantity = 1): Promise<{ number: string; id: string }> {
  await putInCart(database.db, shopper.userId, [{ itemId: "bath-powder", quantity }]);
  const { order } = await call(shopper, "POST", "/orders", { addressId, paymentMethod: "cod" });
  const [row] = await database.db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.number, order.number));
  return { number: order.number, id: row?.id ?? "" };
}

/** The link as the shopper gets it: from the order's "placed" mail. */
async function confirmLink(number: string) {
  const mail = await waitForMail(shop.dataDir, {
    to: shopper.email,
    subject: new RegExp(`^Order ${number} placed$`),
  });
  return linkIn(mail, `/confirm-order/${number}`);
}

const statusOf = async (number: string) =>
  (await database.db.select({ status: orders.status }).from(orders).where(eq(orders.number, number)))[0]
    ?.status;

// A shop of its own: orders wait COD_CONFIRM_HOURS for confirmation, paid online through the fake Razorpay, with a reward for paying online every visitor is offered.
ownShopForFile(
  (started) => {
    ({ shop, browser, database, owner } = started);
  },
  () => ({ COD_CONFIRM_HOURS: String(HOURS), ...fake.env }),
);
beforeAll(async () => {
  await setStock(database.db, "bath-powder", 40);
  // ₹40 off for paying online: what "Pay online instead" offers (docs/decisions/072).
  await savePrepaidIncentive(
    database.db,
    { kind: "flat", amountPaise: 4000 },
    { id: owner.userId, email: owner.email },
  );
  shopper = await signUpViaHttp(shop.url, "meera@example.in");
  addressId = await saveShopAddress(shop.url, shopper);
}, 120_000);

describe("a cash-on-delivery order is confirmed before it is packed", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`is confirmed by the shopper from the link, without signing in (${viewport})`, async () => {
      const order = await placeCod();
      const link = await confirmLink(order.number);
      const context = await contextOn(browser, shop, { viewport });
      const page = await context.newPage();
      await page.goto(link);
      await page.getByRole("heading", { name: "Please confirm your order", level: 1 }).waitFor();
      await page.getByText(/If it is not confirmed by/).waitFor();
      await shoot(page, `cod-confirm-link-${viewport}`);
      await page.getByRole("button", { name: "Confirm my order" }).click();
      await page.getByRole("status").getByText("your order is confirmed and goes to packing").waitFor();
      await page.getByRole("heading", { name: "Your order is confirmed", level: 1 }).waitFor();
      expect(await page.getByRole("button", { name: "Confirm my order" }).count()).toBe(0);
      await shoot(page, `cod-confirm-done-${viewport}`);
      expect(await statusOf(order.number)).toBe("confirmed");
      await context.close();
    }, 90_000);

    it(`is switched to paying online from the link: closed, it waits still; paid, it goes to packing (${viewport})`, async () => {
      const order = await placeCod();
      const link = await confirmLink(order.number);
      const context = await contextOn(browser, shop, { viewport });
      const page = await context.newPage();
      await page.goto(link);
      // Bath powder ₹599, free shipping: ₹559 paid online with the ₹40 off.
      const payOnline = page.getByRole("button", { name: "Pay online instead · ₹559" });
      await payOnline.waitFor();
      await page.getByText("Save ₹40 when you pay online.").waitFor();
      await shoot(page, `cod-confirm-pay-online-${viewport}`);

      await payOnline.click();
      const razorpay = page.getByRole("dialog", { name: "Razorpay test checkout" });
      await razorpay.waitFor();
      await razorpay.getByRole("button", { name: "Cancel payment" }).click();
      await page.getByRole("status").getByText("Your order is still cash on delivery").waitFor();
      expect(await statusOf(order.number)).toBe("placed");
      await page.getByRole("button", { name: "Confirm my order" }).waitFor();

      await payOnline.click();
      await razorpay.waitFor();
      await razorpay.getByRole("button", { name: "Pay with UPI (test)" }).click();
      await page.getByRole("status").getByText("your payment is received").waitFor();
      await page.getByRole("heading", { name: "Your order is confirmed", level: 1 }).waitFor();
      await page.getByText("paid online").first().waitFor();
      await page.getByText("−₹40").waitFor();
      expect(await page.getByRole("button", { name: /Pay online instead/ }).count()).toBe(0);
      await shoot(page, `cod-confirm-paid-online-${viewport}`);
      const [row] = await database.db
        .select(orderWithPayment)
        .from(orders)
        .where(eq(orders.number, order.number));
      expect(row).toMatchObject({
        status: "confirmed",
        paymentMethod: "razorpay",
        prepaidDiscountPaise: 4000,
        totalPaise: 55_900,
      });
      expect(row?.paidAt).not.toBeNull();
      // One Razorpay order for the two attempts.
      expect([...fake.orders.values()].filter((each) => each.receipt === order.number)).toHaveLength(1);
      await context.close();
    }, 90_000);

    it(`is cancelled by the shopper from the link, told once that nothing was charged (${viewport})`, async () => {
      const order = await placeCod();
      const context = await contextOn(browser, shop, { viewport });
      const page = await context.newPage();
      await page.goto(await confirmLink(order.number));
      await page.getByRole("button", { name: "Cancel order" }).click();
      await page.getByRole("button", { name: "Yes, cancel it" }).click();
      await page.getByText("Your order is cancelled.").waitFor();
      await page.getByRole("heading", { name: "This order is cancelled", level: 1 }).waitFor();
      expect(await page.getByText(/nothing was charged/i).count()).toBe(1);
      expect(await statusOf(order.number)).toBe("cancelled");
      await shoot(page, `cod-confirm-cancelled-${viewport}`);
      await context.close();
    }, 90_000);

    it(`is cancelled by the clock when left unconfirmed, its stock back (${viewport})`, async () => {
      const before = await stockOf(database.db, "bath-powder");
      const order = await placeCod(2);
      expect(await stockOf(database.db, "bath-powder")).toBe((before ?? 0) - 2);
      // The shopper has the placed mail hours before the clock runs out (a mail written after the cancellation
      // rightly asks for no confirmation).
      const link = await confirmLink(order.number);
      // The shop's lapse job, run with the clock moved past the owner's hours.
      const deps = {
        db: database.db,
        env: parseEnv({
          NODE_ENV: "test",
          DATABASE_URL: shop.databaseUrl,
          BETTER_AUTH_SECRET: "x".repeat(32),
        }),
        jobs: createJobSignal(),
        courier: null,
      } as unknown as Deps;
      expect(await lapseUnconfirmedOrders(deps, new Date(Date.now() + (HOURS - 1) * 3_600_000))).toBe(0);
      expect(await statusOf(order.number)).toBe("placed");
      expect(await lapseUnconfirmedOrders(deps, new Date(Date.now() + (HOURS + 1) * 3_600_000))).toBe(1);
      expect(await statusOf(order.number)).toBe("cancelled");
      expect(await stockOf(database.db, "bath-powder")).toBe(before);
      const told = await waitForMail(shop.dataDir, {
        to: shopper.email,
        subject: new RegExp(`^Order ${order.number} cancelled$`),
      });
      expect(told.text).toContain("Nothing was charged");

      const context = await contextOn(browser, shop, { viewport });
      const page = await context.newPage();
      await page.goto(link);
      await page.getByRole("heading", { name: "This order is cancelled", level: 1 }).waitFor();
      expect(await page.getByRole("button", { name: "Confirm my order" }).count()).toBe(0);
      await shoot(page, `cod-confirm-lapsed-${viewport}`);
      await context.close();
    }, 90_000);

    it(`is confirmed by staff from the To confirm list after a call (${viewport})`, async () => {
      const order = await placeCod();
      const context = await contextOn(browser, shop, { viewport });
      await signInContext(context, shop.url, owner);
      const page = await context.newPage();
      await page.goto("/admin/cod-confirm");
      await page.getByRole("heading", { name: "To confirm", level: 1 }).waitFor();
      const card = page.getByRole("listitem", { name: `Order ${order.number}` });
      await card.waitFor();
      expect(await card.getByRole("link", { name: "Call 98765 43210" }).getAttribute("href")).toBe(
        "tel:+919876543210",
      );
      await shoot(page, `cod-confirm-admin-${viewport}`);

      // Packing it first is refused, and the order's page says why.
      await page.goto(`/admin/orders/${order.number}`);
      await page.getByText("Not confirmed yet, so it cannot be packed or shipped").waitFor();

      await page.goto("/admin/cod-confirm");
      await card.getByRole("button", { name: "Confirm" }).click();
      await page.getByRole("status").getByText(`${order.number} is confirmed and goes to packing.`).waitFor();
      await card.waitFor({ state: "detached" });
      expect(await statusOf(order.number)).toBe("confirmed");
      await shoot(page, `cod-confirm-admin-done-${viewport}`);
      await context.close();
    }, 90_000);
  }
});
