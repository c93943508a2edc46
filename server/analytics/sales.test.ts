import { beforeAll, describe, expect, it } from "vitest";
import type { SalesAnswer, SalesFigures } from "../../common/analytics.ts";
import { signUpOwnerStaffAndCustomer, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { asUser, insertOrderRow, onlinePaymentEntry, onlineRefundEntry } from "../../tests/orders.ts";
import { type DocumentParty, moneyLedger, orderLines, type orders, taxDocuments } from "../db/schema.ts";
import { periodOf, salesFigures } from "./sales.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let staff: TestAccount;
const api = apiCaller(shop, () => owner);

/** Noon in India on 15 March 2026: "7 days" is 9-15 March, the period before 2-8 March. */
const NOW = new Date("2026-03-15T06:30:00Z");
const ist = (day: string, time = "12:00") => new Date(`${day}T${time}:00+05:30`);

/** A name with a comma and quotes, so the CSV's escaping is seen. */
const COMBO_NAME = 'Hair Care Combo, "Large"';

type Line = { itemId: string; kind?: "product" | "combo"; unitPaise: number; quantity?: number };
let sequence = 0;
const ids = new Map<string, string>();

/** An order row as the shop stores it, with its lines, placed at `at` and standing in `status`. */
async function order(
  name: string,
  o: {
    at: Date;
    status: (typeof orders.$inferInsert)["status"];
    method: "cod" | "razorpay";
    state: string;
    userId?: string;
    guestEmail?: string;
    lines: Line[];
    code?: string;
    discountPaise?: number;
    shippingPaise?: number;
  },
) {
  const subtotal = o.lines.reduce((sum, line) => sum + line.unitPaise * (line.quantity ?? 1), 0);
  const discount = o.discountPaise ?? 0;
  const shipping = o.shippingPaise ?? 0;
  const id = await insertOrderRow(shop.db, {
    number: `PN-TEST-${String(++sequence).padStart(4, "0")}`,
    userId: o.userId ?? null,
    guestEmail: o.guestEmail ?? null,
    status: o.status,
    paymentMethod: o.method,
    subtotalPaise: subtotal,
    discountCode: o.code ?? null,
    discountPaise: discount,
    shippingPaise: shipping,
    totalPaise: subtotal - discount + shipping,
    shipName: name,
    shipState: o.state,
    createdAt: o.at,
    updatedAt: o.at,
  });
  ids.set(name, id);
  await shop.db.insert(orderLines).values(
    o.lines.map((line, position) => ({
      orderId: id,
      position,
      itemId: line.itemId,
      kind: line.kind ?? "product",
      name: line.itemId === "c1" ? COMBO_NAME : line.itemId,
      image: "/images/x.webp",
      unitPricePaise: line.unitPaise,
      quantity: line.quantity ?? 1,
      lineTotalPaise: line.unitPaise * (line.quantity ?? 1),
    })),
  );
  return id;
}

const party: DocumentParty = { name: "Prakriti", lines: ["Bengaluru"], state: "Karnataka", stateCode: "29" };

async function taxDocument(
  kind: "invoice" | "credit_note",
  orderId: string,
  at: Date,
  amounts: { taxable: number; cgst?: number; sgst?: number; igst?: number },
  invoiceId?: string,
) {
  const tax = (amounts.cgst ?? 0) + (amounts.sgst ?? 0) + (amounts.igst ?? 0);
  const [row] = await shop.db
    .insert(taxDocuments)
    .values({
      kind,
      number: `${kind === "invoice" ? "PN" : "CN"}/T/${++sequence}`,
      financialYear: "2025-26",
      sequence,
      orderId,
      invoiceId: invoiceId ?? null,
      issuedAt: at,
      supplier: party,
      buyer: party,
      placeOfSupply: "Karnataka",
      intraState: true,
      taxablePaise: amounts.taxable,
      cgstPaise: amounts.cgst ?? 0,
      sgstPaise: amounts.sgst ?? 0,
      igstPaise: amounts.igst ?? 0,
      totalPaise: amounts.taxable + tax,
    })
    .returning({ id: taxDocuments.id });
  return row?.id as string;
}

beforeAll(async () => {
  let customer: TestAccount;
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "sales"));
  const [u2, u3, u4] = await Promise.all(
    ["u2", "u3", "u4"].map((name) => signUpViaApp(shop.app, `${name}@example.in`)),
  );
  const u1 = customer;
  const coconut = (quantity = 1): Line => ({ itemId: "coconut-oil", unitPaise: 30_000, quantity });

  // Before both periods: u1 bought in February.
  await order("J", {
    at: ist("2026-02-01"),
    status: "delivered",
    method: "cod",
    state: "Karnataka",
    userId: u1.userId,
    lines: [coconut()],
  });
  // The period before (2-8 March): u1 again, and u4 ten minutes before midnight on the 8th.
  await order("I", {
    at: ist("2026-03-05"),
    status: "delivered",
    method: "razorpay",
    state: "Karnataka",
    userId: u1.userId,
    lines: [{ itemId: "face-glow-oil", unitPaise: 100_000 }],
  });
  await order("H", {
    at: ist("2026-03-08", "23:50"),
    status: "delivered",
    method: "cod",
    state: "Tamil Nadu",
    userId: u4?.userId,
    lines: [{ itemId: "coconut-oil", unitPaise: 20_000 }],
  });
  // The period (9-15 March).
  await order("G", {
    at: ist("2026-03-09", "00:10"),
    status: "placed",
    method: "cod",
    state: "Tamil Nadu",
    userId: u4?.userId,
    lines: [coconut()],
  });
  const b = await order("B", {
    at: ist("2026-03-10"),
    status: "delivered",
    method: "razorpay",
    state: "Maharashtra",
    userId: u2?.userId,
    lines: [
      { itemId: "face-glow-oil", unitPaise: 50_000 },
      { itemId: "c1", kind: "combo", unitPaise: 100_000 },
    ],
    code: "WELCOME10",
    discountPaise: 15_000,
  });
  await order("E", {
    at: ist("2026-03-11"),
    status: "cancelled",
    method: "cod",
    state: "Kerala",
    userId: u3?.userId,
    lines: [{ itemId: "face-glow-oil", unitPaise: 50_000 }],
  });
  await order("C", {
    at: ist("2026-03-12"),
    status: "shipped",
    method: "cod",
    state: "Karnataka",
    guestEmail: "guest@example.in",
    lines: [coconut()],
    shippingPaise: 4_900,
  });
  await order("D", {
    at: ist("2026-03-13"),
    status: "confirmed",
    method: "razorpay",
    state: "Maharashtra",
    userId: u2?.userId,
    lines: [coconut()],
  });
  const f = await order("F", {
    at: ist("2026-03-01"),
    status: "refunded",
    method: "razorpay",
    state: "Kerala",
    userId: u3?.userId,
    lines: [{ itemId: "face-glow-oil", unitPaise: 40_000 }],
  });
  await order("A", {
    at: ist("2026-03-15", "10:00"),
    status: "placed",
    method: "cod",
    state: "Karnataka",
    userId: u1.userId,
    lines: [coconut(2)],
  });

  // Cash collected for K on 25 February and refunded by hand on 13 March: a refund by hand in the period.
  const k = await order("K", {
    at: ist("2026-02-20"),
    status: "refunded",
    method: "cod",
    state: "Karnataka",
    userId: u3?.userId,
    lines: [coconut()],
  });
  const e = ids.get("E") as string;
  const i = ids.get("I") as string;
  // One statement, so the ledger's check (at commit) sees each order's payments with their refunds.
  await shop.db.insert(moneyLedger).values([
    // B paid 1,450 and an edit lowered it to 1,350 on the 11th: 100 refunded online in the period.
    onlinePaymentEntry(b, "pay_B", 145_000, ist("2026-03-10")),
    onlineRefundEntry(b, "pay_B", 10_000, ist("2026-03-11")),
    // F paid on 1 March and refunded whole on the 14th: 400 refunded online in the period.
    onlinePaymentEntry(f, "pay_F", 40_000, ist("2026-03-01")),
    onlineRefundEntry(f, "pay_F", 40_000, ist("2026-03-14")),
    // I paid 1,050, lowered to 1,000 on the 6th: a refund in the period before, not in this one.
    onlinePaymentEntry(i, "pay_I", 105_000, ist("2026-03-05")),
    onlineRefundEntry(i, "pay_I", 5_000, ist("2026-03-06")),
    // A payment for the cancelled cash order E arrived too late and went back whole: never a sale.
    onlinePaymentEntry(e, "pay_E_late", 50_000, ist("2026-03-11"), false),
    onlineRefundEntry(e, "pay_E_late", 50_000, ist("2026-03-12"), false),
    { orderId: k, kind: "cash_collected", amountPaise: 30_000, createdAt: ist("2026-02-25") },
    {
      orderId: k,
      kind: "cash_refund",
      amountPaise: 30_000,
      reference: "UPI 123",
      createdAt: ist("2026-03-13"),
    },
  ]);
  await taxDocument("invoice", b, ist("2026-03-10"), { taxable: 114_407, igst: 20_593 });
  const invoiceF = await taxDocument("invoice", f, ist("2026-03-02"), {
    taxable: 33_898,
    cgst: 3_051,
    sgst: 3_051,
  });
  await taxDocument(
    "credit_note",
    f,
    ist("2026-03-14"),
    { taxable: 33_898, cgst: 3_051, sgst: 3_051 },
    invoiceF,
  );
}, 120_000);

