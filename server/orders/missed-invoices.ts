import { and, asc, eq, inArray, notExists, sql } from "drizzle-orm";
import {
  INVOICE_DUE_STATUSES,
  type IssueMissedInvoices,
  invoiceDue,
  type MissedInvoiceOrder,
  type SellerInvoiceStatus,
} from "../../common/schemas/missed-invoices.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { orderEvents, orders, taxDocuments } from "../db/schema.ts";
import { issueInvoice } from "../invoices/tax-documents.ts";
import { log } from "../log.ts";
import { getShopDetails } from "../shop/shop.data.ts";
import { enqueueInvoiceMail } from "./order-mail.ts";

/** Orders whose "shipped" mail, which carries the invoice, is still to come. */
const INVOICE_SENT_WITH_SHIPPING = new Set<string>(["confirmed", "packed"]);

/** The most orders one "Issue all" takes: the rest stay in the list for the next click. */
export const ISSUE_BATCH_LIMIT = 200;

/** What the shop's details still lack before a tax invoice can be issued, in the owner's words. */
export async function sellerInvoiceStatus(db: Pick<Db, "select">): Promise<SellerInvoiceStatus> {
  const shop = await getShopDetails(db);
  const missing = [...(shop.gstin ? [] : ["GSTIN"]), ...(shop.address ? [] : ["registered address"])];
  return { canIssue: missing.length === 0, missing };
}

// Written with table names in full: drizzle leaves columns unqualified in a one-table select, and inside
// these subqueries "id" would then mean the subquery's own table.
const withoutInvoice = notExists(
  sql`(select 1 from tax_documents d where d.order_id = orders.id and d.kind = 'invoice')`,
);

/**
 * The orders due an invoice without one, as orders_awaiting_invoice keeps them (docs/decisions/097): the same
 * rows as the due statuses without an invoice, read from the few that wait rather than from every order; the
 * rule itself is still checked on each, so the set only narrows where to look.
 */
const awaitingInvoice = inArray(orders.id, sql`(select w.order_id from orders_awaiting_invoice w)`);

/** When the order was confirmed: the goods' time of supply, printed on an invoice issued later. */
const confirmedAt = sql<Date>`coalesce(
  (select min(e.created_at) from order_events e where e.order_id = orders.id and e.to_status = 'confirmed'),
  (select min(l.created_at) from money_ledger l
    where l.order_id = orders.id and l.kind = 'online_payment' and l.applied),
  orders.created_at)`.mapWith((value: string | Date) => new Date(value));

/** Orders that should carry a tax invoice and do not, oldest supply first, with how many there are. */
export async function listOrdersWithoutInvoice(
  db: Db,
  limit = ISSUE_BATCH_LIMIT,
): Promise<{ orders: MissedInvoiceOrder[]; total: number }> {
  const due = and(awaitingInvoice, inArray(orders.status, INVOICE_DUE_STATUSES), withoutInvoice);
  const [rows, [count]] = await Promise.all([
    db
      .select({
        number: orders.number,
        status: orders.status,
        shipName: orders.shipName,
        totalPaise: orders.totalPaise,
        confirmedAt,
      })
      .from(orders)
      .where(due)
      .orderBy(asc(confirmedAt), asc(orders.number))
      .limit(limit),
    db.select({ total: sql<number>`count(*)::int` }).from(orders).where(due),
  ]);
  return {
    orders: rows.map((row) => ({ ...row, confirmedAt: row.confirmedAt.toISOString() })),
    total: count?.total ?? 0,
  };
}

export type IssueOutcome =
  | { order: string; issued: true; invoice: string; suppliedAt: string }
  | { order: string; issued: false; reason: string };

/**
 * Issues the invoice of one order that missed it, in its own transaction holding the order's row lock (the
 * lock confirmation takes too), so two clicks at once issue it once; the number comes from the series'
 * counter (takeDocumentNumber), so concurrent issues for different orders get consecutive numbers. Dated
 * today, with the supply date recorded (docs/decisions/060); audited and noted in the order's history.
 */
async function issueOne(db: Db, number: string, actor: AuditActor, now: Date): Promise<IssueOutcome> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
    if (!order) return { order: number, issued: false, reason: "There is no such order." };
    if (!invoiceDue(order.status)) {
      return {
        order: number,
        issued: false,
        reason: `A ${order.status.replaceAll("_", " ")} order gets no invoice now.`,
      };
    }
    const [existing] = await tx
      .select({ number: taxDocuments.number })
      .from(taxDocuments)
      .where(and(eq(taxDocuments.orderId, order.id), eq(taxDocuments.kind, "invoice")));
    if (existing) {
      return { order: number, issued: false, reason: `Already has invoice ${existing.number}.` };
    }
    const [supply] = await tx.select({ at: confirmedAt }).from(orders).where(eq(orders.id, order.id));
    const suppliedAt = supply?.at ?? order.createdAt;
    const invoice = await issueInvoice(tx, order, now, { suppliedAt });
    if (!invoice) {
      return { order: number, issued: false, reason: "The shop's GSTIN or registered address is not set." };
    }
    await tx.insert(orderEvents).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: order.status,
      kind: "invoice",
      actor: "admin",
      actorUserId: actor.id,
      note: `Tax invoice ${invoice.number} issued`,
      createdAt: now,
    });
    // The "shipped" mail carries the invoice; an order past it has gone without, so it gets the invoice by
    // itself. A confirmed or packed order's invoice still goes with its "shipped" mail.
    if (!INVOICE_SENT_WITH_SHIPPING.has(order.status)) await enqueueInvoiceMail(tx, order.id, invoice.number);
    await recordAudit(tx, {
      actor,
      entityType: "order",
      entityId: order.number,
      action: "issue_invoice",
      before: { invoice: null },
      after: { invoice: invoice.number, issuedAt: now.toISOString(), suppliedAt: suppliedAt.toISOString() },
    });
    return { order: number, issued: true, invoice: invoice.number, suppliedAt: suppliedAt.toISOString() };
  });
}

/**
 * The owner issues the invoices that were missed: the orders named, or every order in the list (up to
 * ISSUE_BATCH_LIMIT), oldest supply first so the numbers follow the supplies. One order's failure is
 * reported and does not undo the others'.
 */
export async function issueMissedInvoices(
  db: Db,
  which: IssueMissedInvoices,
  actor: AuditActor,
  now = new Date(),
): Promise<IssueOutcome[]> {
  const numbers =
    which.all || !which.orders
      ? (await listOrdersWithoutInvoice(db)).orders.map((order) => order.number)
      : [...new Set(which.orders)];
  const outcomes: IssueOutcome[] = [];
  for (const number of numbers) {
    const outcome = await issueOne(db, number, actor, now);
    if (outcome.issued) log.info({ order: number, invoice: outcome.invoice }, "missed tax invoice issued");
    outcomes.push(outcome);
  }
  return outcomes;
}
