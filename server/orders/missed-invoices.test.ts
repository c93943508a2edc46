import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indianDate } from "../../common/india-time.ts";
import type { OrderDetail } from "../../common/orders.ts";
import type { MissedInvoices } from "../../common/schemas/missed-invoices.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import { mailsTo, waitForMail } from "../../tests/mail.ts";
import { type Customer, placeOrderRequest, putInCart, signUpWithAddress } from "../../tests/orders.ts";
import { pdfText } from "../../tests/pdf-text.ts";
import { registerShopForGst, TEST_GSTIN } from "../../tests/shop-details.ts";
import { auditLog, jobs, orderEvents, orders, shopDetails, taxDocuments } from "../db/schema.ts";
import { ORDER_MAIL_JOB } from "./order-mail.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
let owner: TestAccount;
let staff: TestAccount;
let buyer: Customer;
const DAY = 86_400_000;

beforeAll(async () => {
  shop = await createTestApp();
  owner = await signUpWithRole(shop, "owner@example.in", "owner");
  staff = await signUpWithRole(shop, "desk@example.in", "staff");
  buyer = await signUpWithAddress(shop.app, "buyer@example.in");
});
afterAll(() => shop.close());

/** A cash-on-delivery order confirmed by staff `daysAgo` days ago (its confirmation event moved back). */
async function confirmedOrder(daysAgo = 0): Promise<string> {
  await putInCart(shop.db, buyer.userId, [{ itemId: "bath-powder", quantity: 1 }]);
  const response = await placeOrderRequest(shop.app, buyer.cookie, {
    addressId: buyer.addressId,
    paymentMethod: "cod",
  });
  expect(response.status).toBe(201);
  const { order } = (await response.json()) as { order: OrderDetail };
  const confirmed = await callApi(shop.app, "POST", `/api/admin/orders/${order.number}/status`, {
    as: staff,
    body: { status: "confirmed" },
  });
  expect(confirmed.status).toBe(200);
  if (daysAgo) {
    const [row] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, order.number));
    await shop.db
      .update(orderEvents)
      .set({ createdAt: new Date(Date.now() - daysAgo * DAY) })
      .where(eq(orderEvents.orderId, row?.id ?? ""));
  }
  return order.number;
}

const listMissed = (as: TestAccount) => callApi(shop.app, "GET", "/api/admin/missed-invoices", { as });
const issue = (body: unknown, as: TestAccount = owner) =>
  callApi(shop.app, "POST", "/api/admin/missed-invoices/issue", { as, body });

async function invoicesOf(numbers: string[]) {
  return shop.db
    .select({ order: orders.number, document: taxDocuments })
    .from(taxDocuments)
    .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
    .where(and(inArray(orders.number, numbers), eq(taxDocuments.kind, "invoice")));
}

