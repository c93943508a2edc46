import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { products } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { type FakeRazorpay, startFakeRazorpay } from "../fake-razorpay.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../fake-shiprocket.ts";
import {
  type ColorScheme,
  type Shop,
  type ShopDatabase,
  screenshot,
  sidewaysOverflow,
  type Viewport,
} from "../fixtures.ts";
import { linkIn, waitForMail } from "../mail.ts";
import { TEST_ADDRESS } from "../orders.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { inEachView, showView } from "../views.ts";

/**
 * A guest's parcel the courier could not deliver (docs/decisions/082): the "could not deliver" mail's link
 * opens the guest's order page with the form an account's page has; the guest picks a day and corrects the
 * address and mobile; the owner sees what was asked on the order and on the Shipping desk. Once with a cash
 * order Shiprocket takes the answer for, once with an order paid online whose answer Shiprocket refuses: the
 * guest reads plain words, and the owner reads the request to pass on by hand. Phone and desktop, light and dark.
 */
let shiprocket: FakeShiprocket;
let razorpay: FakeRazorpay;
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let db: ShopDatabase;
let guests = 0;

const COMBINATIONS: [Viewport, ColorScheme][] = [
  ["phone", "light"],
  ["phone", "dark"],
  ["desktop", "light"],
  ["desktop", "dark"],
];

