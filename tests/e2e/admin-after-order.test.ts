import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Browser, Locator } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import type { AfterTheOrder } from "../../common/analytics.ts";
import { formatRupees } from "../../common/money.ts";
import { codRemittances, orderEvents, orderRto, orders } from "../../server/db/schema.ts";
import { signUpViaHttp, type TestAccount } from "../accounts.ts";
import { shootRegionLightAndDark } from "../color-scheme.ts";
import type { Shop, ShopDatabase } from "../fixtures.ts";
import { it, signedInPageOn, uniqueEmail } from "../shop-test.ts";

/**
 * "After the order" on the admin home (issue 44, docs/decisions/080): for the period the owner picked, the
 * parcels that came back and their cost, how COD confirmations ended and the cash of delivered COD orders, as
 * the API computes them; nothing of it for staff the owner has not shared the sales with.
 *
 * The orders are written straight to the database, in a week of January 2025 nothing else in the shop touches,
 * so every figure of that week is this file's and can be worked out by hand.
 */
let shop: Shop;
let browser: Browser;
let owner: TestAccount;
let staff: TestAccount;
let database: ShopDatabase;

// The worker's shop: every figure checked is of that week, which no other file writes to.
it.beforeAll(({ shop: workerShop, browser: workerBrowser, owner: workerOwner, database: workerDatabase }) => {
  shop = workerShop;
  browser = workerBrowser;
  owner = workerOwner;
  database = workerDatabase;
});

const WEEK = "period=range&from=2025-01-06&to=2025-01-12";
const EMPTY = "period=range&from=2024-01-01&to=2024-01-07";
const ist = (day: string) => new Date(`${day}T12:00:00+05:30`);
let sequence = 0;

async function order(o: {
  status: (typeof orders.$inferInsert)["status"];
  state?: string;
  pin?: string;
  shipped?: string;
  delivered?: string;
  asked?: boolean;
  /** When the shopper must confirm by, for an order still waiting: ahead, so the shop's sweep does not lapse it. */
  confirmBy?: Date;
  totalPaise?: number;
}) {
  const id = randomUUID();
  const total = o.totalPaise ?? 50_000;
  await database.db.insert(orders).values({
    id,
    number: `PN-E2E-AFTER-${++sequence}`,
    status: o.status,
    paymentMethod: "cod",
    subtotalPaise: total,
    shippingPaise: 0,
    totalPaise: total,
    shipName: "Test",
    shipPhone: "9876543210",
    shipLine1: "1 Main Road",
    shipCity: "Somewhere",
    shipState: o.state ?? "Karnataka",
    shipPin: o.pin ?? "560038",
    estimatedDeliveryFrom: "2025-01-14",
    estimatedDeliveryTo: "2025-01-16",
    codConfirmBy: o.confirmBy ?? (o.asked ? ist("2025-01-08") : null),
    shippedAt: o.shipped ? ist(o.shipped) : null,
    deliveredAt: o.delivered ? ist(o.delivered) : null,
    createdAt: ist("2025-01-07"),
  });
  return id;
}

const rto = (orderId: string, forwardPaise: number, returnPaise: number) =>
  database.db
    .insert(orderRto)
    .values({ orderId, source: "tracking", forwardPaise, returnPaise, recordedAt: ist("2025-01-12") });

const moved = (orderId: string, to: "confirmed" | "cancelled", actor: "customer" | "system" | "admin") =>
  database.db
    .insert(orderEvents)
    .values({ orderId, fromStatus: "placed", toStatus: to, actor, createdAt: ist("2025-01-07") });

beforeAll(async () => {
  staff = await signUpViaHttp(shop.url, uniqueEmail("after-helper"));
  await database.db.execute(sql`update users set role = 'staff' where email = ${staff.email}`);
  // Shipped in the week: three to Karnataka (560…, one back), one to Bihar (800…, back).
  await order({ status: "delivered", shipped: "2025-01-07", delivered: "2025-01-09", totalPaise: 40_000 });
  await order({ status: "delivered", shipped: "2025-01-07", delivered: "2025-01-10", totalPaise: 25_050 });
  await rto(await order({ status: "returned_to_origin", shipped: "2025-01-08" }), 6_000, 5_000);
  await rto(
    await order({ status: "returned_to_origin", state: "Bihar", pin: "800001", shipped: "2025-01-08" }),
    7_000,
    7_500,
  );
  // Asked to confirm: confirmed, refused, no answer, cancelled by staff, still waiting.
  await moved(await order({ status: "confirmed", asked: true }), "confirmed", "customer");
  await moved(await order({ status: "cancelled", asked: true }), "cancelled", "customer");
  await moved(await order({ status: "cancelled", asked: true }), "cancelled", "system");
  await moved(await order({ status: "cancelled", asked: true }), "cancelled", "admin");
  // Its time to answer is ahead: the shared shop lapses every unanswered order whose time has passed.
  await order({ status: "placed", asked: true, confirmBy: new Date(Date.now() + 24 * 3_600_000) });
}, 60_000);

/** The figure shown against a label (a `dt`) in one of the panel's lists of figures. */
const figure = (panel: Locator, label: string) =>
  panel.locator(`xpath=.//dt[normalize-space()="${label}"]/following-sibling::dd[1]`);

async function collectCash(orderNumber: string, amountPaise: number) {
  const row = (
    await database.db.execute<{ id: string }>(sql`select id from orders where number = ${orderNumber}`)
  ).rows[0];
  await database.db.insert(codRemittances).values({
    orderId: String(row?.id),
    amountPaise,
    collectedOn: "2025-01-11",
    reference: "UTR-AFTER-1",
    source: "import",
  });
}

