import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import { indianDate } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import { fillBigShop } from "../../scripts/big-shop.ts";
import { signUpViaHttp, type TestAccount } from "../accounts.ts";
import { type Shop, type ShopDatabase, screenshotLightAndDark, shoot } from "../fixtures.ts";
import { it, ownShopForFile, signedInPageOn } from "../shop-test.ts";

/**
 * The admin home tells the owner the business (issue 41 point 8, issue 44): today's work with counts that
 * match the shop's rows and open their lists, and "Sales at a glance" with the same sums PostgreSQL gives, its
 * periods, its figures behind "Show figures" and its CSV, shown to staff only once the owner shares it.
 */
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let staff: TestAccount;
let database: ShopDatabase;

// A shop of its own: it adds 1,500 orders, and its counts and sums are the whole shop's.
ownShopForFile((started) => {
  ({ shop, owner, database } = started);
});
it.beforeAll(({ browser: workerBrowser }) => {
  browser = workerBrowser;
});

beforeAll(async () => {
  await fillBigShop(database.db, { orders: 1_500 });
  staff = await signUpViaHttp(shop.url, "helper@example.in");
  await database.db.execute(sql`update users set role = 'staff' where email = 'helper@example.in'`);
}, 120_000);

const one = async (query: ReturnType<typeof sql>) =>
  Number((await database.db.execute<{ n: string | number }>(query)).rows[0]?.n ?? 0);

/** The card of one kind of work, by its title, and the number it shows. */
const workCount = async (page: Page, key: string) =>
  Number((await page.locator(`[data-work="${key}"] span`).nth(1).innerText()).replace(/\D/g, ""));

