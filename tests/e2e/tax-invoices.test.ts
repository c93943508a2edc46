import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, products, taxDocuments } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import {
  newContext,
  type Shop,
  type ShopDatabase,
  shoot,
  sidewaysOverflow,
  waitForApp,
} from "../fixtures.ts";
import { putInCart, TEST_ADDRESS } from "../orders.ts";
import { pdfText } from "../pdf-text.ts";
import { requestShop, type ShopRequestInit } from "../shop-api-call.ts";
import { registerShopForGst, TEST_GSTIN } from "../shop-details.ts";
import { ownShopForFile } from "../shop-test.ts";
import { showView } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let database: ShopDatabase;

ownShopForFile((started) => {
  ({ shop, browser, database, owner } = started);
});
beforeAll(async () => {
  await registerShopForGst(database.db, { addressLine2: "T. Nagar" });
}, 120_000);

/** Looked at by a person after the run: /tmp/tax-<name>.png. */
const shot = (page: Page, name: string) => shoot(page, { path: `/tmp/tax-${name}.png`, fullPage: true });

async function ownerPage(path: string, viewport: "phone" | "desktop", colorScheme: "light" | "dark") {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto(path);
  await page.locator("main h1").first().waitFor();
  return { page, context, close: () => context.close() };
}

async function hsnOf(slug: string) {
  const [row] = await database.db
    .select({ hsnCode: products.hsnCode, gstRateBp: products.gstRateBp })
    .from(products)
    .where(eq(products.slug, slug));
  return row;
}

describe("the owner's tax page", () => {
  // The four looks of the page are one load, shown at each width and in each theme in turn (a test run
  // alone loads it itself); closed after them.
  let looked: Awaited<ReturnType<typeof ownerPage>> | undefined;
  afterAll(() => looked?.close());
  for (const viewport of ["phone", "desktop"] as const) {
    for (const scheme of ["light", "dark"] as const) {
      it(`fits the screen and sets its title (${viewport}, ${scheme})`, async () => {
        looked ??= await ownerPage("/admin/tax", viewport, scheme);
        const { page } = looked;
        await showView(page, viewport, scheme);
        await page.getByRole("list", { name: "Products' HSN codes and rates" }).waitFor();
        await page
          .getByRole("navigation", { name: "Admin sections" })
          // Among the owner's sections (folded behind one button on a phone).
          .getByRole("link", { name: "Tax", includeHidden: true })
          .waitFor({ state: "attached" });
        expect(await page.title()).toMatch(/^Admin: tax \| /);
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await shot(page, `page-${viewport}-${scheme}`);
      }, 60_000);
    }
  }

  it("adds and removes a rate, refuses a bad one, and says why a rate in use stays", async () => {
    const { page, close } = await ownerPage("/admin/tax", "phone", "light");
    const rates = page.getByRole("list", { name: "Allowed rates" });
    const form = page.getByRole("form", { name: "Add a rate" });
    await form.getByLabel("New rate (%)").fill("1.234");
    await form.getByRole("button", { name: "Add rate" }).click();
    await page.getByRole("alert").filter({ hasText: "like 5 or 0.25" }).waitFor();
    // What was typed stays to be corrected.
    expect(await form.getByLabel("New rate (%)").inputValue()).toBe("1.234");
    await form.getByLabel("New rate (%)").fill("0.25");
    await form.getByRole("button", { name: "Add rate" }).click();
    await page.getByRole("status").filter({ hasText: "Added 0.25 %." }).waitFor();
    await rates.getByText("0.25 %", { exact: true }).waitFor();
    await form.getByLabel("New rate (%)").fill("5");
    await form.getByRole("button", { name: "Add rate" }).click();
    await page.getByRole("alert").filter({ hasText: "5 % is already in the list." }).waitFor();

    await rates.getByRole("button", { name: "Remove 5 %" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /products are at 5 %: change them first/ })
      .waitFor();
    await rates.getByRole("button", { name: "Remove 0.25 %" }).click();
    await page.getByRole("status").filter({ hasText: "Removed 0.25 %." }).waitFor();
    await rates.getByText("0.25 %", { exact: true }).waitFor({ state: "detached" });
    await close();
  }, 60_000);

  it("changes a product's HSN and rate, keeping another row's unsaved typing", async () => {
    const { page, close } = await ownerPage("/admin/tax", "phone", "dark");
    const wax = page.getByRole("form", { name: "Tax of Wax Powder" });
    const bath = page.getByRole("form", { name: "Tax of Bath Powder" });
    await bath.getByLabel("HSN").fill("330730");
    await wax.getByLabel("HSN").fill("33079");
    await wax.getByRole("button", { name: /Save/ }).click();
    await page.getByRole("alert").filter({ hasText: "4, 6 or 8 digits" }).waitFor();
    await wax.getByLabel("HSN").fill("3307 90 10");
    await wax.getByLabel("Rate").selectOption("5");
    await wax.getByRole("button", { name: /Save/ }).click();
    await page.getByRole("status").filter({ hasText: "Saved: HSN 33079010 at 5 %." }).waitFor();
    expect(await hsnOf("wax-powder")).toEqual({ hsnCode: "33079010", gstRateBp: 500 });
    expect(await bath.getByLabel("HSN").inputValue()).toBe("330730");
    await shot(page, "saved-phone-dark");
    await close();
  }, 60_000);

  it("downloads a month's GSTR-1 files", async () => {
    const { page, close } = await ownerPage("/admin/tax", "desktop", "light");
    await page.getByLabel("Month").fill("2026-01");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Download HSN summary for 2026-01/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("gstr1-2026-01-hsn.csv");
    const text = await readFile((await download.path()) ?? "", "utf8");
    expect(text.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe(
      "HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount",
    );
    const [large] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /Download B2C \(large\) for 2026-01/ }).click(),
    ]);
    expect(large.suggestedFilename()).toBe("gstr1-2026-01-b2cl.csv");
    await close();
  }, 60_000);
});

