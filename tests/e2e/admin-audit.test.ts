import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import { recordAudit } from "../../server/audit/audit.ts";
import { createDb } from "../../server/db/client.ts";
import { makeAdmin, signInContext, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { jsonRequest } from "../database.ts";
import { expectTitle, type Shop, screenshot } from "../fixtures.ts";
import { contextOn, it, ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView, viewsAt } from "../views.ts";

let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let staff: TestAccount;

const call = (as: TestAccount, method: string, path: string, body?: unknown) =>
  fetch(
    `${shop.url}/api${path}`,
    jsonRequest({ method, body, cookie: as.cookie, headers: { Origin: shop.url } }),
  );

// A shop of its own: the audit log it reads counts every change made on the shop.
ownShopForFile((started) => {
  ({ shop, browser, owner } = started);
});
beforeAll(async () => {
  staff = await signUpViaHttp(shop.url, "packer@example.in");
  const { db, pool } = createDb(shop.databaseUrl ?? "", { max: 1 });
  await makeAdmin({ db, url: shop.url }, staff, "staff");
  await pool.end();

  const stock = (await (await call(staff, "GET", "/admin/stock")).json()) as {
    items: { kind: string; id: string; stock: number }[];
  };
  const item = stock.items.find((entry) => entry.kind === "product");
  if (!item) throw new Error("no product in stock list");
  const edited = await call(staff, "PUT", `/admin/stock/product/${item.id}`, {
    stock: item.stock + 12,
    previousStock: item.stock,
  });
  expect(edited.status).toBe(200);
  const created = await call(owner, "POST", "/admin/discount-codes", {
    code: "DIWALI15",
    description: "Diwali week: 15% off orders over ₹999",
    percent: 15,
    minAmountPaise: 99_900,
  });
  expect(created.status).toBe(201);
  expect((await call(owner, "PATCH", "/admin/discount-codes/DIWALI15", { percent: 12 })).status).toBe(200);
});

async function pageAs(account: TestAccount, viewport: "phone" | "desktop", colorScheme: "light" | "dark") {
  const context = await contextOn(browser, shop, { viewport, colorScheme });
  await signInContext(context, shop.url, account);
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

describe("the owner's audit log", () => {
  it("shows who changed what, before and after, filtered by kind and by staff member", async () => {
    const { page, close } = await pageAs(owner, "phone", "light");
    await page.goto("/admin/audit");
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    await expectTitle(page, "Admin: audit log | Prakriti Naturals");
    const changes = page.getByRole("list", { name: "Changes, newest first" }).getByRole("listitem");
    expect(await changes.count()).toBe(3);
    const update = changes.filter({ hasText: "Discount codes: update" });
    expect(await update.getByText("DIWALI15 by owner@example.in").count()).toBe(1);
    expect(await update.getByRole("deletion").filter({ hasText: "15" }).count()).toBe(1);
    expect(await update.getByRole("insertion").filter({ hasText: "12" }).count()).toBe(1);

    await page.getByLabel("By", { exact: true }).selectOption({ label: "packer@example.in" });
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/actorId=/);
    await changes.first().getByText("Stock: edit").waitFor();
    expect(await changes.count()).toBe(1);
    expect(
      await changes
        .first()
        .getByText(/by packer@example\.in/)
        .count(),
    ).toBe(1);

    await page.getByLabel("What changed").selectOption({ label: "Discount codes" });
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText("No changes match these filters.").waitFor();
    await close();
  });

  it("is hidden from staff, whose nav has no owner's links and who get a clear page at its address", async () => {
    const { page, close } = await pageAs(staff, "phone", "light");
    await page.goto("/admin/stock");
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    // On a phone the sections fold behind one button naming the current one.
    await nav.getByRole("button", { name: "Sections: Stock" }).click();
    await nav.getByRole("link", { name: "Stock" }).waitFor();
    expect(await nav.getByRole("link", { name: "Discount codes" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Products" }).count()).toBe(0);
    for (const path of [
      "/admin/audit",
      "/admin/discount-codes",
      "/admin/products",
      "/admin/products/badam-mix",
    ]) {
      await page.goto(path);
      await page.getByRole("heading", { name: "Only the shop's owner can open this page" }).waitFor();
    }
    await screenshot(page, "admin-audit-staff-refused-375-light");
    await close();
  });

  it("words a product's new pictures for a person and fits 375 px: no raw JSON, no storage keys (issue 30)", async () => {
    // The entries a product edit and a photo upload write (server/products), as they are stored.
    const keys = [randomUUID(), randomUUID()].map((id) => `uploads/${id}`);
    const { db, pool } = createDb(shop.databaseUrl ?? "", { max: 1 });
    const actor = { id: owner.userId, email: owner.email };
    const product = { slug: "face-glow-oil", name: "Face Glow Oil", pricePaise: 49_900 };
    await recordAudit(db, {
      actor,
      entityType: "product",
      entityId: keys[0] ?? "",
      action: "upload_image",
      after: { key: keys[0], bytes: 1_482_113, small: 18_220, large: 64_118 },
    });
    await recordAudit(db, {
      actor,
      entityType: "product",
      entityId: "face-glow-oil",
      action: "update",
      before: { ...product, images: ["catalogue/face-glow-oil-1"], imageAlts: [] },
      after: { ...product, images: ["catalogue/face-glow-oil-1", ...keys], imageAlts: ["", "", ""] },
    });
    await pool.end();
    // One page shown in each theme.
    const { page, close } = await pageAs(owner, "phone", "light");
    await page.goto("/admin/audit?entityType=product");
    await inEachView(page, viewsAt(["phone"]), async (_, scheme) => {
      const changes = page.getByRole("list", { name: "Changes, newest first" }).getByRole("listitem");
      const edit = changes.filter({ hasText: "Products: update" });
      await edit.waitFor();
      expect(await edit.getByRole("deletion").allTextContents()).toEqual(["1 picture", "none"]);
      expect(await edit.getByRole("insertion").allTextContents()).toEqual([
        "3 pictures, 2 new",
        "3 without a description",
      ]);
      const upload = changes.filter({ hasText: "Products: upload image" });
      await upload.getByText("A new picture by owner@example.in").waitFor();
      const text = (await changes.allTextContents()).join(" ");
      expect(text).not.toMatch(/[[\]{}"]|uploads\//);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-audit-product-375-${scheme}`);
    });
    await close();
  });

  it("is looked at on a phone and a wide screen, light and dark", async () => {
    // One page shown at each width and in each theme.
    const { page, close } = await pageAs(owner, "phone", "light");
    await page.goto("/admin/audit");
    await inEachView(page, EVERY_VIEW, async (viewport, scheme) => {
      await page.getByRole("heading", { name: "Audit log" }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${viewport} ${scheme} scrolls sideways`).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-audit-${viewport}-${scheme}`);
    });
    await close();
  });
});
