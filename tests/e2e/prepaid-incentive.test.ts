import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { setUpFakeRazorpay } from "../fake-razorpay.ts";
import { newContext, type Shop, type ShopDatabase, screenshotLightAndDark as shoot } from "../fixtures.ts";
import { putInCart } from "../orders.ts";
import { saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";

/** The owner's reward for paying online (issue 29, decision 072): set on the COD rules screen, priced at checkout. */
const fake = setUpFakeRazorpay();
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
let owner: TestAccount;
let shopper: TestAccount;

ownShopForFile(
  (started) => {
    ({ shop, browser, database, owner } = started);
  },
  () => fake.env,
);
beforeAll(async () => {
  shopper = await signUpViaHttp(shop.url, "meera@example.in");
  await saveShopAddress(shop.url, shopper);
}, 120_000);

describe("a reward for paying online", () => {
  it("is set by the owner on a phone, shown beside the COD choice and charged when paid online", async () => {
    const admin = await newContext(browser, shop, { viewport: "phone" });
    await signInContext(admin, shop.url, owner);
    const rules = await admin.newPage();
    await rules.goto("/admin/cod/rules");
    const form = rules.getByRole("form", { name: "Reward for paying online" });
    await form.getByRole("radio", { name: "An amount off" }).check();
    await form.getByLabel("Amount off (₹)").fill("50");
    await form.getByRole("button", { name: "Save reward" }).click();
    await rules.getByText("Saved: ₹50 off for paying online. Checkout shows it now.").waitFor();
    await shoot(rules, "prepaid-incentive-admin-phone");
    await admin.close();

    await putInCart(database.db, shopper.userId, [{ itemId: "hair-conditioning-pack" }]);
    const context = await newContext(browser, shop, { viewport: "phone" });
    await signInContext(context, shop.url, shopper);
    const page = await context.newPage();
    await page.goto("/checkout");
    const online = page.getByRole("radio", { name: /UPI, card or netbanking/ });
    await online.waitFor();
    await page.getByText("Save ₹50 when you pay online.").waitFor();
    const summary = page.getByRole("complementary", { name: "Order summary" });
    await page.getByRole("radio", { name: /Cash on delivery/ }).check();
    await summary.getByRole("button", { name: "Place order · ₹699" }).waitFor();
    expect(await summary.getByText("Paying online").count()).toBe(0);
    await shoot(page, "prepaid-incentive-checkout-cod-phone");

    await online.check();
    await summary.getByText("Paying online").waitFor();
    await summary.getByText("−₹50").waitFor();
    await shoot(page, "prepaid-incentive-checkout-online-phone");
    await summary.getByRole("button", { name: "Pay ₹649" }).click();
    const razorpay = page.getByRole("dialog", { name: "Razorpay test checkout" });
    await razorpay.waitFor();
    await razorpay.getByRole("button", { name: "Pay with UPI (test)" }).click();
    await page.waitForURL(/\/orders\/PN-\d{4}-\d{6}\?placed=1$/);
    await page.getByText("Paying online").first().waitFor();
    const [order] = await database.db.select().from(orders).where(eq(orders.userId, shopper.userId));
    expect(order).toMatchObject({
      status: "confirmed",
      paymentMethod: "razorpay",
      prepaidDiscountPaise: 5000,
      totalPaise: 64_900,
    });
    await shoot(page, "prepaid-incentive-order-phone");
    await context.close();
  }, 120_000);
});