describe("sales at a glance", () => {
  let figures: SalesFigures;
  beforeAll(async () => {
    figures = await salesFigures(shop.db, { period: "7d" }, NOW);
  });

  it("sums the sale orders of the period against the period before, by India's days", () => {
    expect(figures.period).toEqual({ key: "7d", from: "2026-03-09", to: "2026-03-15", days: 7 });
    expect(figures.previous).toEqual({ from: "2026-03-02", to: "2026-03-08" });
    // A 60,000 + B 135,000 + C 34,900 + D 30,000 + G 30,000; E cancelled and F refunded are no sales.
    expect(figures.totals).toEqual({ orders: 5, salesPaise: 289_900, averagePaise: 57_980 });
    expect(figures.previousTotals).toEqual({ orders: 2, salesPaise: 120_000, averagePaise: 60_000 });
  });

  it("has every day of the period, empty days too", () => {
    expect(figures.byDay).toEqual([
      { date: "2026-03-09", orders: 1, salesPaise: 30_000 },
      { date: "2026-03-10", orders: 1, salesPaise: 135_000 },
      { date: "2026-03-11", orders: 0, salesPaise: 0 },
      { date: "2026-03-12", orders: 1, salesPaise: 34_900 },
      { date: "2026-03-13", orders: 1, salesPaise: 30_000 },
      { date: "2026-03-14", orders: 0, salesPaise: 0 },
      { date: "2026-03-15", orders: 1, salesPaise: 60_000 },
    ]);
  });

  it("ranks products and combos by revenue, with their units", () => {
    expect(figures.items).toEqual([
      { itemId: "coconut-oil", kind: "product", name: "coconut-oil", units: 5, revenuePaise: 150_000 },
      { itemId: "c1", kind: "combo", name: COMBO_NAME, units: 1, revenuePaise: 100_000 },
      { itemId: "face-glow-oil", kind: "product", name: "face-glow-oil", units: 1, revenuePaise: 50_000 },
    ]);
  });

  it("splits the sales by state and by way of payment", () => {
    expect(figures.states).toEqual([
      { state: "Maharashtra", orders: 2, salesPaise: 165_000 },
      { state: "Karnataka", orders: 2, salesPaise: 94_900 },
      { state: "Tamil Nadu", orders: 1, salesPaise: 30_000 },
    ]);
    expect(figures.payments).toEqual([
      { method: "cod", orders: 3, salesPaise: 124_900 },
      { method: "razorpay", orders: 2, salesPaise: 165_000 },
    ]);
  });

  it("tells new from returning customers and counts the repeat rate", () => {
    // u1 (bought in February) and u4 (on the 8th) return; u2 is new but bought twice; the guest is new.
    expect(figures.customers).toEqual({ customers: 4, newCustomers: 2, returning: 2, repeatRatePercent: 75 });
  });

  it("counts codes with what they cost, refunds, credit notes and the taxable value net of GST", () => {
    expect(figures.codes).toEqual([
      { code: "WELCOME10", orders: 1, discountPaise: 15_000, salesPaise: 135_000 },
    ]);
    // From the ledger: B's 100 and F's 400 online, K's 300 by hand; E's late payment apart; I's was before.
    expect(figures.refunds).toEqual({
      orders: 3,
      amountPaise: 80_000,
      online: { orders: 2, amountPaise: 50_000 },
      byHand: { orders: 1, amountPaise: 30_000 },
      latePayments: { orders: 1, amountPaise: 50_000 },
    });
    expect(figures.creditNotes).toEqual({ count: 1, totalPaise: 40_000 });
    expect(figures.taxable).toEqual({ invoicedPaise: 114_407, creditedPaise: 33_898, netPaise: 80_509 });
  });

  it("takes today, 30 days and a chosen range, each against as many days before", () => {
    expect(periodOf({ period: "today" }, NOW)).toMatchObject({
      period: { from: "2026-03-15", to: "2026-03-15", days: 1 },
      previous: { from: "2026-03-14", to: "2026-03-14" },
    });
    expect(periodOf({ period: "30d" }, NOW).previous).toEqual({ from: "2026-01-15", to: "2026-02-13" });
    expect(periodOf({ period: "range", from: "2026-03-01", to: "2026-03-31" }, NOW)).toMatchObject({
      period: { days: 31 },
      previous: { from: "2026-01-29", to: "2026-02-28" },
    });
  });
});

