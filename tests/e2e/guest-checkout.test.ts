import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { codPlaceRules, deliveryRules, orders } from "../../server/db/schema.ts";
import { orderWithPayment } from "../../server/money/ledger.ts";
import { signInContext, signUpViaHttp } from "../accounts.ts";
import { setUpFakeRazorpay } from "../fake-razorpay.ts";
import { type Shop, type ShopDatabase, screenshot, scrollThrough } from "../fixtures.ts";
import { addToCart } from "../forms.ts";
import { smsMentioning, waitForMail } from "../mail.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { measureJourney } from "./journey-measure.ts";

const fake = setUpFakeRazorpay();
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
// A shop of its own, paying through the fake Razorpay.
ownShopForFile(
  (started) => {
    ({ shop, browser, database } = started);
  },
  () => fake.env,
);

describe("a guest orders with cash on delivery", () => {
  it.each([
    ["desktop", "light"],
    ["phone", "dark"],
  ] as const)(
    "at %s size in %s mode: orders, opens the order from the mail, tracks it, finds it again",
    async (viewport, colorScheme) => {
      const context = await contextOn(browser, shop, { viewport, colorScheme });
      const page = await context.newPage();
      const failures: string[] = [];
      page.on("pageerror", (error) => failures.push(error.message));
      const email = `guest-${viewport}@example.in`;
      const journey = measureJourney(page);

      await addToCart(page, "face-glow-oil", "Face Glow Oil");
      await page.goto("/cart");
      await page.getByRole("link", { name: "Checkout" }).click();
      await page.waitForURL("**/login?redirectTo=%2Fcheckout");
      await page.getByRole("heading", { name: "Sign in or check out as a guest" }).waitFor();
      await page.getByRole("link", { name: "Check out as a guest" }).click();
      await page.waitForURL("**/checkout?as=guest");
      await page.getByRole("heading", { name: "Checkout" }).waitFor();
      const summary = page.getByRole("complementary", { name: "Order summary" });
      await expect(summary.getByText("Face Glow Oil").isVisible()).resolves.toBe(true);

      await page.getByLabel("E-mail").fill(email);
      journey.field();
      const form = page.getByRole("form", { name: "New delivery address" });
      // A mobile that is not an Indian one is refused before anything is sent.
      await form.getByLabel("Mobile number").fill("12345 67890");
      await form.getByRole("button", { name: "Use this address" }).click();
      await form.getByText("Enter a 10-digit Indian mobile number").waitFor();
      for (const [label, value] of [
        ["Full name", "Meera Iyer"],
        ["Mobile number", "98765 43210"],
        ["House, flat, building", "12, Lotus Apartments"],
        ["City or town", "Bengaluru"],
        ["PIN code", "560038"],
      ] as const) {
        await form.getByLabel(label).fill(value);
        journey.field();
      }
      await form.getByLabel("State or union territory").selectOption("Karnataka");
      journey.field();
      await form.getByRole("button", { name: "Use this address" }).click();
      await page.getByRole("button", { name: "Change" }).waitFor();
      await page.getByRole("radio", { name: /Cash on delivery/ }).check();
      journey.field();
      await screenshot(page, `guest-checkout-${viewport}-${colorScheme}`);
      await page.getByRole("button", { name: "Place order · ₹499" }).click();

      await page.waitForURL(/\/guest-order\/PN-\d{4}-\d{6}\?token=[\w-]{43}&placed=1$/);
      await page.getByText("Thank you! Your order is placed.").waitFor();
      const measured = journey.result();
      console.log(`[journey] guest first order at ${viewport}: ${JSON.stringify(measured)}`);
      const number = page.url().match(/PN-\d{4}-\d{6}/)?.[0] ?? "";
      // Signing up comes back to this page, where the new account can take the order in; the page says
      // nothing about whether the address has an account already.
      const signUp = new URL(
        (await page.getByRole("link", { name: "Create an account" }).getAttribute("href")) ?? "",
        shop.url,
      );
      expect(signUp.pathname).toBe("/signup");
      expect(signUp.searchParams.get("email")).toBe(email);
      expect(signUp.searchParams.get("redirectTo")).toMatch(
        new RegExp(`^/guest-order/${number}\\?token=[\\w-]{43}$`),
      );
      await expect(page.getByRole("button", { name: "Add to my account" }).count()).resolves.toBe(0);
      await screenshot(page, `guest-order-placed-${viewport}-${colorScheme}`);
      // The cart kept in the browser is done with.
      await page.getByRole("link", { name: "Cart, empty" }).first().waitFor();
      const [row] = await database.db.select().from(orders).where(eq(orders.number, number));
      expect(row).toMatchObject({ userId: null, guestEmail: email, paymentMethod: "cod", status: "placed" });

      // The mail's link opens the order in another browser, without signing in.
      const mail = await waitForMail(shop.dataDir, {
        to: email,
        subject: new RegExp(`^Order ${number} placed$`),
      });
      // Two links to the page: the order's own, and the one that adds it to the account with this address.
      const pageLinks = mail.links.filter((each) => new URL(each).pathname.startsWith("/guest-order/"));
      const link = pageLinks.find((each) => !new URL(each).searchParams.has("claim")) ?? "";
      const claimLink = pageLinks.find((each) => new URL(each).searchParams.has("claim")) ?? "";
      expect(claimLink).not.toBe("");
      const elsewhere = await contextOn(browser, shop, { viewport, colorScheme });
      const other = await elsewhere.newPage();
      await other.goto(link);
      await other.getByRole("heading", { name: `Order ${number}` }).waitFor();

      // Shipped by the shop: the courier's tracking link is on the guest's page.
      await database.db
        .update(orders)
        .set({
          status: "shipped",
          courier: "Delhivery",
          trackingNumber: "DLV1234567890",
          shippedAt: new Date(),
        })
        .where(eq(orders.number, number));
      await other.reload();
      await other.getByText("DLV1234567890").first().waitFor();
      await expect(other.getByRole("link", { name: /Track your parcel/ }).getAttribute("href")).resolves.toBe(
        "https://www.delhivery.com/track/package/DLV1234567890",
      );
      await screenshot(other, `guest-order-shipped-${viewport}-${colorScheme}`);

      // The mailed link offers to add the order to an account; with no account for the address, it says so
      // (only the mailbox's owner has this link).
      await other.goto(claimLink);
      await other.getByRole("button", { name: "Add to my account" }).click();
      await other
        .getByRole("alert")
        .getByText(/There is no confirmed account with/)
        .waitFor();
      await screenshot(other, `guest-order-add-to-account-${viewport}-${colorScheme}`);

      // An altered link opens nothing.
      await other.goto(link.replace(/token=([\w-])/, (_, first) => `token=${first === "A" ? "B" : "A"}`));
      await other.getByRole("heading", { name: "This link does not open an order" }).waitFor();
      await other.getByText(/Use Find my order/).waitFor();
      await elsewhere.close();

      // The footer's Track order opens Find my order for a guest, which mails the link again.
      // (On a phone the footer folds its lists away; Find my order is the same page.)
      if (viewport === "desktop") {
        await page.goto("/contact");
        await scrollThrough(page);
        await page.locator("footer").getByRole("link", { name: "Track order" }).click();
      } else {
        await page.goto("/find-order");
      }
      await page.waitForURL("**/find-order");
      await page.getByLabel("Order number").fill(number.toLowerCase());
      await page.getByLabel("E-mail or mobile number").fill("+91 98765 43210");
      await page.getByRole("button", { name: "Send me the link" }).click();
      await page.getByText(/we have sent the link to it by SMS to that mobile/).waitFor();
      await screenshot(page, `find-my-order-${viewport}-${colorScheme}`);
      // The mobile typed gets the order's link by SMS as well.
      const [texted] = await smsMentioning(shop.dataDir, `order ${number} is`);
      expect(texted).toContain(link);
      const again = await waitForMail(shop.dataDir, {
        to: email,
        subject: new RegExp(`^Your order ${number}$`),
      });
      const againLinks = again.links.filter((each) => new URL(each).pathname.startsWith("/guest-order/"));
      expect([...new Set(againLinks)].sort()).toEqual([claimLink, link].sort());

      expect(failures).toEqual([]);
      await context.close();
    },
  );
});

