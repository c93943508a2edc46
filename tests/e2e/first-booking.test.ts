import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../fake-shiprocket.ts";
import {
  type ColorScheme,
  newContext,
  type Shop,
  type ShopDatabase,
  screenshotLightAndDark,
  type Viewport,
} from "../fixtures.ts";
import { putInCart } from "../orders.ts";
import { callShopApi, saveShopAddress } from "../shop-api-call.ts";
import { ownShopForFile } from "../shop-test.ts";

/**
 * Issue 41, point 3 (docs/decisions/086): the first booking on a new shop, whose catalogue has no weights. The
 * Shipping desk says so and links to the Weights page; the owner sets a default parcel there; the booking
 * dialog names the items packed by it, prices the parcel again at the weight she weighed, and books it.
 */
let fake: FakeShiprocket;
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let shopper: TestAccount;
let db: ShopDatabase;
let addressId: string;

const apiAs = (account: TestAccount, method: string, path: string, body?: unknown) =>
  callShopApi(shop.url, account, method, path, body);

async function confirmedOrder(): Promise<string> {
  await putInCart(db.db, shopper.userId, [{ itemId: "coconut-oil", quantity: 2 }]);
  const placed = await apiAs(shopper, "POST", "/orders", { addressId, paymentMethod: "cod" });
  const number = placed.order.number as string;
  await apiAs(owner, "POST", `/admin/orders/${number}/status`, { status: "confirmed" });
  return number;
}

async function ownerPage(viewport: Viewport, colorScheme: ColorScheme): Promise<Page> {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  return context.newPage();
}

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
  shopper = await signUpViaHttp(shop.url, "asha.first@example.in");
  addressId = await saveShopAddress(shop.url, shopper);
});

describe("the first booking on a new shop, whose products have no weight", () => {
  it("is led from the Shipping desk to one Weights page, and books at the default parcel and then as weighed (375 px)", async () => {
    const page = await ownerPage("phone", "light");
    await page.goto("/admin/shipping");
    await page.getByRole("heading", { name: "Shipping", level: 1 }).waitFor();
    const warning = page.getByText(/items on sale have no weight, and there is no default parcel/);
    await warning.waitFor();
    await page.getByRole("link", { name: "Set weights" }).click();

    await page.getByRole("heading", { name: "Weights", level: 1 }).waitFor();
    await screenshotLightAndDark(page, "weights-phone");
    const form = page.getByRole("form", { name: "Weights" });
    await form.getByLabel("Default parcel: weight (g)").fill("250");
    await form.getByLabel("Default parcel: length (cm)").fill("15");
    await form.getByLabel("Default parcel: breadth (cm)").fill("10");
    await form.getByLabel("Default parcel: height (cm)").fill("8");
    await form.getByLabel("Face Glow Oil: weight (g)").fill("90");
    await form.getByText("Not saved yet").waitFor();
    await form.getByRole("button", { name: "Save weights" }).click();
    await form.getByText(/^Saved\. \d+ without a weight are packed as the default parcel\.$/).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Weights", level: 1 }).waitFor();
    expect(await page.getByLabel("Default parcel: weight (g)").inputValue()).toBe("250");
    expect(await page.getByLabel("Face Glow Oil: weight (g)").inputValue()).toBe("90");

    await page.getByRole("link", { name: "← Shipping" }).click();
    await page
      .getByText(/An item with no weight of its own is packed as 250 g in a 15 × 10 × 8 cm box/)
      .waitFor();

    const number = await confirmedOrder();
    await page.goto(`/admin/orders/${number}`);
    await page.getByRole("button", { name: "Book shipment" }).click();
    const dialog = page.getByRole("dialog", { name: `Book a courier for ${number}` });
    // Two jars at the default 250 g, with the box's 150 g.
    await dialog
      .getByText(/Parcel of 650 g, 15 × 10 × 16 cm\. Coconut Oil packed as the default parcel/)
      .waitFor();
    await screenshotLightAndDark(page, "booking-default-parcel-phone");

    await dialog.getByLabel("Weighed the packed parcel? Its weight (g)").fill("900");
    await dialog.getByRole("button", { name: "Price at this weight" }).click();
    await dialog.getByText(/Parcel of 900 g as weighed/).waitFor();
    await dialog.getByRole("button", { name: "Book courier" }).click();
    // The desk's notice, not the order history's event ("Booked with … through Shiprocket, AWB …"), which the
    // page shows too once it has read the order again.
    await page.getByText(/Booked with .+, AWB .+\. Print the label\./).waitFor();
    const [booked] = fake.shipments.filter((each) => each.created.order_id === number);
    expect(booked?.weightKg).toBe(0.9);
    await page.context().close();
  });

  it("names the Weights page, with a link, when an item has no weight and there is no default (1280 px, dark)", async () => {
    await apiAs(owner, "PUT", "/admin/shipping/weights", {
      defaultItem: { weightGrams: null, lengthCm: null, breadthCm: null, heightCm: null },
      items: [],
    });
    const number = await confirmedOrder();
    const page = await ownerPage("desktop", "dark");
    await page.goto(`/admin/orders/${number}`);
    await page.getByRole("button", { name: "Book shipment" }).click();
    await page.getByText(/Set the weight of Coconut Oil on the Weights page/).waitFor();
    // The path the API's message carries is the link here, not text to read.
    expect(await page.getByText("/admin/shipping/weights").count()).toBe(0);
    await screenshotLightAndDark(page, "booking-weight-missing-desktop");
    await page.getByRole("link", { name: "Open the Weights page" }).click();
    await page.getByRole("heading", { name: "Weights", level: 1 }).waitFor();
    await page.context().close();
  });
});