describe("invoices missed while the seller's details were incomplete", () => {
  let early: string;

  it("says what is missing, lists the orders without invoice, and refuses to issue them yet", async () => {
    early = await confirmedOrder(40);
    expect(await invoicesOf([early])).toHaveLength(0);

    const { status, body } = await listMissed(staff);
    expect(status, JSON.stringify(body)).toBe(200);
    const missed = body as MissedInvoices;
    expect(missed.canIssue).toBe(false);
    expect(missed.missing).toEqual(["GSTIN", "registered address"]);
    expect(missed.orders.map((order) => order.number)).toContain(early);
    expect(missed.total).toBeGreaterThanOrEqual(1);

    const refused = await issue({ orders: [early] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("seller_details_incomplete");
    expect(refused.body.error.message).toContain("GSTIN and registered address");
  });

  it("lets only the owner issue, with a strict body", async () => {
    expect((await callApi(shop.app, "GET", "/api/admin/missed-invoices")).status).toBe(401);
    expect((await listMissed(buyer)).status).toBe(403);
    const byStaff = await issue({ all: true }, staff);
    expect(byStaff.status).toBe(403);
    expect(byStaff.body.error.code).toBe("forbidden");
    for (const body of [
      {},
      { all: true, orders: [early] },
      { all: false },
      { orders: [] },
      { orders: ["PN-2026-1"] },
      { orders: [early], totalPaise: 0 },
    ]) {
      const { status, body: answer } = await issue(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer.error.code).toBe("invalid_request");
    }
  });

  it("issues them once the details are saved: dated today, supply date kept, numbered without gaps under concurrent clicks", async () => {
    await registerShopForGst(shop.db, { gstin: null });
    const more: string[] = [];
    for (let index = 0; index < 9; index++) more.push(await confirmedOrder(index % 2 ? 3 : 0));
    // Four of them went out meanwhile: their "shipped" mail, which carries the invoice, went without one.
    const shipped = more.slice(0, 4);
    await shop.db
      .update(orders)
      .set({ status: "shipped" })
      .where(inArray(orders.number, shipped.slice(0, 3)));
    await shop.db
      .update(orders)
      .set({ status: "delivered" })
      .where(eq(orders.number, shipped[3] ?? ""));
    await shop.db.update(shopDetails).set({ gstin: TEST_GSTIN }).where(eq(shopDetails.id, 1));
    const all = [early, ...more];

    const listed = (await listMissed(owner)).body as MissedInvoices;
    expect(listed.canIssue).toBe(true);
    expect(listed.missing).toEqual([]);
    expect(listed.orders.map((order) => order.number).sort()).toEqual([...all].sort());
    // Oldest supply first, so "Issue all" numbers the invoices in the order the goods went out.
    const times = listed.orders.map((order) => order.confirmedAt);
    expect(times).toEqual([...times].sort());
    expect(listed.orders[0]?.number).toBe(early);

    // Every order clicked on its own, twice, and "Issue all" three times, all at once.
    const answers = await Promise.all([
      ...all.flatMap((number) => [issue({ orders: [number] }), issue({ orders: [number] })]),
      issue({ all: true }),
      issue({ all: true }),
      issue({ all: true }),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    const issuedOutcomes = answers.flatMap((answer) =>
      (answer.body.outcomes as { issued: boolean }[]).filter((outcome) => outcome.issued),
    );
    expect(issuedOutcomes).toHaveLength(all.length);

    const invoices = await invoicesOf(all);
    expect(invoices).toHaveLength(all.length);
    const everyInvoice = await shop.db
      .select({ sequence: taxDocuments.sequence })
      .from(taxDocuments)
      .where(eq(taxDocuments.kind, "invoice"))
      .orderBy(asc(taxDocuments.sequence));
    expect(everyInvoice.map((row) => row.sequence)).toEqual(everyInvoice.map((_, index) => index + 1));

    const today = indianDate(new Date());
    const earlyInvoice = invoices.find((row) => row.order === early)?.document;
    expect(indianDate(earlyInvoice?.issuedAt ?? new Date(0))).toBe(today);
    expect(indianDate(earlyInvoice?.suppliedAt ?? new Date())).toBe(
      indianDate(new Date(Date.now() - 40 * DAY)),
    );

    const audits = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "issue_invoice"), inArray(auditLog.entityId, all)));
    expect(audits).toHaveLength(all.length);
    expect(audits.every((entry) => entry.actorEmail === owner.email)).toBe(true);

    // Each shipped order's invoice is queued for the shopper once, however many requests raced; a confirmed
    // order's invoice waits for its "shipped" mail, as an invoice issued on time does.
    const invoiceMails = await shop.db
      .select({ order: orders.number })
      .from(jobs)
      .innerJoin(orders, sql`${orders.id} = ${jobs.payload}->>'orderId'`)
      .where(and(eq(jobs.kind, ORDER_MAIL_JOB), sql`${jobs.payload}->>'kind' = 'invoice'`));
    expect(invoiceMails.map((row) => row.order).sort()).toEqual([...shipped].sort());
    const shippedInvoice = invoices.find((row) => row.order === shipped[0])?.document;
    const mail = await waitForMail(shop.dataDir, {
      to: buyer.email,
      subject: new RegExp(`^Tax invoice for order ${shipped[0]}$`),
    });
    expect(mail.text).toContain(`Your tax invoice ${shippedInvoice?.number} for order ${shipped[0]}`);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]?.contentType).toBe("application/pdf");
    expect(await pdfText(new Uint8Array(mail.attachments[0]?.content ?? []))).toContain(
      shippedInvoice?.number ?? "missing",
    );
    for (const number of shipped) {
      await waitForMail(shop.dataDir, {
        to: buyer.email,
        subject: new RegExp(`^Tax invoice for order ${number}$`),
      });
    }
    const invoiceMailsSent = (await mailsTo(shop.dataDir, buyer.email)).filter((sent) =>
      sent.subject.startsWith("Tax invoice for order"),
    );
    expect(invoiceMailsSent).toHaveLength(shipped.length);

    const after = (await listMissed(owner)).body as MissedInvoices;
    expect(after.orders).toEqual([]);
    const again = await issue({ orders: [early] });
    expect(again.body.outcomes[0]).toMatchObject({ issued: false });
    expect(again.body.outcomes[0].reason).toContain("Already has invoice");
  }, 60_000); // nine orders placed, then 23 requests issuing ten invoices at once: over 20 s with two files per two cores

  it("puts the late invoice in the GSTR-1 of the month it is issued in, prints the supply date, and tells the history", async () => {
    const [invoice] = await invoicesOf([early]);
    const month = indianDate(new Date()).slice(0, 7);
    const csv = await shop.app.request(
      `/api/admin/tax/gstr1.csv?month=${month}&section=documents`,
      jsonRequest({ cookie: owner.cookie }),
    );
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(invoice?.document.number);
    const supplyMonth = indianDate(invoice?.document.suppliedAt ?? new Date()).slice(0, 7);
    if (supplyMonth !== month) {
      const earlier = await shop.app.request(
        `/api/admin/tax/gstr1.csv?month=${supplyMonth}&section=documents`,
        jsonRequest({ cookie: owner.cookie }),
      );
      expect(await earlier.text()).not.toContain(invoice?.document.number);
    }

    const pdf = await shop.app.request(
      `/api/admin/orders/${early}/invoice.pdf`,
      jsonRequest({ cookie: staff.cookie }),
    );
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain("Date of supply");

    const detail = await callApi(shop.app, "GET", `/api/admin/orders/${early}`, { as: staff });
    const notes = (detail.body.order.events as { note: string | null }[]).map((event) => event.note);
    expect(notes).toContain(`Tax invoice ${invoice?.document.number} issued`);
  });
});
