import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import { estimateDelivery, formatEstimate } from "../../common/delivery-estimate.ts";
import { orderLines, orders, taxDocuments } from "../../server/db/schema.ts";
import { signUpViaHttp, type TestAccount } from "../accounts.ts";
import { type Shop, type ShopDatabase, screenshot, screenshotLightAndDark } from "../fixtures.ts";
import { typeShopDetails } from "../forms.ts";
import { putInCart, stockOf, TEST_ADDRESS, taxDocumentsOf } from "../orders.ts";
import { requestShop, type ShopRequestInit } from "../shop-api-call.ts";
import { REGISTERED_SHOP, registerShopForGst, TEST_GSTIN } from "../shop-details.ts";
import { it, ownShopForFile, signedInPageOn } from "../shop-test.ts";
import { showView } from "../views.ts";

let shop: Shop;
let owner: TestAccount;
let database: ShopDatabase;
let meera: TestAccount;
let meeraAddress: string;
const VIEWS = [
  ["phone", "light"],
  ["phone", "dark"],
  ["desktop", "light"],
  ["desktop", "dark"],
] as const;

// A shop of its own: the owner saves the shop's GSTIN, which every later invoice follows.
ownShopForFile((started) => {
  ({ shop, database, owner } = started);
});
beforeAll(async () => {
  meera = await signUpViaHttp(shop.url, "meera@example.in");
  const address = await request("/api/addresses", {
    method: "POST",
    cookie: meera.cookie,
    body: TEST_ADDRESS,
  });
  meeraAddress = (address.body.address as { id: string }).id;
});

const request = (path: string, init?: ShopRequestInit) => requestShop(shop.url, path, init);

/** Meera's cash-on-delivery order of 2 × Bath Powder, placed through the API; confirmed by the owner if asked. */
async function placeOrder(confirm: boolean): Promise<string> {
  await putInCart(database.db, meera.userId, [{ itemId: "bath-powder", quantity: 2 }]);
  const placed = await request("/api/orders", {
    method: "POST",
    cookie: meera.cookie,
    headers: { "Idempotency-Key": randomUUID() },
    body: { addressId: meeraAddress, paymentMethod: "cod" },
  });
  expect(placed.status).toBe(201);
  const { number } = placed.body.order as { number: string };
  if (confirm) {
    const confirmed = await request(`/api/admin/orders/${number}/status`, {
      method: "POST",
      cookie: owner.cookie,
      body: { status: "confirmed" },
    });
    expect(confirmed.status).toBe(200);
  }
  return number;
}