describe("/api/admin/analytics/sales", () => {
  const range = "period=range&from=2026-03-09&to=2026-03-15";

  it("answers the owner the same figures for a chosen range", async () => {
    const { status, body } = await api("GET", `/admin/analytics/sales?${range}`);
    expect(status).toBe(200);
    expect(body.visible).toBe(true);
    expect(body.canShare).toBe(true);
    expect(body.figures.totals).toEqual({ orders: 5, salesPaise: 289_900, averagePaise: 57_980 });
  });

  it("refuses a range the wrong way round or longer than a year, naming the field", async () => {
    const backwards = await api("GET", "/admin/analytics/sales?period=range&from=2026-03-15&to=2026-03-01");
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.code).toBe("invalid_request");
    const long = await api("GET", "/admin/analytics/sales?period=range&from=2024-01-01&to=2026-03-01");
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/to/);
    expect((await api("GET", "/admin/analytics/sales?period=range")).status).toBe(400);
    expect((await api("GET", "/admin/analytics/sales?period=7d&total=1")).status).toBe(400);
  });

  it("exports each table as CSV, rupees with two decimals", async () => {
    const response = await shop.app.request(
      `/api/admin/analytics/sales/states.csv?${range}`,
      asUser(owner.cookie),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toContain(
      "sales-states-2026-03-09-to-2026-03-15.csv",
    );
    const text = (await response.text()).replace(/^\uFEFF/, "");
    expect(text.trim().split("\r\n")).toEqual([
      'State,Orders,"Sales (₹, GST included)"',
      "Maharashtra,2,1650.00",
      "Karnataka,2,949.00",
      "Tamil Nadu,1,300.00",
    ]);
    const codes = await shop.app.request(
      `/api/admin/analytics/sales/codes.csv?${range}`,
      asUser(owner.cookie),
    );
    expect(await codes.text()).toContain("WELCOME10,1,150.00,1350.00");
    const items = await shop.app.request(
      `/api/admin/analytics/sales/items.csv?${range}`,
      asUser(owner.cookie),
    );
    expect((await items.text()).split("\r\n")).toContain('"Hair Care Combo, ""Large""",combo,1,1000.00');
    const refunds = await shop.app.request(
      `/api/admin/analytics/sales/refunds.csv?${range}`,
      asUser(owner.cookie),
    );
    expect(
      (await refunds.text())
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n"),
    ).toEqual([
      'Money back,Count,"Amount (₹, GST included)"',
      "Refunded online,2,500.00",
      "Refunded by hand (cash orders),1,300.00",
      "All refunds of sales,3,800.00",
      "Credit notes issued,1,400.00",
      "Late payments returned whole (not sales),1,500.00",
    ]);
    expect((await api("GET", "/admin/analytics/sales/secrets.csv")).status).toBe(400);
  });

  it("shows staff nothing until the owner shares the figures, and only the owner shares them", async () => {
    const hidden = await api("GET", "/admin/analytics/sales", undefined, staff);
    expect(hidden).toEqual({ status: 200, body: { visible: false } satisfies SalesAnswer });
    const csv = await shop.app.request("/api/admin/analytics/sales/days.csv", asUser(staff.cookie));
    expect(csv.status).toBe(403);
    const refused = await api("PUT", "/admin/analytics/settings", { staffSeeSales: true }, staff);
    expect(refused.status).toBe(403);

    const shared = await api("PUT", "/admin/analytics/settings", { staffSeeSales: true });
    expect(shared).toEqual({ status: 200, body: { staffSeeSales: true } });
    const seen = await api("GET", `/admin/analytics/sales?${range}`, undefined, staff);
    expect(seen.body).toMatchObject({ visible: true, staffSeeSales: true, canShare: false });
    expect(seen.body.figures.totals.salesPaise).toBe(289_900);

    await api("PUT", "/admin/analytics/settings", { staffSeeSales: false });
    expect((await api("GET", "/admin/analytics/sales", undefined, staff)).body).toEqual({ visible: false });
    expect(
      (await api("PUT", "/admin/analytics/settings", { staffSeeSales: true, role: "owner" })).status,
    ).toBe(400);
  });
});