const request = (path: string, init?: ShopRequestInit) => requestShop(shop.url, path, init);

const confirmOrder = async (number: string) => {
  const confirmed = await request(`/api/admin/orders/${number}/status`, {
    method: "POST",
    cookie: owner.cookie,
    body: { status: "confirmed" },
  });
  expect(confirmed.status).toBe(200);
};

/** The order's invoice as issued, to compare the downloaded PDF's text with. */
async function invoiceOf(number: string) {
  const [row] = await database.db
    .select({ document: taxDocuments })
    .from(taxDocuments)
    .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
    .where(eq(orders.number, number));
  if (!row) throw new Error(`no invoice for ${number}`);
  return row.document;
}

const inr = (paise: number) =>
  `₹${new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2 }).format(paise / 100)}`;

/** Clicks the page's invoice link and reads the downloaded PDF's text. */
async function downloadInvoice(page: Page, invoiceNumber: string) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: `Download tax invoice ${invoiceNumber}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${invoiceNumber.replaceAll("/", "-")}.pdf`);
  return pdfText(new Uint8Array(await readFile((await download.path()) ?? "")));
}

function expectInvoiceText(text: string, invoice: Awaited<ReturnType<typeof invoiceOf>>) {
  expect(text).toContain("Tax Invoice");
  expect(text).toContain(invoice.number);
  expect(text).toContain(`GSTIN: ${TEST_GSTIN}`);
  expect(text).toContain(`Invoice total ${inr(invoice.totalPaise)}`);
  expect(text).toContain(`Taxable value ${inr(invoice.taxablePaise)}`);
  expect(text).toContain(`IGST ${inr(invoice.igstPaise)}`);
}

describe("a tax invoice downloaded in the browser", () => {
  it("from the customer's order page, with its number, totals and the shop's GSTIN", async () => {
    const meera = await signUpViaHttp(shop.url, "meera@example.in");
    await putInCart(database.db, meera.userId, [
      { itemId: "bath-powder", quantity: 2 },
      { itemId: "coconut-oil" },
    ]);
    const address = await request("/api/addresses", {
      method: "POST",
      cookie: meera.cookie,
      body: TEST_ADDRESS,
    });
    expect(address.status).toBe(201);
    const placed = await request("/api/orders", {
      method: "POST",
      cookie: meera.cookie,
      headers: { "Idempotency-Key": randomUUID() },
      body: { addressId: (address.body.address as { id: string }).id, paymentMethod: "cod" },
    });
    expect(placed.status).toBe(201);
    const { number, totalPaise } = placed.body.order as { number: string; totalPaise: number };
    await confirmOrder(number);
    const invoice = await invoiceOf(number);
    expect(invoice.totalPaise).toBe(totalPaise);

    const context = await newContext(browser, shop, { viewport: "phone" });
    await signInContext(context, shop.url, meera);
    const page = await context.newPage();
    await page.goto(`/orders/${number}`);
    await page.locator("main h1").first().waitFor();
    await shot(page, "order-phone");
    expectInvoiceText(await downloadInvoice(page, invoice.number), invoice);
    await context.close();
  }, 90_000);

  it("from the guest order page, by its signed link", async () => {
    const placed = await request("/api/guest-orders", {
      method: "POST",
      headers: { "Idempotency-Key": randomUUID() },
      body: {
        email: "guest@example.in",
        address: { ...TEST_ADDRESS, phone: "9812300009" },
        items: [{ id: "hair-growth-oil", kind: "product", quantity: 1 }],
        paymentMethod: "cod",
      },
    });
    expect(placed.status).toBe(201);
    const { number } = placed.body.order as { number: string };
    await confirmOrder(number);
    const invoice = await invoiceOf(number);

    const context = await newContext(browser, shop, { viewport: "desktop" });
    const page = await context.newPage();
    await page.goto(`/guest-order/${number}?token=${placed.body.token as string}`);
    await waitForApp(page);
    await shot(page, "guest-order-desktop");
    expectInvoiceText(await downloadInvoice(page, invoice.number), invoice);
    await context.close();
  }, 90_000);
});