async function ownerPage(
  browser: Browser,
  path: string,
  viewport: "phone" | "desktop",
  colorScheme: "light" | "dark",
) {
  return signedInPageOn(browser, shop, owner, path, { viewport, colorScheme });
}

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("invoices missed before the GSTIN was saved", () => {
  let missed: string;

  it("are named on the dashboard and the order page while the details are incomplete", async ({
    browser,
  }) => {
    missed = await placeOrder(true);
    // Each page loaded once, shown at each width and in each theme in turn.
    const dashboard = await ownerPage(browser, "/admin", "phone", "light");
    const panel = dashboard.page.getByRole("region", { name: "Tax invoices" });
    for (const [viewport, scheme] of VIEWS) {
      await showView(dashboard.page, viewport, scheme);
      await panel.getByText("No tax invoice can be issued").waitFor();
      expect(await panel.textContent()).toContain("GSTIN and registered address are not saved");
      expect(await panel.getByRole("link", { name: "Shop details" }).getAttribute("href")).toBe(
        "/admin/shop",
      );
      await panel.getByRole("link", { name: missed }).waitFor();
      expect(await sidewaysOverflow(dashboard.page)).toBeLessThanOrEqual(0);
      await screenshot(dashboard.page, `order-edit-dashboard-${viewport}-${scheme}`);
    }
    await dashboard.close();

    const order = await ownerPage(browser, `/admin/orders/${missed}`, "phone", "light");
    for (const [viewport, scheme] of VIEWS) {
      await showView(order.page, viewport, scheme);
      await order.page
        .getByRole("region", { name: "Tax invoice", exact: true })
        .getByText("No tax invoice can be issued")
        .waitFor();
      expect(await sidewaysOverflow(order.page)).toBeLessThanOrEqual(0);
      await screenshot(order.page, `order-edit-no-invoice-${viewport}-${scheme}`);
    }
    await order.close();
  }, 240_000);

  it("the owner saves the GSTIN and address, then issues the missed invoice from the order page", async ({
    browser,
  }) => {
    const { page, close } = await ownerPage(browser, "/admin/shop", "phone", "light");
    const form = page.getByRole("form", { name: "Shop details" });
    await typeShopDetails(form, {
      ...REGISTERED_SHOP,
      gstin: TEST_GSTIN,
      grievanceOfficerName: "Meera Kulkarni",
    });
    await form.getByRole("button", { name: "Save details" }).click();
    await form.getByText("Saved. The shop shows the new details now.").waitFor();

    await page.goto(`/admin/orders/${missed}`);
    const notice = page.getByRole("region", { name: "Tax invoice", exact: true });
    await notice.getByText("This order has no tax invoice.").waitFor();
    await screenshot(page, "order-edit-issue-phone-light");
    await notice.getByRole("button", { name: "Issue invoice" }).click();
    const said = page.getByRole("status").filter({ hasText: /^Invoice PN\/\d{2}-\d{2}\/\d{6} issued for / });
    await said.waitFor();
    const [invoice] = await database.db
      .select({ number: taxDocuments.number, suppliedAt: taxDocuments.suppliedAt })
      .from(taxDocuments)
      .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
      .where(eq(orders.number, missed));
    expect(invoice?.suppliedAt).not.toBeNull();
    expect(await said.textContent()).toContain(`Invoice ${invoice?.number} issued for ${missed}.`);
    await page.getByRole("link", { name: `Download tax invoice ${invoice?.number}` }).waitFor();
    await notice.waitFor({ state: "detached" });
    await screenshot(page, "order-edit-issued-phone-light");

    await page.goto("/admin");
    await page.locator("main h1").first().waitFor();
    expect(await page.getByRole("region", { name: "Tax invoices" }).count()).toBe(0);
    await close();
  }, 120_000);
});