async function call(path: string, init: { method?: string; body?: unknown; as?: TestAccount } = {}) {
  const response = await fetch(`${shop.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      Origin: shop.url,
      "Content-Type": "application/json",
      "Idempotency-Key": randomUUID(),
      ...(init.as ? { Cookie: init.as.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * A guest's order (cash on delivery, or paid online through the fake Razorpay), packed and booked by the owner,
 * picked up, and not delivered; answers its number, the guest's e-mail and the parcel's AWB.
 */
async function guestParcelNotDelivered(payment: "cod" | "razorpay") {
  guests += 1;
  const email = `ndr-walk${guests}@example.in`;
  const placed = await call("/api/guest-orders", {
    method: "POST",
    body: {
      email,
      address: { ...TEST_ADDRESS, phone: `9${String(820_000_000 + guests).padStart(9, "0")}` },
      items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
      paymentMethod: payment,
    },
  });
  const number = placed.order.number as string;
  const token = placed.token as string;
  if (payment === "razorpay") {
    const checkout = await call(`/api/guest-orders/${number}/payment?token=${token}`, { method: "POST" });
    const paid = razorpay.pay(checkout.razorpayOrderId);
    await call(`/api/guest-orders/${number}/payment/verify?token=${token}`, {
      method: "POST",
      body: {
        razorpayPaymentId: paid.razorpay_payment_id,
        razorpayOrderId: paid.razorpay_order_id,
        razorpaySignature: paid.razorpay_signature,
      },
    });
  } else {
    await call(`/api/admin/orders/${number}/status`, {
      method: "POST",
      as: owner,
      body: { status: "confirmed" },
    });
  }
  await call(`/api/admin/orders/${number}/status`, { method: "POST", as: owner, body: { status: "packed" } });
  const booked = await call(`/api/admin/shipping/orders/${number}/book`, {
    method: "POST",
    as: owner,
    body: { rule: "cheapest" },
  });
  const awb = booked.shipment.awb as string;
  shiprocket.scan(awb, "PICKED UP");
  shiprocket.scan(awb, "UNDELIVERED");
  expect(await shiprocket.sendWebhook(`${shop.url}/api/shipping/tracking-updates`, awb)).toBe(200);
  return { number, email, awb };
}

/** The link in the "could not deliver" mail, as the guest gets it. */
async function mailedLink(guest: { number: string; email: string }) {
  const mail = await waitForMail(shop.dataDir, {
    to: guest.email,
    subject: new RegExp(`${guest.number}: the courier could not deliver`),
  });
  expect(mail.text).toMatch(/could not deliver your order/);
  return linkIn(mail, `/guest-order/${guest.number}`);
}

/** A whole-page picture taken from the top, so the sticky header is not caught part-way down the page. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await screenshot(page, name);
}

/** Nothing wider than the window, and every control of `scope` at least 44 px tall. */
async function fitsAndTappable(page: Page, name: string, controls: ReturnType<Page["locator"]>) {
  expect(await sidewaysOverflow(page), `${name} overflows`).toBeLessThanOrEqual(0);
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    const label = (await control.getAttribute("id")) ?? (await control.textContent()) ?? "a control";
    expect(box?.height ?? 0, `${name}: ${label} is ${box?.height} px tall`).toBeGreaterThanOrEqual(44);
  }
}

beforeAll(async () => {
  [shiprocket, razorpay] = await Promise.all([startFakeShiprocket(), startFakeRazorpay()]);
});
// A shop of its own, on the fake Shiprocket and Razorpay, whose every product this file weighs.
ownShopForFile(
  async (started) => {
    ({ shop, browser } = started);
    db = started.database;
    owner = await signUpViaHttp(shop.url, "owner.ndr@example.in");
    await db.db.update(products).set({ weightGrams: 220, lengthCm: 6, breadthCm: 6, heightCm: 16 });
  },
  () => ({ ADMIN_EMAILS: "owner.ndr@example.in", ...shiprocket.env, ...razorpay.env }),
);
afterAll(async () => {
  await shiprocket?.stop();
  await razorpay?.stop();
});

/**
 * The owner's order page and Shipping desk showing the guest's request, in every size and scheme: each page
 * loaded once and shown at each width and in each theme in turn.
 */
async function ownerSees(number: string, expected: RegExp, prefix: string) {
  const context = await contextOn(browser, shop, { viewport: "phone" });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto(`/admin/orders/${number}`);
  const parcel = page.getByRole("region", { name: "Parcel" });
  await inEachView(page, COMBINATIONS, async (viewport, colorScheme) => {
    await parcel.getByText(expected).waitFor();
    await parcel.getByText("Behind the temple", { exact: false }).waitFor();
    await parcel.getByText("98450 12345").waitFor();
    await parcel.scrollIntoViewIfNeeded();
    await fitsAndTappable(page, `${prefix} order`, parcel.locator("button, select, a"));
    await shot(page, `${prefix}-admin-order-${viewport}-${colorScheme}`);
  });

  await page.goto("/admin/shipping");
  const card = page
    .getByRole("list", { name: "Parcels needing a decision" })
    .getByRole("listitem")
    .filter({ hasText: number });
  await inEachView(page, COMBINATIONS, async (viewport, colorScheme) => {
    await card.getByText(expected).waitFor();
    await card.getByText("98450 12345").waitFor();
    await card.scrollIntoViewIfNeeded();
    await fitsAndTappable(page, `${prefix} desk`, card.locator("button, select"));
    await shot(page, `${prefix}-admin-desk-${viewport}-${colorScheme}`);
  });
  await context.close();
}

// Each journey is about ten screens, the owner's in four sizes and schemes: more than a minute on a busy machine.
describe("a guest answers a failed delivery from the mailed link", () => {
  it("cash on delivery: the guest picks a day and corrects the address and mobile; the owner sees it", async () => {
    const guest = await guestParcelNotDelivered("cod");
    const link = await mailedLink(guest);

    // The mailed link opens the guest's page with the form first, in every size and scheme; the guest
    // then answers on the phone, from the same load.
    const context = await contextOn(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(error.message));
    await page.goto(link);
    const formFirst = page.getByRole("form", {
      name: "The courier could not deliver. When should they come again?",
    });
    await inEachView(page, COMBINATIONS, async (viewport, colorScheme) => {
      await formFirst.waitFor();
      await fitsAndTappable(page, `guest form ${viewport}`, formFirst.locator("input, select, button"));
      await shot(page, `ndr-guest-form-${viewport}-${colorScheme}`);
    });
    await showView(page, "phone", "light");
    const form = page.getByRole("form", { name: /could not deliver/ });
    const day = form.getByRole("combobox", { name: "Day" });
    await day.waitFor();
    expect(await day.locator("option").allTextContents()).toEqual([
      expect.stringMatching(/^\w{3}, \d+ \w{3}$/),
      expect.stringMatching(/^\w{3}, \d+ \w{3}$/),
      expect.stringMatching(/^\w{3}, \d+ \w{3}$/),
    ]);
    await day.selectOption({ index: 1 });
    const chosen = await day.inputValue();
    await form.getByLabel("Corrected address (only if it was wrong)").fill("14, Lotus Apartments, Flat 2A");
    await form.getByLabel("Landmark or area").fill("Behind the temple");
    // A mobile that is not one is marked beside its field, in words, and nothing is sent.
    await form.getByLabel("Corrected mobile (only if it was wrong)").fill("12345");
    await form.getByRole("button", { name: "Ask for another attempt" }).click();
    await form.getByText("Enter a 10-digit Indian mobile number").waitFor();
    expect(shiprocket.byAwb(guest.awb).ndrActions).toEqual([]);
    await form.getByLabel("Corrected mobile (only if it was wrong)").fill("98450 12345");
    await form.getByRole("button", { name: "Ask for another attempt" }).click();
    await page
      .getByText(/^Thank you\. The courier has your request: another attempt on/)
      .first()
      .waitFor();
    await page.getByText("14, Lotus Apartments, Flat 2A").first().waitFor();
    // The form is done with; what was asked stays in view.
    await form.waitFor({ state: "detached" });
    await shot(page, "ndr-guest-answered-phone-light");
    expect(shiprocket.byAwb(guest.awb).ndrActions).toEqual([
      { action: "re-attempt", comments: expect.stringContaining(chosen) },
    ]);
    expect(shiprocket.byAwb(guest.awb).addressUpdates.at(-1)).toMatchObject({
      shipping_address: "14, Lotus Apartments, Flat 2A",
      shipping_phone: "9845012345",
    });
    expect(failures).toEqual([]);
    await context.close();

    await ownerSees(guest.number, /^Sent to the courier through Shiprocket/, "ndr-sent");
  }, 120_000);

  it("paid online, refused by Shiprocket: the guest reads plain words; the owner reads the request to pass on", async () => {
    const guest = await guestParcelNotDelivered("razorpay");
    const link = await mailedLink(guest);
    // The courier has already started the return; the shop has not heard yet, Shiprocket refuses the answer.
    shiprocket.scan(guest.awb, "RTO INITIATED");

    const context = await contextOn(browser, shop, { viewport: "desktop", colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(link);
    const form = page.getByRole("form", { name: /could not deliver/ });
    await form.getByLabel("Landmark or area").fill("Behind the temple");
    await form.getByRole("button", { name: "Ask for another attempt" }).click();
    // The landmark alone is not an address: said beside the address field.
    await form.getByText("Give the corrected house, flat or building with the landmark").waitFor();
    await form.getByLabel("Corrected address (only if it was wrong)").fill("14, Lotus Apartments, Flat 2A");
    await form.getByLabel("Corrected mobile (only if it was wrong)").fill("98450 12345");
    await form.getByRole("button", { name: "Ask for another attempt" }).click();
    const said = page.getByText(/we are passing it on to them ourselves\.$/).first();
    await said.waitFor();
    expect(await said.textContent()).toMatch(/^Thank you, we have your request: another attempt on/);
    // Shiprocket's words and status stay off the guest's page; "404" as a number of its own, since an AWB's random
    // hex (SR2404…) may hold the digits.
    await expect(page.getByText(/refused|Action cannot|did not take|\b404\b/).count()).resolves.toBe(0);
    await shot(page, "ndr-guest-refused-desktop-dark");
    // Opened again later, the page says the same and offers no second form.
    await page.goto(link);
    await page
      .getByText(/we are passing it on to them ourselves\.$/)
      .first()
      .waitFor();
    await expect(page.getByRole("form", { name: /could not deliver/ }).count()).resolves.toBe(0);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ colorScheme: "light" });
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, "ndr-guest-refused-phone-light");
    await context.close();

    await ownerSees(
      guest.number,
      /^Not taken by Shiprocket \(it said: Action cannot be taken on this AWB\)/,
      "ndr-refused",
    );
  }, 120_000);
});