describe("the owner of the address adds a guest order to their account", () => {
  it.each([
    ["desktop", "light"],
    ["phone", "dark"],
  ] as const)(
    "at %s size in %s mode, from the order's page while signed in",
    async (viewport, colorScheme) => {
      const email = `adds-order-${viewport}@example.in`;
      const account = await signUpViaHttp(shop.url, email);
      const placed = await fetch(`${shop.url}/api/guest-orders`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: shop.url, "Idempotency-Key": randomUUID() },
        body: JSON.stringify({
          email,
          address: {
            name: "Meera Iyer",
            phone: viewport === "desktop" ? "9876500001" : "9876500002",
            line1: "12, Lotus Apartments",
            line2: "",
            city: "Bengaluru",
            state: "Karnataka",
            pin: "560038",
          },
          items: [{ id: "face-glow-oil", kind: "product", quantity: 1 }],
          paymentMethod: "cod",
        }),
      });
      expect(placed.status).toBe(201);
      const { order, token } = (await placed.json()) as { order: { number: string }; token: string };

      const context = await contextOn(browser, shop, { viewport, colorScheme });
      await signInContext(context, shop.url, account);
      const page = await context.newPage();
      // Signed in, the account has not got the order: only the owner's tap brings it in.
      await page.goto("/orders");
      await page.getByRole("heading", { name: "My Orders" }).waitFor();
      await expect(page.getByText(order.number).count()).resolves.toBe(0);
      await page.goto(`/guest-order/${order.number}?token=${token}`);
      await page.getByRole("button", { name: "Add to my account" }).click();
      await page.getByText("This order is now in My Orders.").waitFor();
      await page.getByRole("heading", { name: "In your account" }).waitFor();
      await screenshot(page, `guest-order-added-${viewport}-${colorScheme}`);
      await page.goto("/orders");
      await page.getByText(order.number).first().waitFor();
      await context.close();
    },
  );
});

