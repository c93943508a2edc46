import { mkdir } from "node:fs/promises";
import type { Browser, Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { makeAdmin, signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { newContext, type Shop, type ShopDatabase, shoot, VIEWPORTS } from "../fixtures.ts";
import { addToCart } from "../forms.ts";
import { putInCart, stockOf, TEST_ADDRESS } from "../orders.ts";
import { callShopApi, saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";

/**
 * The owner's COD rules and returns to origin (issue 29): an order refused cash by a PIN rule at checkout with
 * the reason beside the choice, and a parcel returned to origin, received back with its stock, in the figures.
 */
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;
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
    await shoot(page, { path: `${SHOTS}/${name}-${width}-${scheme}.png` });
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

ownShopForFile((started) => {
  ({ shop, browser, database, owner } = started);
});
beforeAll(async () => {
  staff = await signUpViaHttp(shop.url, "staff@example.in");
  await makeAdmin({ db: database.db, url: shop.url }, staff, "staff");
  shopper = await signUpViaHttp(shop.url, "meera@example.in");
  _chennaiAddress = await saveShopAddress(shop.url, shopper, {
    ...TEST_ADDRESS,
    city: "Chennai",
    state: "Tamil Nadu",
    pin: "600020",
  });
  bengaluruAddress = await saveShopAddress(shop.url, shopper);
}, 120_000);

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
      const panel = orderPage.getByRole("region", { name: "Return to origin" });
      await panel.getByRole("button", { name: "Record a return to origin…" }).click();
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

describe("a guest at checkout, before Place order", () => {
  const GUEST_ITEM = "face-glow-oil";

  /** A guest's cart in a fresh phone-sized browser, with the code applied in the cart when given. */
  async function guestCheckout(code?: string) {
    const context = await newContext(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(error.message));
    await addToCart(page, GUEST_ITEM, "Face Glow Oil");
    if (code) {
      await page.goto("/cart");
      await page.getByPlaceholder("e.g. GLOW20").fill(code);
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByText("Flat 20% off all products applied successfully!").waitFor();
    }
    await page.goto("/checkout?as=guest");
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    return { context, page, failures, form: page.getByRole("form", { name: "New delivery address" }) };
  }

  it("names the code the guest's mobile has spent, once the mobile is typed (375 px)", async () => {
    const mobile = "91111 22222";
    const earlier = await fetch(`${shop.url}/api/guest-orders`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: shop.url,
        "Idempotency-Key": crypto.randomUUID(),
      },
      body: JSON.stringify({
        email: "first-time@example.in",
        address: {
          name: "Kavya Menon",
          phone: mobile,
          line1: "3, Palm Grove",
          city: "Bengaluru",
          state: "Karnataka",
          pin: "560038",
        },
        items: [{ id: GUEST_ITEM, kind: "product", quantity: 1 }],
        discountCode: "GLOW20",
        paymentMethod: "cod",
      }),
    });
    expect(earlier.status).toBe(201);

    const { context, page, failures, form } = await guestCheckout("GLOW20");
    const summary = page.getByRole("complementary", { name: "Order summary" });
    const place = summary.getByRole("button", { name: /Place order/ });
    // A new e-mail says nothing of the code; the mobile that used it does, before anything is placed.
    await page.getByLabel("E-mail").fill("second-time@example.in");
    await form.getByLabel("Mobile number").fill(mobile);
    const spent = summary.getByText(
      "This discount code has already been used: GLOW20. Remove the code in your cart to continue.",
    );
    await spent.waitFor();
    await expect(place.isDisabled()).resolves.toBe(true);
    await lookAt(page, "guest-code-spent", spent);
    await context.close();
    expect(failures).toEqual([]);
  }, 120_000);

  it("says why cash on delivery is not offered to a first order over the owner's cap (375 px)", async () => {
    const settings = { enabled: true, maxOrderPaise: 500_000, prepaidOnlyAfterRtos: null };
    await call(owner, "PUT", "/admin/cod-rules/settings", { ...settings, firstOrderMaxPaise: 100 });
    const address = {
      name: "Rohan Das",
      phone: "90000 54321",
      line1: "9, Hill View",
      city: "Bengaluru",
      state: "Karnataka",
      pin: "560038",
    };
    // The shop forgets its copy of the rules when the NOTIFY of the change arrives, a moment after it commits.
    await expect
      .poll(
        async () => {
          const answer = await fetch(`${shop.url}/api/checkout/guest`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Origin: shop.url },
            body: JSON.stringify({ items: [{ id: GUEST_ITEM, kind: "product", quantity: 1 }], address }),
          });
          return ((await answer.json()) as { guestDelivery: { codProblem: string | null } }).guestDelivery
            .codProblem;
        },
        { timeout: 10_000 },
      )
      .toMatch(/first order/);

    const { context, page, failures, form } = await guestCheckout();
    const cod = page.getByRole("radio", { name: /Cash on delivery/ });
    await expect(cod.isEnabled()).resolves.toBe(true);
    await page.getByLabel("E-mail").fill("rohan@example.in");
    for (const [label, value] of [
      ["Full name", address.name],
      ["Mobile number", address.phone],
      ["House, flat, building", address.line1],
      ["PIN code", address.pin],
    ] as const) {
      await form.getByLabel(label).fill(value);
    }
    await expect.poll(() => form.getByLabel("State or union territory").inputValue()).toBe("Karnataka");
    await form.getByRole("button", { name: "Use this address" }).click();
    await page.getByRole("button", { name: "Change" }).waitFor();
    await page
      .getByText(
        "Cash on delivery is available for a first order up to ₹1. Pay online for this one, and cash on delivery is open for larger orders after your first delivery.",
      )
      .waitFor();
    await expect(cod.isDisabled()).resolves.toBe(true);
    await lookAt(page, "guest-first-order-cap", cod);
    await context.close();
    await call(owner, "PUT", "/admin/cod-rules/settings", { ...settings, firstOrderMaxPaise: null });
    expect(failures).toEqual([]);
  }, 120_000);
});
