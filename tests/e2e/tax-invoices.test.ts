import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gstinCheckCharacter } from "../../common/gstin.ts";
import { createDb } from "../../server/db/client.ts";
import { products, shopDetails } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { launchBrowser, newContext, type Shop, startShop } from "../fixtures.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;
const GSTIN = `33AABCP1234Q1Z${gstinCheckCharacter("33AABCP1234Q1Z")}`;

beforeAll(async () => {
  [shop, browser] = await Promise.all([
    startShop({ env: { ADMIN_EMAILS: "owner@example.in" } }),
    launchBrowser(),
  ]);
  owner = await signUpViaHttp(shop.url, "owner@example.in");
  const { db, pool } = createDb(shop.databaseUrl ?? "", { max: 1 });
  try {
    await db
      .update(shopDetails)
      .set({
        legalName: "Prakriti Naturals Private Limited",
        addressLine1: "14, Kamaraj Salai",
        addressLine2: "T. Nagar",
        city: "Chennai",
        pin: "600017",
        state: "Tamil Nadu",
        gstin: GSTIN,
      })
      .where(eq(shopDetails.id, 1));
  } finally {
    await pool.end();
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

/** Looked at by a person after the run: /tmp/tax-<name>.png. */
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/tax-${name}.png`, fullPage: true });

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function ownerPage(path: string, viewport: "phone" | "desktop", colorScheme: "light" | "dark") {
  const context = await newContext(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, owner);
  const page = await context.newPage();
  await page.goto(path);
  await page.locator("main h1").first().waitFor();
  return { page, context, close: () => context.close() };
}

async function hsnOf(slug: string) {
  const { db, pool } = createDb(shop.databaseUrl ?? "", { max: 1 });
  try {
    const [row] = await db
      .select({ hsnCode: products.hsnCode, gstRateBp: products.gstRateBp })
      .from(products)
      .where(eq(products.slug, slug));
    return row;
  } finally {
    await pool.end();
  }
}

describe("the owner's tax page", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    for (const scheme of ["light", "dark"] as const) {
      it(`fits the screen and sets its title (${viewport}, ${scheme})`, async () => {
        const { page, close } = await ownerPage("/admin/tax", viewport, scheme);
        await page.getByRole("list", { name: "Products' HSN codes and rates" }).waitFor();
        await page
          .getByRole("navigation", { name: "Admin sections" })
          .getByRole("link", { name: "Tax" })
          .waitFor();
        expect(await page.title()).toMatch(/^Admin: tax \| /);
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await shot(page, `page-${viewport}-${scheme}`);
        await close();
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
    await close();
  }, 60_000);
});