describe("a guest pays online and cancels", () => {
  beforeAll(async () => {
    await database.db.insert(deliveryRules).values({ prefix: "600005", rule: "not_served" });
    await database.db.insert(codPlaceRules).values({ kind: "pin", value: "600006", maxPaise: null });
  });
  afterAll(async () => {
    await database.db.delete(deliveryRules);
    await database.db.delete(codPlaceRules);
  });

  it.each([
    ["phone", "light"],
    ["desktop", "dark"],
  ] as const)(
    "at %s size in %s mode: pays through Razorpay Checkout (the local fake), then cancels from the order's page",
    async (viewport, colorScheme) => {
      const context = await contextOn(browser, shop, { viewport, colorScheme });
      const page = await context.newPage();
      const failures: string[] = [];
      page.on("pageerror", (error) => failures.push(error.message));
      const email = `paying-guest-${viewport}@example.in`;

      await addToCart(page, "face-glow-oil", "Face Glow Oil");
      await page.goto("/checkout?as=guest");
      await page.getByRole("heading", { name: "Checkout" }).waitFor();
      await page.getByLabel("E-mail").fill(email);
      const form = page.getByRole("form", { name: "New delivery address" });
      for (const [label, value] of [
        ["Full name", "Arun Kumar"],
        ["Mobile number", "91234 56780"],
        ["House, flat, building", "4, Temple Street"],
      ] as const) {
        await form.getByLabel(label).fill(value);
      }
      const cod = page.getByRole("radio", { name: /Cash on delivery/ });
      const pay = page.getByRole("button", { name: "Pay ₹499" });

      // Before anything is placed, a typed PIN gets Check delivery's answer, by the owner's rules.
      await form.getByLabel("PIN code").fill("600005");
      await form
        .getByText("Sorry, we do not deliver to PIN code 600005 (Chennai, Tamil Nadu) yet.")
        .waitFor();
      await form.getByRole("button", { name: "Use this address" }).click();
      await page.getByText(/yet\. Please enter another address\./).waitFor();
      await expect(pay.isDisabled()).resolves.toBe(true);
      // Nor is a delivery date promised there.
      expect(await page.getByText(/Estimated delivery:/).count()).toBe(0);
      await screenshot(page, `guest-checkout-not-served-${viewport}-${colorScheme}`);
      await page.getByRole("button", { name: "Change" }).click();
      await form.getByLabel("PIN code").fill("600006");
      await form
        .getByText(
          /^Delivers to Chennai, Tamil Nadu by .+; cash on delivery not available for this PIN code$/,
        )
        .waitFor();
      await expect(cod.isDisabled()).resolves.toBe(true);
      await page.getByText("Cash on delivery is not available for PIN code 600006.").waitFor();
      await form.getByLabel("PIN code").fill("600004");
      await form.getByText(/^Delivers to Chennai, Tamil Nadu by .+; cash on delivery available$/).waitFor();
      await expect(cod.isDisabled()).resolves.toBe(false);
      // The PIN fills the city and state in.
      await expect.poll(() => form.getByLabel("State or union territory").inputValue()).toBe("Tamil Nadu");
      await form.getByRole("button", { name: "Use this address" }).click();
      await page.getByRole("button", { name: "Change" }).waitFor();
      await page.getByText(/^Delivers to Chennai, Tamil Nadu by .+; cash on delivery available$/).waitFor();
      await page.getByRole("radio", { name: /UPI, card or netbanking/ }).check();
      await screenshot(page, `guest-pay-checkout-${viewport}-${colorScheme}`);
      await pay.click();

      const razorpay = page.getByRole("dialog", { name: "Razorpay test checkout" });
      await razorpay.waitFor();
      await razorpay.getByRole("button", { name: "Pay with UPI (test)" }).click();
      await page.waitForURL(/\/guest-order\/PN-\d{4}-\d{6}\?token=[\w-]{43}&placed=1$/);
      await page.getByText("Thank you! Your order is paid and confirmed.").waitFor();
      const number = page.url().match(/PN-\d{4}-\d{6}/)?.[0] ?? "";
      const [paid] = await database.db.select(orderWithPayment).from(orders).where(eq(orders.number, number));
      expect(paid).toMatchObject({ guestEmail: email, paymentMethod: "razorpay", status: "confirmed" });
      expect(paid?.razorpayPaymentId).toMatch(/^pay_/);
      await waitForMail(shop.dataDir, { to: email, subject: new RegExp(`^Order ${number} placed$`) });
      await screenshot(page, `guest-pay-confirmed-${viewport}-${colorScheme}`);

      // The order's page cancels it through the signed link, by the rules an account's order follows.
      await page.getByRole("button", { name: "Cancel order" }).click();
      const dialog = page.getByRole("dialog", { name: `Cancel order ${number}?` });
      await dialog.getByText("refunded to your original payment method").waitFor();
      await dialog.getByLabel("Reason (optional)").fill("Bought it in a shop");
      await screenshot(page, `guest-cancel-dialog-${viewport}-${colorScheme}`);
      await dialog.getByRole("button", { name: "Cancel order" }).click();
      await page.getByText("Your order is cancelled.").waitFor();
      await page.getByText("Cancelled", { exact: true }).first().waitFor();
      const [cancelled] = await database.db.select().from(orders).where(eq(orders.number, number));
      expect(cancelled?.status).toBe("cancelled");
      await expect(page.getByRole("button", { name: "Cancel order" }).count()).resolves.toBe(0);

      expect(failures).toEqual([]);
      await context.close();
    },
  );
});
