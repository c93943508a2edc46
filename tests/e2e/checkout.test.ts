import { eq, sql } from "drizzle-orm";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../server/db/schema.ts";
import { orderWithPayment } from "../../server/money/ledger.ts";
import { makeAdmin, signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { setUpFakeRazorpay } from "../fake-razorpay.ts";
import { newContext, type Shop, type ShopDatabase, screenshot } from "../fixtures.ts";
import { addToCart, typeAddress } from "../forms.ts";
import { waitForMail } from "../mail.ts";
import { putInCart, stockOf, TEST_ADDRESS } from "../orders.ts";
import { callShopApi, saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView, showView } from "../views.ts";

const fake = setUpFakeRazorpay();
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
ownShopForFile(
  (started) => {
    ({ shop, browser, database } = started);
  },
  () => fake.env,
);

let accounts = 0;
const newAccount = (name: string) => signUpViaHttp(shop.url, `${name}${++accounts}@example.in`);

async function signedIn(options: Parameters<typeof newContext>[2] = {}) {
  // The first shopper signs up over HTTP, exactly as the browser would; the rest are made in-process.
  const account =
    accounts === 0
      ? await signUpViaHttp(shop.url, `journey${++accounts}@example.in`)
      : await newAccount("journey");
  const context = await newContext(browser, shop, options);
  await signInContext(context, shop.url, account);
  const page = await context.newPage();
  const failures: string[] = [];
  page.on("pageerror", (error) => failures.push(error.message));
  return { account, context, page, failures };
}

/** The checkout form as a shopper fills it in. */
async function enterAddress(page: Page) {
  const form = page.getByRole("form", { name: "New delivery address" });
  await typeAddress(form, TEST_ADDRESS);
  // The PIN fills district and state from India Post's directory; the city typed stays.
  await form.getByText("Bangalore, Karnataka", { exact: true }).waitFor();
  // And, before anything is saved or placed, Check delivery's answer for this order.
  await form.getByText(/^Delivers to Bangalore, Karnataka by .+; cash on delivery available$/).waitFor();
  await expect(form.getByLabel("City or town").inputValue()).resolves.toBe("Bengaluru");
  await form.getByLabel("State or union territory").selectOption("Tamil Nadu");
  await form.getByRole("button", { name: "Save address" }).click();
  // The PIN belongs to Karnataka: the form says so before anything is sent.
  await form.getByText("This PIN code is not in Tamil Nadu").waitFor();
  await screenshot(page, "checkout-address-pin-error");
  await form.getByLabel("State or union territory").selectOption("Karnataka");
  await form.getByRole("button", { name: "Save address" }).click();
  await page.getByRole("radio", { name: /Meera Iyer/ }).waitFor();
}

/** The address book's one address, picked at checkout (the form is checked where it is the subject). */
async function pickSavedAddress(page: Page) {
  await page.getByRole("radio", { name: /Meera Iyer/ }).check();
}

/** A cash-on-delivery order of `items`, placed through the API to the account's saved address: its number. */
async function placedCod(account: TestAccount, items: Parameters<typeof putInCart>[2]) {
  await putInCart(database.db, account.userId, items);
  const addressId = await saveShopAddress(shop.url, account);
  const { order } = await callShopApi(shop.url, account, "POST", "/orders", {
    addressId,
    paymentMethod: "cod",
  });
  return order.number as string;
}

describe("checkout with cash on delivery, through to shipping", () => {
  it("orders from the product page, finds the order in My Orders, and sees it shipped by the shop", async () => {
    const { account, context, page, failures } = await signedIn();
    const stockBefore = await stockOf(database.db, "face-glow-oil");
    await page.goto("/product/face-glow-oil");
    await page.getByRole("heading", { level: 1, name: "Face Glow Oil" }).waitFor();
    await page.getByRole("button", { name: "Increase quantity" }).click();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await page.getByText("Face Glow Oil was added to cart!").waitFor();

    await page.goto("/cart");
    await page.getByLabel("Discount code").fill("GLOW20");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Flat 20% off all products applied successfully!").waitFor();
    await page.getByRole("link", { name: "Checkout" }).click();
    await page.waitForURL("**/checkout");
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    const summary = page.getByRole("complementary", { name: "Order summary" });
    await expect(summary.getByText("Discount (GLOW20)").isVisible()).resolves.toBe(true);
    await expect(summary.getByText("All prices include GST.").isVisible()).resolves.toBe(true);
    await expect(summary.getByText(/Estimated delivery:/).isVisible()).resolves.toBe(true);
    await enterAddress(page);
    await screenshot(page, "checkout-cod-desktop");

    await page.getByRole("radio", { name: /Cash on delivery/ }).check();
    // ₹998 - 20% (₹200) = ₹798, free shipping.
    const place = page.getByRole("button", { name: "Place order · ₹798" });
    await place.dblclick();
    await page.waitForURL(/\/orders\/PN-\d{4}-\d{6}\?placed=1$/);
    const number = page.url().match(/PN-\d{4}-\d{6}/)?.[0] ?? "";
    await page.getByText("Thank you! Your order is placed.").waitFor();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(`Order ${number}`);
    await screenshot(page, "order-placed-desktop");
    expect(await database.db.select().from(orders).where(eq(orders.userId, account.userId))).toHaveLength(1);
    expect(await stockOf(database.db, "face-glow-oil")).toBe((stockBefore ?? 0) - 2);

    await page.getByRole("link", { name: "← My Orders" }).click();
    await page.getByRole("heading", { name: "My Orders" }).waitFor();
    const card = page.getByRole("article", { name: `Order ${number}` });
    await expect(card.getByText("Placed", { exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(card.getByText("2 × Face Glow Oil").isVisible()).resolves.toBe(true);
    await screenshot(page, "my-orders-desktop");

    // The shop ships it.
    const staff = await newAccount("staff");
    await makeAdmin({ db: database.db, url: shop.url }, staff);
    const adminContext = await newContext(browser, shop);
    await signInContext(adminContext, shop.url, staff);
    const admin = await adminContext.newPage();
    await admin.goto(`/admin/orders?q=${account.email}`);
    await admin.getByRole("link", { name: number }).click();
    await admin.getByRole("heading", { name: `Order ${number}` }).waitFor();
    await admin.getByRole("button", { name: "Confirm order" }).click();
    await admin.getByRole("button", { name: "Mark packed" }).click();
    await admin.getByRole("button", { name: "Ship", exact: true }).click();
    const shipDialog = admin.getByRole("dialog", { name: `Ship order ${number}` });
    await shipDialog.getByLabel("Courier", { exact: true }).selectOption("Delhivery");
    await shipDialog.getByLabel("Tracking number", { exact: true }).fill("DLV4455667788");
    await shipDialog.getByRole("button", { name: "Ship order" }).click();
    await admin.getByRole("heading", { name: "Correct courier details" }).waitFor();
    await expect(admin.getByText("Shipped", { exact: true }).first().isVisible()).resolves.toBe(true);
    await screenshot(admin, "admin-order-shipped-desktop");
    await adminContext.close();

    await page.goto(`/orders/${number}`);
    await page.getByText("DLV4455667788").first().waitFor();
    await expect(page.getByText("Shipped with Delhivery").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: /Track your parcel/ }).getAttribute("href")).resolves.toBe(
      "https://www.delhivery.com/track/package/DLV4455667788",
    );
    await expect(page.getByRole("button", { name: "Cancel order" }).count()).resolves.toBe(0);
    // Sent by the shop's job worker, off the request path.
    await waitForMail(shop.dataDir, { to: account.email, subject: new RegExp(`^Order ${number} placed$`) });
    await waitForMail(shop.dataDir, {
      to: account.email,
      subject: new RegExp(`^Order ${number} has shipped$`),
    });
    expect(failures).toEqual([]);
    await context.close();
    // Product page to shipped, through the shopper's and the shop's screens: more than a minute at high load.
  }, 120_000);
});

describe("paying online", () => {
  it("pays with Razorpay Checkout (the local fake) and lands on the confirmed order", async () => {
    const { account, context, page, failures } = await signedIn();
    await putInCart(database.db, account.userId, [{ itemId: "haircare-combo", kind: "combo" }]);
    await saveShopAddress(shop.url, account);
    await page.goto("/checkout");
    await pickSavedAddress(page);
    await page.getByRole("radio", { name: /UPI, card or netbanking/ }).check();
    await page.getByRole("button", { name: "Pay ₹1,299" }).click();

    const razorpay = page.getByRole("dialog", { name: "Razorpay test checkout" });
    await razorpay.waitFor();
    await razorpay.getByRole("button", { name: "Pay with UPI (test)" }).click();
    await page.waitForURL(/\/orders\/PN-\d{4}-\d{6}\?placed=1$/);
    await page.getByText("Thank you! Your payment is received and your order is confirmed.").waitFor();
    await expect(page.getByText("Confirmed", { exact: true }).first().isVisible()).resolves.toBe(true);
    const [order] = await database.db
      .select(orderWithPayment)
      .from(orders)
      .where(eq(orders.userId, account.userId));
    expect(order).toMatchObject({ status: "confirmed", paymentMethod: "razorpay", totalPaise: 129_900 });
    expect(order?.razorpayPaymentId).toMatch(/^pay_/);
    expect(failures).toEqual([]);
    await context.close();
  });
});

describe("cancelling", () => {
  it("cancels an order before it ships, and its stock comes back", async () => {
    const { account, context, page } = await signedIn();
    const before = await stockOf(database.db, "hair-growth-oil");
    // Placed through the API: placing through the page is the journeys' above.
    const number = await placedCod(account, [{ itemId: "hair-growth-oil", quantity: 3 }]);
    expect(await stockOf(database.db, "hair-growth-oil")).toBe((before ?? 0) - 3);
    await page.goto(`/orders/${number}`);

    await page.getByRole("button", { name: "Cancel order" }).click();
    const dialog = page.getByRole("dialog", { name: /Cancel order PN-/ });
    await dialog.waitFor();
    await dialog.getByLabel("Reason (optional)").fill("Ordered by mistake");
    await screenshot(page, "order-cancel-dialog-desktop");
    await page.keyboard.press("Escape");
    await expect(dialog.isVisible()).resolves.toBe(false);

    await page.getByRole("button", { name: "Cancel order" }).click();
    await dialog.getByRole("button", { name: "Cancel order" }).click();
    await page.getByText("Your order is cancelled.").waitFor();
    await page.getByText("Cancelled", { exact: true }).first().waitFor();
    await expect(page.getByRole("button", { name: "Cancel order" }).count()).resolves.toBe(0);
    expect(await stockOf(database.db, "hair-growth-oil")).toBe(before);
    await context.close();
  });
});

describe("asking for a return", () => {
  it("keeps a refused request's reason in its dialog, and sends it once the window allows", async () => {
    const { account, context, page } = await signedIn();
    const owner = await newAccount("owner");
    await makeAdmin({ db: database.db, url: shop.url }, owner);
    const number = await placedCod(account, [{ itemId: "coconut-oil" }]);
    const admin = `/admin/orders/${number}`;
    const call = (method: string, path: string, body: unknown) =>
      callShopApi(shop.url, owner, method, path, body);
    for (const status of ["confirmed", "packed"]) await call("POST", `${admin}/status`, { status });
    await call("POST", `${admin}/ship`, { courier: "Delhivery", trackingNumber: "DLV7654321098" });
    await call("POST", `${admin}/status`, { status: "delivered" });
    const deliveredDaysAgo = (days: number) =>
      database.db
        .update(orders)
        .set({ deliveredAt: new Date(Date.now() - days * 24 * 3600 * 1000) })
        .where(eq(orders.number, number));
    await page.goto(`/orders/${number}`);

    // The page was opened in time; the six days ran out while the shopper wrote.
    await page.getByRole("button", { name: "Request return" }).click();
    const dialog = page.getByRole("dialog", { name: "Request a return" });
    await dialog.getByLabel("What is wrong with the order?").fill("The jar arrived cracked");
    await deliveredDaysAgo(7);
    await dialog.getByRole("button", { name: "Send request" }).click();
    const refusal = "Returns can be requested within 6 days of delivery. Please contact us.";
    await dialog.getByRole("alert").getByText(refusal).waitFor();
    await screenshot(page, "order-return-refused-desktop-light");
    // The rest on a phone in the dark theme.
    await showView(page, "phone", "dark");
    await screenshot(page, "order-return-refused-phone-dark");
    // Closed, the refusal goes with the dialog: the line under the heading is the payment's.
    await dialog.getByRole("button", { name: "Close" }).last().click(); // the footer's, beside Send request
    await expect(dialog.isVisible()).resolves.toBe(false);
    await expect(page.getByText(refusal).filter({ visible: true }).count()).resolves.toBe(0);

    // Opened again, the reason typed is still there and the old refusal is not.
    await deliveredDaysAgo(2);
    await page.getByRole("button", { name: "Request return" }).click();
    await expect(dialog.getByLabel("What is wrong with the order?").inputValue()).resolves.toBe(
      "The jar arrived cracked",
    );
    await expect(dialog.getByRole("alert").count()).resolves.toBe(0);
    await dialog.getByRole("button", { name: "Send request" }).click();
    await page.getByText("Your return request is sent. We will e-mail you.").waitFor();
    await expect(page.getByText(refusal).filter({ visible: true }).count()).resolves.toBe(0);
    await page.getByText("Return requested", { exact: true }).first().waitFor();
    await context.close();
  });
});

describe("signed out", () => {
  it("takes a guest from checkout to sign-in, to come back after", async () => {
    const context = await newContext(browser, shop);
    const page = await context.newPage();
    await page.goto("/checkout");
    await page.waitForURL("**/login?redirectTo=%2Fcheckout");
    await context.close();
  });

  it("tells a guest who left everything empty what each field needs, the e-mail too (issue 30)", async () => {
    const context = await newContext(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    await addToCart(page, "face-glow-oil", "Face Glow Oil");
    await page.goto("/checkout?as=guest");
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    const form = page.getByRole("form", { name: "New delivery address" });
    await form.getByRole("button", { name: "Use this address" }).click();
    await form.getByText("Name is required").waitFor();
    const email = page.getByLabel("E-mail");
    await page.getByText("Enter a valid e-mail address").waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await email.getAttribute("aria-describedby")).toContain("guest-email-error");
    // Typing clears it, as for the other fields.
    await email.fill("meera@example.in");
    expect(await page.getByText("Enter a valid e-mail address").count()).toBe(0);
    await context.close();
  });
});

describe("a refunded order's progress", () => {
  it("keeps its eight steps' labels apart at 375 px and 1280 px, light and dark (issue 30)", async () => {
    const shopper = await newAccount("refunded");
    const owner = await newAccount("owner");
    await makeAdmin({ db: database.db, url: shop.url }, owner);
    const call = (as: TestAccount, method: string, path: string, body: unknown) =>
      callShopApi(shop.url, as, method, path, body);
    await putInCart(database.db, shopper.userId, [{ itemId: "badam-mix" }]);
    const addressId = await saveShopAddress(shop.url, shopper);
    const { order } = await call(shopper, "POST", "/orders", { addressId, paymentMethod: "cod" });
    const admin = `/admin/orders/${order.number}`;
    for (const status of ["confirmed", "packed"]) await call(owner, "POST", `${admin}/status`, { status });
    await call(owner, "POST", `${admin}/ship`, { courier: "Delhivery", trackingNumber: "DLV1234567890" });
    for (const status of ["delivered", "return_requested", "returned"])
      await call(owner, "POST", `${admin}/status`, { status });
    await call(owner, "POST", `${admin}/status`, {
      status: "refunded",
      refundReference: "UPI-55512",
      refundMethod: "upi",
    });

    // One load, shown at each width and in each theme in turn.
    const context = await newContext(browser, shop);
    await signInContext(context, shop.url, shopper);
    const page = await context.newPage();
    await page.goto(`/orders/${order.number}`);
    const steps = page.getByRole("list", { name: "Order progress" }).getByRole("listitem");
    await steps.first().waitFor();
    await inEachView(page, EVERY_VIEW, async (viewport, colorScheme) => {
      expect(await steps.count()).toBe(8);
      // Each step's label and date: no two boxes share a pixel, and none leaves the screen.
      const boxes = await steps.evaluateAll((items) =>
        items.flatMap((item) =>
          [...item.querySelectorAll(":scope > span:not([aria-hidden]), :scope > time")].map((part) => {
            const range = document.createRange();
            // The words themselves, without the label's screen-reader suffix.
            range.selectNodeContents(part.firstChild ?? part);
            const box = range.getBoundingClientRect();
            return {
              text: part.textContent,
              left: box.left,
              right: box.right,
              top: box.top,
              bottom: box.bottom,
            };
          }),
        ),
      );
      expect(boxes).toHaveLength(16);
      const width = page.viewportSize()?.width ?? 0;
      for (const [index, a] of boxes.entries()) {
        expect(a.right, `${a.text} inside the screen`).toBeLessThanOrEqual(width);
        for (const b of boxes.slice(index + 1)) {
          const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          expect(apart, `${a.text} and ${b.text}`).toBe(true);
        }
      }
      await screenshot(page, `order-refunded-${viewport}-${colorScheme}`);
    });
    await context.close();
  });
});

describe("how the order screens look", () => {
  let customer: { account: TestAccount };
  let staff: TestAccount;
  let number: string;

  beforeAll(async () => {
    customer = { account: await newAccount("journey") };
    // Placed through the API: these tests look at the screens, the journeys above place through them.
    number = await placedCod(customer.account, [
      { itemId: "bath-powder" },
      { itemId: "moringa-powder", quantity: 2 },
    ]);
    staff = await newAccount("look");
    await makeAdmin({ db: database.db, url: shop.url }, staff);
    // Spread the earlier journeys' orders over the month, so the revenue chart has days to show.
    await database.db.execute(
      sql`update orders set created_at = now() - (row_number * interval '4 days') from
        (select id, row_number() over (order by created_at) from orders where number <> ${number}) earlier
        where orders.id = earlier.id`,
    );
  });

  /**
   * The seven screens, each loaded once in a tab of its own by the first of the looks below to run, and
   * shown by each look at its width and in its theme (`showView`): 7 page loads for 21 screenshots.
   */
  let screens: { page: Page; name: string; heading: () => Locator }[] | undefined;
  const screenContexts: BrowserContext[] = [];
  afterAll(async () => {
    await Promise.all(screenContexts.map((context) => context.close()));
  });

  async function loadScreens() {
    const shopperContext = await newContext(browser, shop);
    await signInContext(shopperContext, shop.url, customer.account);
    const adminContext = await newContext(browser, shop);
    await signInContext(adminContext, shop.url, staff);
    screenContexts.push(shopperContext, adminContext);
    await putInCart(database.db, customer.account.userId, [{ itemId: "coconut-oil" }]);
    const loaded = [];
    for (const [context, url, name, heading, level] of [
      [shopperContext, "/checkout", "checkout", "Checkout", undefined],
      [shopperContext, "/orders", "my-orders", "My Orders", undefined],
      [shopperContext, `/orders/${number}`, "order", `Order ${number}`, undefined],
      [adminContext, "/admin", "admin-dashboard", "Dashboard", 1],
      [adminContext, "/admin/orders", "admin-orders", "Orders", 1],
      [adminContext, `/admin/orders/${number}`, "admin-order", `Order ${number}`, 1],
      [adminContext, "/admin/stock", "admin-stock", "Stock", 1],
    ] as const) {
      const page = await context.newPage();
      await page.goto(url);
      loaded.push({ page, name, heading: () => page.getByRole("heading", { level, name: heading }) });
    }
    return loaded;
  }

  it.each([
    ["phone", "light"],
    ["phone", "dark"],
    ["desktop", "dark"],
  ] as const)("at %s size in %s mode", async (viewport, colorScheme) => {
    screens ??= await loadScreens();
    for (const { page, name, heading } of screens) {
      await showView(page, viewport, colorScheme);
      await heading().waitFor();
      await screenshot(page, `${name}-${viewport}-${colorScheme}`);
    }
  });

  it("shows a customer no admin pages", async () => {
    const context = await newContext(browser, shop);
    await signInContext(context, shop.url, customer.account);
    const page = await context.newPage();
    await page.goto("/admin/orders");
    await page.getByRole("heading", { name: "No admin access" }).waitFor();
    await page.getByText("This account has no admin access.").waitFor();
    await context.close();
  });
});
