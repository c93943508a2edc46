import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { CodSummary, RemittanceImportResult } from "../../common/cod.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import {
  asUser,
  type Customer,
  placeCodOrder,
  signUpWithAddress,
  standAsPaidOnline,
} from "../../tests/orders.ts";
import { auditLog, codRemittances, orders, shipments } from "../db/schema.ts";

const shop = setUpTestApp();
let admin: TestAccount;
let meera: Customer;

const asAdmin = (init?: Parameters<typeof asUser>[1]) => asUser(admin.cookie, init);

const placeCod = () => placeCodOrder(shop, meera, [{ itemId: "coconut-oil" }]);

async function move(number: string, body: Record<string, unknown>) {
  const response = await shop.app.request(
    `/api/admin/orders/${number}/status`,
    asAdmin({ method: "POST", body }),
  );
  expect(response.status).toBe(200);
}

/** A COD order taken to delivered, optionally with a parcel booked under an AWB. */
async function deliveredCod(awb?: string) {
  const order = await placeCod();
  await move(order.number, { status: "confirmed" });
  await move(order.number, { status: "packed" });
  await move(order.number, {
    status: "shipped",
    courier: "Delhivery",
    trackingNumber: `TRK${randomUUID().slice(0, 8)}`,
  });
  await move(order.number, { status: "delivered" });
  if (awb) {
    const [row] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, order.number));
    await shop.db.insert(shipments).values({
      id: randomUUID(),
      orderId: row?.id ?? "",
      service: "Shiprocket",
      status: "delivered",
      awb,
      weightGrams: 500,
    });
  }
  return order;
}

const rupees = (paise: number) => (paise / 100).toFixed(2);
const recordCash = (number: string, body: Record<string, unknown>) =>
  shop.app.request(`/api/admin/cod/orders/${number}/cash`, asAdmin({ method: "POST", body }));
const importCsv = (csv: string) =>
  shop.app.request("/api/admin/cod/remittances", asAdmin({ method: "POST", body: { csv } }));

async function remittancesOf(number: string) {
  return shop.db
    .select({ id: codRemittances.id, source: codRemittances.source, reference: codRemittances.reference })
    .from(codRemittances)
    .innerJoin(orders, eq(orders.id, codRemittances.orderId))
    .where(eq(orders.number, number));
}

beforeAll(async () => {
  admin = await signUpWithRole(shop, "staff@prakriti.example", "owner");
  meera = await signUpWithAddress(shop.app, "meera@example.in");
});

describe("cash on delivery is staff's", () => {
  it.each([
    ["GET", "/api/admin/cod"],
    ["POST", "/api/admin/cod/orders/PN-2026-000001/cash"],
    ["POST", "/api/admin/cod/remittances"],
  ])("%s %s is 401 signed out and 403 for a customer", async (method, url) => {
    const body = method === "GET" ? undefined : { csv: "awb,amount,date,reference\n" };
    expect((await shop.app.request(url, jsonRequest({ method, body }))).status).toBe(401);
    const customer = await shop.app.request(url, asUser(meera.cookie, { method, body }));
    expect(customer.status).toBe(403);
    expect(((await customer.json()) as { error: { code: string } }).error.code).toBeTruthy();
  });
});

describe("recording cash by hand", () => {
  it("records a delivered COD order's cash once, with an audit entry, and refuses what does not fit", async () => {
    const order = await deliveredCod();
    const cash = { amountPaise: order.totalPaise, collectedOn: "2026-03-02", reference: "DLV-REM-77" };

    const unknownField = await recordCash(order.number, { ...cash, source: "import" });
    expect(unknownField.status).toBe(400);
    const wrongAmount = await recordCash(order.number, { ...cash, amountPaise: order.totalPaise - 100 });
    expect(wrongAmount.status).toBe(422);
    expect(((await wrongAmount.json()) as { error: { code: string } }).error.code).toBe("amount_differs");

    const recorded = await recordCash(order.number, cash);
    expect(recorded.status).toBe(201);
    expect(await recorded.json()).toEqual({ cash: { ...cash, source: "manual" } });
    const again = await recordCash(order.number, cash);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("already_collected");
    expect(await remittancesOf(order.number)).toHaveLength(1);
    const detail = await shop.app.request(`/api/admin/orders/${order.number}`, asAdmin());
    expect(((await detail.json()) as { order: { cash: unknown } }).order.cash).toEqual({
      ...cash,
      source: "manual",
    });

    const audit = await shop.db
      .select({ action: auditLog.action, actorEmail: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, order.number), eq(auditLog.action, "cash_collected")));
    expect(audit).toEqual([{ action: "cash_collected", actorEmail: "staff@prakriti.example" }]);

    const notDelivered = await placeCod();
    const early = await recordCash(notDelivered.number, { ...cash, amountPaise: notDelivered.totalPaise });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe("not_delivered");
    expect((await recordCash("PN-2026-999999", cash)).status).toBe(404);
  });
});