describe("the admin home", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    it(`counts today's work as the rows stand and opens each list (${viewport})`, async () => {
      const { page, close } = await signedInPageOn(browser, shop, owner, "/admin", { viewport });
      const work = page.getByRole("region", { name: "Work to do" });
      await work.waitFor();
      expect(await workCount(page, "toPack")).toBe(
        await one(sql`select count(*) as n from orders where status = 'confirmed'`),
      );
      expect(await workCount(page, "toConfirm")).toBe(
        await one(
          sql`select count(*) as n from orders where status = 'placed' and cod_confirm_by is not null`,
        ),
      );
      expect(await workCount(page, "questions")).toBe(
        await one(sql`select count(*) as n from questions where answer is null and not hidden`),
      );
      expect(await workCount(page, "reviews")).toBe(
        await one(sql`select count(*) as n from reviews where status = 'pending'`),
      );
      expect(await workCount(page, "messages")).toBe(
        await one(sql`select count(*) as n from contact_messages where read_at is null`),
      );
      const expected = await one(sql`select count(*) as n from orders o where payment_method = 'cod'
        and delivered_at is not null and not exists (select 1 from cod_remittances r where r.order_id = o.id)`);
      expect(await workCount(page, "cashExpected")).toBe(expected);

      // Sales at a glance: the last 7 days by default, its net sales as PostgreSQL sums them.
      const sales = page.getByRole("region", { name: "Sales at a glance" });
      await sales.waitFor();
      const from = indianDate(new Date(Date.now() - 6 * 24 * 3600 * 1000));
      const net = await one(sql`select coalesce(sum(total_paise), 0) as n from orders
        where order_is_sale(status) and (created_at at time zone 'Asia/Kolkata')::date >= ${from}::date`);
      await sales.getByText(formatRupees(net), { exact: true }).first().waitFor();
      const byDay = page.getByRole("region", { name: "Sales by day" });
      expect(await byDay.getByRole("img", { name: /^Sales per day/ }).getAttribute("aria-label")).toContain(
        formatRupees(net),
      );
      await byDay.getByText("Show figures").click();
      expect(await byDay.getByRole("table").locator("tbody tr").count()).toBe(7);

      // Each chart's figures behind its toggle are PostgreSQL's: the top state and the cash-on-delivery row.
      const since = sql`order_is_sale(status) and (created_at at time zone 'Asia/Kolkata')::date >= ${from}::date`;
      const states = page.getByRole("region", { name: "Sales by state" });
      await states.getByText("Show figures").click();
      const top = (
        await database.db.execute<{ state: string; orders: number; sales: string }>(sql`
          select ship_state as state, count(*)::int as orders, sum(total_paise) as sales from orders
          where ${since} group by ship_state order by sum(total_paise) desc, ship_state limit 1`)
      ).rows[0];
      const firstState = states.getByRole("table").locator("tbody tr").first();
      expect(await firstState.locator("th, td").allInnerTexts()).toEqual([
        top?.state,
        String(top?.orders),
        formatRupees(Number(top?.sales)),
      ]);
      const payments = page.getByRole("region", { name: "Cash on delivery and prepaid" });
      await payments.getByText("Show figures").click();
      const cod = await one(sql`select count(*) as n from orders where ${since} and payment_method = 'cod'`);
      const all = await one(sql`select count(*) as n from orders where ${since}`);
      await payments
        .getByRole("row", {
          name: new RegExp(
            `^Cash on delivery ${cod.toLocaleString("en-IN")} ${Math.round((cod * 100) / all)} %`,
          ),
        })
        .waitFor();
      await page.getByRole("region", { name: "Top products and combos" }).getByText("Show figures").click();
      // Refunds as the money ledger records them, on the day the money went back.
      const refunded = await one(sql`select coalesce(sum(amount_paise), 0) as n from money_ledger
        where (kind = 'cash_refund' or (kind = 'online_refund' and applied))
          and (created_at at time zone 'Asia/Kolkata')::date >= ${from}::date`);
      const back = page.getByRole("region", { name: "Refunds, credit notes and GST" });
      expect(
        await back
          .getByRole("row", { name: /^All refunds of sales/ })
          .locator("td")
          .last()
          .innerText(),
      ).toBe(formatRupees(refunded));
      await screenshotLightAndDark(page, `admin-home-${viewport}`);
      // "After the order" with a big shop's week (its figures are checked in admin-after-order.test.ts).
      const after = page.getByRole("region", { name: "After the order" });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await shoot(after, {
          path: `test-results/screenshots/admin-home-after-order-${viewport}-${scheme}.png`,
        });
      }
      await page.emulateMedia({ colorScheme: "light" });

      await sales.getByRole("link", { name: "30 days" }).click();
      await page.waitForURL(/period=30d/);
      // The figures stay open across the change of period, now a row per day of the 30.
      await expect.poll(() => byDay.getByRole("table").locator("tbody tr").count()).toBe(30);

      await page.getByRole("link", { name: /^To pack/ }).click();
      await page.waitForURL(/\/admin\/orders\?status=confirmed$/);
      await close();
    }, 120_000);
  }

  it("takes a chosen range and downloads each table as CSV", async () => {
    const { page, close } = await signedInPageOn(browser, shop, owner, "/admin", { viewport: "desktop" });
    const sales = page.getByRole("region", { name: "Sales at a glance" });
    const today = indianDate(new Date());
    const monthAgo = indianDate(new Date(Date.now() - 60 * 24 * 3600 * 1000));
    await sales.getByLabel("From", { exact: true }).fill(monthAgo);
    await sales.getByLabel("To", { exact: true }).fill(today);
    await sales.getByRole("button", { name: "Show range" }).click();
    await page.waitForURL(/period=range/);
    const states = page.getByRole("region", { name: "Sales by state" });
    const link = states.getByRole("link", { name: "Download CSV" });
    const href = `/api/admin/analytics/sales/states.csv?period=range&from=${monthAgo}&to=${today}`;
    await expect.poll(() => link.getAttribute("href")).toBe(href);
    const csv = await page.request.get(href);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe('State,Orders,"Sales (₹, GST included)"');
    const top = await database.db.execute<{ state: string; orders: number }>(sql`
      select ship_state as state, count(*)::int as orders from orders
      where order_is_sale(status) and (created_at at time zone 'Asia/Kolkata')::date between ${monthAgo}::date and ${today}::date
      group by ship_state order by sum(total_paise) desc, ship_state limit 1`);
    expect(lines[1]).toMatch(new RegExp(`^${top.rows[0]?.state},${top.rows[0]?.orders},\\d+\\.\\d{2}$`));
    await close();
  }, 60_000);

  it("shows staff the work, and the sales only once the owner shares them", async () => {
    const asStaff = await signedInPageOn(browser, shop, staff, "/admin", { viewport: "phone" });
    await asStaff.page.getByRole("region", { name: "Work to do" }).waitFor();
    expect(await asStaff.page.getByRole("region", { name: "Sales at a glance" }).count()).toBe(0);

    const asOwner = await signedInPageOn(browser, shop, owner, "/admin", { viewport: "phone" });
    await asOwner.page.getByLabel("Staff see these sales figures too").check();
    await asOwner.page.getByRole("status").filter({ hasText: "Staff now see these figures." }).waitFor();
    await asOwner.close();

    await asStaff.page.reload();
    await asStaff.page.getByRole("region", { name: "Sales at a glance" }).waitFor();
    expect(await asStaff.page.getByLabel("Staff see these sales figures too").count()).toBe(0);
    await asStaff.close();
  }, 60_000);
});