describe("after the order on the admin home", () => {
  beforeAll(async () => {
    // One of the two delivered COD orders is recorded collected: ₹400 of ₹650.50 expected.
    await collectCash("PN-E2E-AFTER-1", 40_000);
  });

  for (const viewport of ["phone", "desktop"] as const) {
    it(`shows the week's returns, confirmations and cash as the API computes them (${viewport})`, async () => {
      const { page, close } = await signedInPageOn(browser, shop, owner, `/admin?${WEEK}`, { viewport });
      const api = (await (
        await page.request.get(`/api/admin/analytics/after-order?${WEEK}`)
      ).json()) as AfterTheOrder;
      const panel = page.getByRole("region", { name: "After the order" });
      await panel.waitFor();

      // Worked out by hand: 4 parcels shipped, 2 back (500 per 1,000), ₹110 + ₹145 both ways.
      expect(api.rto).toMatchObject({ shipped: 4, returned: 2, ratePerMille: 500, costPaise: 25_500 });
      const back = panel.getByRole("region", { name: "Parcels that came back" });
      expect(await figure(back, "Parcels shipped").innerText()).toBe(String(api.rto.shipped));
      expect(await figure(back, "Came back").innerText()).toBe(String(api.rto.returned));
      await back.getByText("500 per 1,000 shipped").waitFor();
      expect(await figure(back, "Cost of parcels that came back (both ways)").innerText()).toBe(
        formatRupees(api.rto.costPaise),
      );
      expect(formatRupees(api.rto.costPaise)).toBe("₹255");
      const states = back.getByRole("table", { name: /by delivery state/ });
      expect(await states.locator("tbody tr").first().locator("th, td").allInnerTexts()).toEqual([
        "Bihar",
        "1",
        "1",
        "1,000",
        formatRupees(14_500),
      ]);
      expect(await states.locator("tbody tr").count()).toBe(api.rto.byState.length);
      const pins = back.getByRole("table", { name: /first three digits of the PIN code/ });
      expect(await pins.locator("tbody tr").nth(1).locator("th, td").allInnerTexts()).toEqual([
        "560",
        "3",
        "1",
        "333",
        formatRupees(11_000),
      ]);

      // The PIN table's CSV: the same rows, for the same week.
      const href = `/api/admin/analytics/after-order/pins.csv?${WEEK}`;
      expect(await back.getByRole("link", { name: "Download CSV" }).last().getAttribute("href")).toBe(href);
      const csv = await page.request.get(href);
      expect(csv.status()).toBe(200);
      expect(
        (await csv.text())
          .replace(/^\uFEFF/, "")
          .trim()
          .split("\r\n"),
      ).toEqual([
        'PIN starts,Shipped,Came back,Per 1000,"Cost (₹, both ways)"',
        "800,1,1,1000,145.00",
        "560,3,1,333,110.00",
      ]);

      const confirm = panel.getByRole("region", { name: "COD orders asked to confirm" });
      expect(api.confirmations).toEqual({
        confirmed: 1,
        refused: 1,
        lapsed: 1,
        cancelledByStaff: 1,
        waiting: 1,
      });
      expect(await confirm.locator("figcaption").textContent()).toBe(
        "COD orders asked to confirm: confirmed 1, refused 1, no answer 1, cancelled by staff 1, still waiting 1.",
      );
      await confirm.getByText("Show figures").click();
      for (const [label, value] of [
        ["Confirmed", api.confirmations.confirmed],
        ["Refused", api.confirmations.refused],
        ["No answer", api.confirmations.lapsed],
        ["Cancelled by staff", api.confirmations.cancelledByStaff],
        ["Still waiting", api.confirmations.waiting],
      ] as const) {
        await confirm.getByRole("row", { name: `${label} ${value}`, exact: true }).waitFor();
      }

      const cash = panel.getByRole("region", { name: "Cash from delivered COD orders" });
      expect(api.cash).toEqual({
        deliveredOrders: 2,
        expectedPaise: 65_050,
        collectedOrders: 1,
        collectedPaise: 40_000,
      });
      await cash.getByText("Cash expected from 2 delivered COD orders").waitFor();
      expect(await figure(cash, "Cash expected from 2 delivered COD orders").innerText()).toBe("₹650.50");
      expect(await figure(cash, "Cash recorded collected (1 order)").innerText()).toBe("₹400");
      expect(await figure(cash, "Not yet recorded collected").innerText()).toBe(
        formatRupees(65_050 - 40_000),
      );

      await shootRegionLightAndDark(page, "After the order", `admin-after-order-${viewport}`);
      await close();
    }, 120_000);
  }

  it("says so plainly when nothing happened in the period", async () => {
    const { page, close } = await signedInPageOn(browser, shop, owner, `/admin?${EMPTY}`, {
      viewport: "phone",
    });
    const panel = page.getByRole("region", { name: "After the order" });
    await panel.getByText("No parcel was shipped in this period.").waitFor();
    await panel.getByText("No cash-on-delivery order placed in this period was asked to confirm.").waitFor();
    await panel.getByText("No cash-on-delivery order was delivered in this period.").waitFor();
    await close();
  }, 60_000);

  it("shows staff nothing of it until the owner shares the sales", async () => {
    const asStaff = await signedInPageOn(browser, shop, staff, `/admin?${WEEK}`, { viewport: "phone" });
    await asStaff.page.getByRole("region", { name: "Work to do" }).waitFor();
    expect(await asStaff.page.getByRole("region", { name: "After the order" }).count()).toBe(0);
    expect(await asStaff.page.getByText("Parcels that came back").count()).toBe(0);
    expect(
      (await asStaff.page.request.get(`/api/admin/analytics/after-order/states.csv?${WEEK}`)).status(),
    ).toBe(403);
    await asStaff.close();
  }, 60_000);
});