describe("an order changed before packing", () => {
  it("shows the editors without spilling sideways at 375 and 1280 px, light and dark", async ({
    browser,
  }) => {
    const number = await placeOrder(false);
    // Each editor's state shown in light and dark from one load per width (the clicks are what each width
    // is checked on); nothing is saved, so the next width starts from the same order.
    const inBothThemes = async (page: Page, viewport: "phone" | "desktop", name: string) => {
      for (const scheme of ["light", "dark"] as const) {
        await showView(page, viewport, scheme);
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await screenshot(page, `order-edit-${name}-${viewport}-${scheme}`);
      }
    };
    for (const viewport of ["phone", "desktop"] as const) {
      const { page, close } = await ownerPage(browser, `/admin/orders/${number}`, viewport, "light");
      const panel = page.getByRole("region", { name: "Change the order" });
      await panel.getByRole("button", { name: "Change address" }).click();
      await panel.getByRole("form", { name: "Delivery address of this order" }).waitFor();
      await inBothThemes(page, viewport, "address");
      await panel.getByRole("button", { name: "Cancel" }).click();
      await panel.getByRole("button", { name: "Change items" }).click();
      await panel.getByLabel("Quantity of Bath Powder", { exact: true }).waitFor();
      await inBothThemes(page, viewport, "items");
      // The picker offers what the shop sells, by name, and not what the order already holds.
      const search = panel.getByLabel("Add an item: find a product or combo by name");
      const found = panel.getByRole("list", { name: "Matching products and combos" });
      await search.fill("bath powder");
      await found.getByRole("button", { name: /^Add Kids Bath Powder, ₹/ }).waitFor();
      expect(await found.getByRole("button", { name: /^Add Bath Powder,/ }).count()).toBe(0);
      await search.fill("moringa");
      await found.getByRole("button", { name: /^Add Moringa Powder, ₹/ }).waitFor();
      await inBothThemes(page, viewport, "picker");
      await found.getByRole("button", { name: /^Add Moringa Powder, ₹/ }).click();
      await panel.getByText("Moringa Powder is added, 1 unit. Set its quantity, then save items.").waitFor();
      await panel.getByLabel("Quantity of Moringa Powder", { exact: true }).waitFor();
      await inBothThemes(page, viewport, "added");
      await close();
    }
  }, 240_000);

  it("a new PIN in Change address fills the city and district as well as the state", async ({ browser }) => {
    const number = await placeOrder(false);
    for (const [viewport, scheme] of [VIEWS[0], VIEWS[3]] as const) {
      const { page, close } = await ownerPage(browser, `/admin/orders/${number}`, viewport, scheme);
      const panel = page.getByRole("region", { name: "Change the order" });
      await panel.getByRole("button", { name: "Change address" }).click();
      const form = panel.getByRole("form", { name: "Delivery address of this order" });
      // The order goes to Bengaluru (560038); a Chennai PIN must not leave "Bengaluru" beside Tamil Nadu.
      expect(await form.getByLabel("City or town").inputValue()).toBe("Bengaluru");
      await form.getByLabel("PIN code").fill("600020");
      await form.getByText("Chennai, Tamil Nadu").waitFor();
      expect(await form.getByLabel("City or town").inputValue()).toBe("Chennai");
      expect(await form.getByLabel("District").inputValue()).toBe("Chennai");
      expect(await form.getByLabel("State or union territory").inputValue()).toBe("Tamil Nadu");
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `order-edit-address-pin-${viewport}-${scheme}`);
      // A city staff type themselves stays when the PIN is corrected again.
      await form.getByLabel("City or town").fill("Mylapore");
      await form.getByLabel("PIN code").fill("600004");
      await form.getByText("Chennai, Tamil Nadu").waitFor();
      expect(await form.getByLabel("City or town").inputValue()).toBe("Mylapore");
      await close();
    }
  }, 120_000);

  it("staff correct the address and change a quantity; the history and the stock follow", async ({
    browser,
  }) => {
    const number = await placeOrder(false);
    const stockBefore = (await stockOf(database.db, "bath-powder")) ?? 0;
    // Placed days ago: its delivery window was worked out then.
    await database.db
      .update(orders)
      .set({ estimatedDeliveryFrom: "2026-01-05", estimatedDeliveryTo: "2026-01-09" })
      .where(eq(orders.number, number));
    const { page, close } = await ownerPage(browser, `/admin/orders/${number}`, "phone", "dark");
    const panel = page.getByRole("region", { name: "Change the order" });

    await panel.getByRole("button", { name: "Change address" }).click();
    const form = panel.getByRole("form", { name: "Delivery address of this order" });
    await form.getByLabel("House, flat, building").fill("7, Palm Grove, 5th Main");
    await form.getByLabel("Full name").fill("");
    await form.getByRole("button", { name: "Save address" }).click();
    // Checked with checkout's own schema before it is sent: nothing saved.
    await form.getByText("Name is required").waitFor();
    await form.getByLabel("Full name").fill("Meera Iyer");
    await form.getByLabel("PIN code").fill("560041");
    await form.getByRole("button", { name: "Save address" }).click();
    await page.getByRole("status").filter({ hasText: "Delivery address changed:" }).waitFor();
    const customer = page.getByRole("region", { name: "Customer and delivery" });
    await customer.getByText("7, Palm Grove, 5th Main").waitFor();
    // A new PIN: the delivery window is worked out again from today.
    const estimate = `Estimated delivery: ${formatEstimate(estimateDelivery(new Date()))}`;
    await customer.getByText(estimate).waitFor();
    const history = page.getByRole("region", { name: "History" });
    await history.getByText(/→ Meera Iyer, .*7, Palm Grove/).waitFor();
    await history.getByText(`Address changed by ${owner.email}`).waitFor();

    await panel.getByRole("button", { name: "Change items" }).click();
    await panel.getByRole("button", { name: "Increase quantity of bath powder" }).click();
    await panel.getByLabel("Add an item: find a product or combo by name").fill("badam");
    await panel.getByRole("button", { name: "Add Badam Mix, ₹399" }).click();
    await panel.getByText("Badam Mix is added, 1 unit. Set its quantity, then save items.").waitFor();
    await panel.getByRole("button", { name: "Increase quantity of badam mix" }).click();
    await panel.getByRole("button", { name: "Save items" }).click();
    const said = page.getByRole("status").filter({ hasText: "Bath Powder 2 → 3" });
    await said.waitFor();
    expect(await said.textContent()).toContain("Badam Mix × 2 added");
    await history.getByText(/Items changed: Bath Powder 2 → 3; Badam Mix × 2 added/).waitFor();
    await history.getByText(`Items changed by ${owner.email}`).waitFor();
    expect(await page.getByRole("region", { name: "Items" }).getByText("Badam Mix").count()).toBeGreaterThan(
      0,
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "order-edit-done-phone-dark");
    await close();

    // The shopper's order page: the new estimate, and the history says what changed.
    const shopper = await signedInPageOn(browser, shop, meera, `/orders/${number}`, {
      viewport: "desktop",
      colorScheme: "light",
    });
    await shopper.page.getByText(estimate).first().waitFor();
    await shopper.page.getByText("Address changed by our team").waitFor();
    await shopper.page.getByText("Items changed by our team").waitFor();
    await screenshot(shopper.page, "order-edit-shopper-desktop-light");
    await shopper.close();

    const [row] = await database.db.select().from(orders).where(eq(orders.number, number));
    const after = {
      row,
      lines: await database.db
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, row?.id ?? "")),
      stock: await stockOf(database.db, "bath-powder"),
    };
    expect(after.lines.map((line) => [line.itemId, line.quantity])).toEqual([
      ["bath-powder", 3],
      ["badam-mix", 2],
    ]);
    expect(after.row?.subtotalPaise).toBe(3 * 59900 + 2 * 39900);
    expect(after.row?.shipPin).toBe("560041");
    expect(after.stock).toBe(stockBefore - 1);
  }, 120_000);

  it("a confirmed COD order sent to another state is invoiced again: the old invoice reversed by a credit note, a new one issued (issue 41)", async ({
    browser,
  }) => {
    await registerShopForGst(database.db);
    const number = await placeOrder(true);
    const invoices = () => taxDocumentsOf(database.db, number);
    const [first] = await invoices();
    expect(first).toMatchObject({ kind: "invoice", placeOfSupply: "Karnataka" });

    // One load: the notice at each width (light and dark), then the change made on the phone.
    const { page, close } = await ownerPage(browser, `/admin/orders/${number}`, "desktop", "dark");
    const panel = page.getByRole("region", { name: "Change the order" });
    for (const viewport of ["desktop", "phone"] as const) {
      await showView(page, viewport, "light");
      await panel.getByText(`Invoice ${first?.number} is issued: a change of items`).waitFor();
      await screenshotLightAndDark(page, `order-reinvoice-before-${viewport}`);
    }
    await panel.getByRole("button", { name: "Change address" }).click();
    const form = panel.getByRole("form", { name: "Delivery address of this order" });
    await form.getByLabel("City").fill("Kochi");
    await form.getByLabel("PIN code").fill("682011");
    await form.getByLabel("State").selectOption("Kerala");
    await form.getByRole("button", { name: "Save address" }).click();
    const said = page.getByRole("status").filter({ hasText: "reverses the earlier invoice" });
    await said.waitFor();
    const documents = await invoices();
    expect(documents.map((each) => [each.kind, each.placeOfSupply])).toEqual([
      ["invoice", "Karnataka"],
      ["credit_note", "Karnataka"],
      ["invoice", "Kerala"],
    ]);
    expect(await said.textContent()).toContain(
      `Credit note ${documents[1]?.number} reverses the earlier invoice; invoice ${documents[2]?.number} is issued for the order as it is now.`,
    );
    await page.getByRole("link", { name: `Download tax invoice ${documents[2]?.number}` }).waitFor();
    await page.getByRole("link", { name: `Download credit note ${documents[1]?.number}` }).waitFor();
    await screenshotLightAndDark(page, "order-reinvoice-after-phone");
    await close();
  }, 120_000);
});