describe("importing a remittance report", () => {
  it("records matched rows and lists every kind of mismatch without applying it; the same file again records nothing", async () => {
    const byNumber = await deliveredCod();
    const byAwb = await deliveredCod("SR123456789");
    const shortPaid = await deliveredCod();
    const online = await deliveredCod();
    await standAsPaidOnline(shop.db, online.number);
    const notDelivered = await placeCod();
    const collected = await deliveredCod();
    expect(
      (
        await recordCash(collected.number, {
          amountPaise: collected.totalPaise,
          collectedOn: "2026-03-01",
          reference: "HAND-1",
        })
      ).status,
    ).toBe(201);

    // Mixed keys in one column: the order column is read as order numbers, so the AWB file goes separately.
    const byOrderFile = [
      "Order Number,COD Amount (Rs),Remittance Date,UTR",
      `${byNumber.number},"${Number(rupees(byNumber.totalPaise)).toLocaleString("en-IN")}",02-03-2026,UTR001`,
      `${shortPaid.number},${rupees(shortPaid.totalPaise - 5000)},2026-03-02,UTR001`,
      `${online.number},${rupees(online.totalPaise)},2026-03-02,UTR001`,
      `${notDelivered.number},${rupees(notDelivered.totalPaise)},2026-03-02,UTR001`,
      `${collected.number},${rupees(collected.totalPaise)},2026-03-02,UTR001`,
      "PN-2026-999999,100.00,2026-03-02,UTR001",
      `${byNumber.number},not money,2026-03-02,UTR001`,
    ].join("\r\n");

    const first = await importCsv(byOrderFile);
    expect(first.status).toBe(200);
    const result = (await first.json()) as RemittanceImportResult;
    expect(result.matched.map((row) => row.orderNumber)).toEqual([byNumber.number]);
    expect(result.recordedPaise).toBe(byNumber.totalPaise);
    expect(result.mismatched.map((row) => [row.line, row.problem])).toEqual([
      [3, "amount_differs"],
      [4, "not_cod"],
      [5, "not_delivered"],
      [6, "already_collected"],
      [7, "unknown_order"],
      [8, "invalid_row"],
    ]);
    for (const number of [shortPaid.number, online.number, notDelivered.number]) {
      expect(await remittancesOf(number)).toEqual([]);
    }

    // Shiprocket's remittance report names its batch (CRF ID) before the bank's UTR: the UTR is the reference
    // the owner finds on her bank statement.
    const awbFile = `CRF ID,AWB Number,Amount,Date,UTR\nCRF-9,sr123456789,${rupees(byAwb.totalPaise)},2026-03-03,UTR-77\nCRF-9,NOPE1,1.00,2026-03-03,UTR-77\n`;
    const awbResult = (await (await importCsv(awbFile)).json()) as RemittanceImportResult;
    expect(awbResult.matched.map((row) => row.orderNumber)).toEqual([byAwb.number]);
    expect(awbResult.mismatched.map((row) => row.problem)).toEqual(["unknown_order"]);
    expect(await remittancesOf(byAwb.number)).toEqual([expect.objectContaining({ reference: "UTR-77" })]);

    const again = (await (await importCsv(byOrderFile)).json()) as RemittanceImportResult;
    expect(again.matched).toEqual([]);
    expect(again.recordedPaise).toBe(0);
    expect(again.mismatched[0]).toMatchObject({ line: 2, problem: "already_collected" });
    expect(await remittancesOf(byNumber.number)).toEqual([expect.objectContaining({ source: "import" })]);
  });

  it("refuses a file with control characters, which no report holds", async () => {
    const response = await importCsv("order,amount,date,reference\nPN-2026-000001\u0000,1,2026-03-02,X\n");
    expect(response.status).toBe(400);
  });

  it("refuses a file whose first line does not name the columns", async () => {
    const response = await importCsv("PN-2026-000001,100,2026-03-02,X\n");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string; message: string } }).error.message).toMatch(
      /columns/,
    );
  });

  it("records each order once when the same file is imported five times at once", async () => {
    // One shopper's cart places one order at a time: the orders are made one after another, the imports at once.
    const delivered = [await deliveredCod(), await deliveredCod(), await deliveredCod()];
    const file = [
      "order,amount,date,reference",
      ...delivered.map((order) => `${order.number},${rupees(order.totalPaise)},2026-03-04,UTR-RACE`),
    ].join("\n");
    const answers = await Promise.all(Array.from({ length: 5 }, () => importCsv(file)));
    const results = await Promise.all(
      answers.map(async (answer) => {
        expect(answer.status).toBe(200);
        return (await answer.json()) as RemittanceImportResult;
      }),
    );
    expect(results.reduce((sum, result) => sum + result.matched.length, 0)).toBe(3);
    for (const order of delivered) expect(await remittancesOf(order.number)).toHaveLength(1);
  });
});

describe("the cash-on-delivery figures", () => {
  it("shows expected, overdue and collected cash with totals", async () => {
    const recent = await deliveredCod();
    const old = await deliveredCod();
    await shop.db
      .update(orders)
      .set({ deliveredAt: new Date(Date.now() - 11 * 24 * 3600 * 1000) })
      .where(eq(orders.number, old.number));
    const response = await shop.app.request("/api/admin/cod?from=2026-03-01&to=2026-03-31", asAdmin());
    expect(response.status).toBe(200);
    const summary = (await response.json()) as CodSummary;
    const expectedNumbers = summary.expected.orders.map((order) => order.number);
    expect(expectedNumbers).toEqual(expect.arrayContaining([recent.number, old.number]));
    expect(summary.overdue.orders.map((order) => order.number)).toContain(old.number);
    expect(summary.overdue.orders.map((order) => order.number)).not.toContain(recent.number);
    expect(summary.expected.totalPaise).toBe(
      summary.expected.orders.reduce((sum, order) => sum + order.totalPaise, 0),
    );
    expect(summary.collected.count).toBeGreaterThan(0);
    expect(summary.collected.totalPaise).toBe(
      summary.collected.rows.reduce((sum, row) => sum + row.amountPaise, 0),
    );
    expect(summary.overdueDays).toBe(10);

    const badQuery = await shop.app.request("/api/admin/cod?from=2026-02-30", asAdmin());
    expect(badQuery.status).toBe(400);
  });
});
