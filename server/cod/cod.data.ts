import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, type SQL, sql } from "drizzle-orm";
import {
  COD_OVERDUE_DAYS,
  type CodCash,
  type CodOrderRow,
  type CodSummary,
  parseRemittanceDate,
  parseRupeesToPaise,
  type RecordCash,
  type RemittanceImportResult,
  type RemittanceProblem,
  type RemittanceRowResult,
} from "../../common/cod.ts";
import { indianDate } from "../../common/india-time.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { parseCsv } from "../csv.ts";
import type { Db, Tx } from "../db/client.ts";
import { codRemittances, orders, shipments } from "../db/schema.ts";
import { httpError, notFound } from "../errors.ts";
import { recordMoney } from "../money/ledger.ts";

/** The longest list each part of the summary returns; its count and total always cover every order. */
const LIST_LIMIT = 200;

type CandidateOrder = {
  id: string;
  number: string;
  paymentMethod: "cod" | "razorpay";
  totalPaise: number;
  deliveredAt: Date | null;
};

/** Why this order's cash cannot be recorded, or null when it can (a delivered COD order of that amount). */
function problemOf(
  order: CandidateOrder,
  amountPaise: number,
): { problem: RemittanceProblem; message: string } | null {
  if (order.paymentMethod !== "cod") {
    return { problem: "not_cod", message: `${order.number} was paid online, not in cash.` };
  }
  // Delivered once is what counts: an order delivered and later returned or refunded was still paid in cash.
  if (!order.deliveredAt) {
    return {
      problem: "not_delivered",
      message: `${order.number} has not been delivered, so no cash is due yet.`,
    };
  }
  if (order.totalPaise !== amountPaise) {
    return {
      problem: "amount_differs",
      message: `${order.number} is due ₹${(order.totalPaise / 100).toFixed(2)}, the report says ₹${(amountPaise / 100).toFixed(2)}.`,
    };
  }
  return null;
}

const candidateColumns = {
  id: orders.id,
  number: orders.number,
  paymentMethod: orders.paymentMethod,
  totalPaise: orders.totalPaise,
  deliveredAt: orders.deliveredAt,
};

/** Staff record the cash of one delivered COD order by hand; its audit entry is written with it. */
export async function recordCash(
  db: Db,
  number: string,
  cash: RecordCash,
  actor: AuditActor,
): Promise<CodCash> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select(candidateColumns).from(orders).where(eq(orders.number, number));
    if (!order) throw notFound("There is no order with that number.");
    const problem = problemOf(order, cash.amountPaise);
    if (problem)
      throw httpError(problem.problem === "amount_differs" ? 422 : 409, problem.problem, problem.message);
    const [row] = await tx
      .insert(codRemittances)
      .values({ orderId: order.id, ...cash, source: "manual", recordedBy: actor.id })
      .onConflictDoNothing({ target: codRemittances.orderId })
      .returning();
    if (!row) throw httpError(409, "already_collected", `The cash of ${number} is already recorded.`);
    await ledgerRemittance(tx, order.id, row, actor, "");
    await recordAudit(tx, {
      actor,
      entityType: "order",
      entityId: number,
      action: "cash_collected",
      after: { amountPaise: row.amountPaise, collectedOn: row.collectedOn, reference: row.reference },
    });
    return {
      amountPaise: row.amountPaise,
      collectedOn: row.collectedOn,
      reference: row.reference,
      source: "manual",
    };
  });
}

/** The cash recorded for one order, if any (the admin order page). */
export async function cashOf(db: Db, orderId: string): Promise<CodCash | null> {
  const [row] = await db
    .select({
      amountPaise: codRemittances.amountPaise,
      collectedOn: codRemittances.collectedOn,
      reference: codRemittances.reference,
      source: codRemittances.source,
    })
    .from(codRemittances)
    .where(eq(codRemittances.orderId, orderId));
  return row ?? null;
}

type Columns = { key: number; keyKind: "awb" | "order"; amount: number; date: number; reference: number };

/** Which column is which, by the names couriers and aggregators use for them; null when one is missing. */
function columnsOf(header: string[]): Columns | string {
  const names = header.map((name) =>
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z]+/g, " ")
      .trim(),
  );
  // Candidates in order of preference: a report with both a CRF id and a UTR gives the UTR as the reference.
  const find = (...candidates: RegExp[]) => {
    for (const candidate of candidates) {
      const index = names.findIndex((name) => candidate.test(name));
      if (index >= 0) return index;
    }
    return -1;
  };
  const awb = find(/^awb/, /airway ?bill/, /^waybill/, /tracking/);
  const order = find(/^order( number| no| id)?$/, /^channel order/);
  const amount = find(/amount/, /^cod/, /^value/);
  const date = find(/date/, /^collected on/);
  const reference = find(/^utr/, /reference/, /^ref/, /remittance id/, /^crf/);
  const missing = [
    awb < 0 && order < 0 ? "an AWB or order number" : null,
    amount < 0 ? "amount" : null,
    date < 0 ? "date" : null,
    reference < 0 ? "reference" : null,
  ].filter(Boolean);
  if (missing.length > 0) return `The first line must name the columns; missing: ${missing.join(", ")}.`;
  return { key: order >= 0 ? order : awb, keyKind: order >= 0 ? "order" : "awb", amount, date, reference };
}

/**
 * Imports a remittance report: each row is matched to an order (by order number, or by AWB through the
 * order's parcel or tracking number), compared, and recorded only when it is a delivered COD order of that
 * amount not yet collected. One transaction; the unique order key makes a second import (or five at once)
 * record nothing new: those rows answer "already collected".
 */
export async function importRemittance(
  db: Db,
  csv: string,
  actor: AuditActor,
): Promise<RemittanceImportResult> {
  const { keyKind, rows } = readRemittanceReport(csv);
  return db.transaction(async (tx) => {
    const byKey = await findOrders(tx, keyKind, [...new Set(rows.map((row) => row.key).filter(Boolean))]);
    const matched: RemittanceRowResult[] = [];
    const mismatched: RemittanceRowResult[] = [];
    let recordedPaise = 0;
    for (const row of rows) {
      const order = byKey.get(keyKind === "awb" ? row.key.toUpperCase() : row.key);
      const result: RemittanceRowResult = {
        line: row.line,
        key: row.key,
        orderNumber: order?.number ?? null,
        amountPaise: row.amountPaise,
        expectedPaise: order?.totalPaise ?? null,
        problem: null,
        message: "Recorded.",
      };
      const problem = rowProblem(row, order, keyKind);
      if (problem || !order || row.amountPaise === null || !row.collectedOn) {
        mismatched.push({ ...result, ...(problem ?? { problem: "invalid_row", message: "Not readable." }) });
        continue;
      }
      const recorded = { ...row, amountPaise: row.amountPaise, collectedOn: row.collectedOn };
      if (!(await recordRemittance(tx, order, recorded, actor))) {
        mismatched.push({
          ...result,
          problem: "already_collected",
          message: `The cash of ${order.number} is already recorded.`,
        });
        continue;
      }
      recordedPaise += row.amountPaise;
      matched.push(result);
    }
    await recordAudit(tx, {
      actor,
      entityType: "order",
      entityId: "cod-remittance",
      action: "remittance_import",
      after: {
        rows: rows.length,
        recorded: matched.map((row) => row.orderNumber),
        recordedPaise,
        mismatched: mismatched.length,
      },
    });
    return { matched, mismatched, recordedPaise };
  });
}

type RemittanceRow = ReturnType<typeof readRemittanceReport>["rows"][number];

/** A report's rows as read, each cell trimmed; 400 for an empty file, unnamed columns or over 20,000 rows. */
function readRemittanceReport(csv: string) {
  const [header, ...body] = parseCsv(csv).filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (!header) throw httpError(400, "invalid_request", "csv: the file is empty.", { csv: "is empty" });
  const columns = columnsOf(header.cells);
  if (typeof columns === "string")
    throw httpError(400, "invalid_request", `csv: ${columns}`, { csv: columns });
  if (body.length > 20_000) throw httpError(400, "invalid_request", "csv: at most 20,000 rows at a time.");

  const rows = body.map(({ line, cells }) => {
    const cell = (index: number) => (cells[index] ?? "").trim();
    return {
      line,
      key: cell(columns.key).slice(0, 100),
      amountPaise: parseRupeesToPaise(cell(columns.amount)),
      collectedOn: parseRemittanceDate(cell(columns.date)),
      reference: cell(columns.reference).slice(0, 100),
    };
  });
  return { keyKind: columns.keyKind, rows };
}

/** Why a row's cash cannot be recorded: unreadable, no such order, or what problemOf finds; null when it can. */
function rowProblem(
  row: RemittanceRow,
  order: CandidateOrder | undefined,
  keyKind: Columns["keyKind"],
): { problem: RemittanceProblem; message: string } | null {
  const unreadable = !row.key
    ? "no AWB or order number"
    : row.amountPaise === null
      ? "the amount is not in rupees"
      : !row.collectedOn
        ? "the date is not a date"
        : !row.reference
          ? "no reference"
          : null;
  return unreadable
    ? { problem: "invalid_row" as const, message: `Line ${row.line}: ${unreadable}.` }
    : !order
      ? {
          problem: "unknown_order" as const,
          message: `No order has ${keyKind === "awb" ? "AWB" : "number"} ${row.key}.`,
        }
      : problemOf(order, row.amountPaise ?? 0);
}

/** Records one row's cash and its ledger row; false when the order's cash was already recorded. */
async function recordRemittance(
  tx: Tx,
  order: CandidateOrder,
  row: { amountPaise: number; collectedOn: string; reference: string },
  actor: AuditActor,
): Promise<boolean> {
  const [inserted] = await tx
    .insert(codRemittances)
    .values({
      orderId: order.id,
      amountPaise: row.amountPaise,
      collectedOn: row.collectedOn,
      reference: row.reference,
      source: "import",
      recordedBy: actor.id,
    })
    .onConflictDoNothing({ target: codRemittances.orderId })
    .returning({ id: codRemittances.id });
  if (!inserted) return false;
  await ledgerRemittance(tx, order.id, row, actor, " (imported)");
  return true;
}

/** The courier's remittance of an order's cash, as the money ledger records it; `how` ends its note. */
function ledgerRemittance(
  tx: Tx,
  orderId: string,
  row: { amountPaise: number; collectedOn: string; reference: string },
  actor: AuditActor,
  how: "" | " (imported)",
) {
  return recordMoney(tx, {
    orderId,
    kind: "cod_remittance",
    amountPaise: row.amountPaise,
    reference: row.reference,
    recordedBy: actor.id,
    note: `Remitted by the courier, collected ${row.collectedOn}${how}`,
  });
}

/** The orders a report's keys name: by number, or by AWB (the aggregator's parcel, else the tracking number). */
async function findOrders(
  tx: Tx,
  kind: "awb" | "order",
  keys: string[],
): Promise<Map<string, CandidateOrder>> {
  const found = new Map<string, CandidateOrder>();
  if (keys.length === 0) return found;
  if (kind === "order") {
    for (const order of await tx.select(candidateColumns).from(orders).where(inArray(orders.number, keys))) {
      found.set(order.number, order);
    }
    return found;
  }
  // Couriers print AWBs in capitals; a spreadsheet may not keep them so. Compared upper-cased both sides.
  const upper = keys.map((key) => key.toUpperCase());
  const parcels = await tx
    .select({ awb: shipments.awb, ...candidateColumns })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(inArray(sql`upper(${shipments.awb})`, upper));
  for (const { awb, ...order } of parcels) if (awb) found.set(awb.toUpperCase(), order);
  const tracked = await tx
    .select({ trackingNumber: orders.trackingNumber, ...candidateColumns })
    .from(orders)
    .where(inArray(sql`upper(${orders.trackingNumber})`, upper));
  for (const { trackingNumber, ...order } of tracked) {
    if (trackingNumber && !found.has(trackingNumber.toUpperCase()))
      found.set(trackingNumber.toUpperCase(), order);
  }
  return found;
}

/** The latest parcel's AWB of an order, else its tracking number. */
const orderAwb = sql<
  string | null
>`coalesce((select ${shipments.awb} from ${shipments} where ${shipments.orderId} = ${orders.id} and ${shipments.awb} is not null order by ${shipments.createdAt} desc limit 1), ${orders.trackingNumber})`;

/** Count and total of the orders whose cash is due (`where`), and the first of them, oldest delivery first. */
async function cashDue(db: Db, where: SQL | undefined) {
  const [totals] = await db
    .select({
      count: sql<number>`count(*)::int`,
      totalPaise: sql<number>`coalesce(sum(${orders.totalPaise}), 0)::int`,
    })
    .from(orders)
    .leftJoin(codRemittances, eq(codRemittances.orderId, orders.id))
    .where(where);
  const rows = await db
    .select({
      number: orders.number,
      shipName: orders.shipName,
      shipPin: orders.shipPin,
      totalPaise: orders.totalPaise,
      deliveredAt: orders.deliveredAt,
      awb: orderAwb,
    })
    .from(orders)
    .leftJoin(codRemittances, eq(codRemittances.orderId, orders.id))
    .where(where)
    .orderBy(asc(orders.deliveredAt), asc(orders.id))
    .limit(LIST_LIMIT);
  const list: CodOrderRow[] = rows.map((row) => ({
    ...row,
    deliveredAt: (row.deliveredAt as Date).toISOString(),
  }));
  return { count: totals?.count ?? 0, totalPaise: totals?.totalPaise ?? 0, orders: list };
}

/**
 * The "Cash on delivery" page: cash expected (delivered COD orders not yet collected), overdue (of those,
 * delivered more than COD_OVERDUE_DAYS ago), and collected between two Indian days (by the remittance date).
 */
export async function codSummary(
  db: Db,
  now: Date,
  period: { from?: string; to?: string },
): Promise<CodSummary> {
  const to = period.to ?? indianDate(now);
  const from = period.from ?? indianDate(new Date(now.getTime() - 29 * 24 * 3600 * 1000));
  const overdueBefore = new Date(now.getTime() - COD_OVERDUE_DAYS * 24 * 3600 * 1000);

  const uncollected = and(
    eq(orders.paymentMethod, "cod"),
    isNotNull(orders.deliveredAt),
    isNull(codRemittances.id),
  );
  const dueList = (overdueOnly: boolean) =>
    cashDue(db, overdueOnly ? and(uncollected, lte(orders.deliveredAt, overdueBefore)) : uncollected);

  const inPeriod = and(gte(codRemittances.collectedOn, from), lte(codRemittances.collectedOn, to));
  const [collectedTotals] = await db
    .select({
      count: sql<number>`count(*)::int`,
      totalPaise: sql<number>`coalesce(sum(${codRemittances.amountPaise}), 0)::int`,
    })
    .from(codRemittances)
    .where(inPeriod);
  const collectedRows = await db
    .select({
      number: orders.number,
      shipName: orders.shipName,
      amountPaise: codRemittances.amountPaise,
      collectedOn: codRemittances.collectedOn,
      reference: codRemittances.reference,
      source: codRemittances.source,
    })
    .from(codRemittances)
    .innerJoin(orders, eq(orders.id, codRemittances.orderId))
    .where(inPeriod)
    .orderBy(desc(codRemittances.collectedOn), desc(codRemittances.id))
    .limit(LIST_LIMIT);

  return {
    from,
    to,
    overdueDays: COD_OVERDUE_DAYS,
    expected: await dueList(false),
    overdue: await dueList(true),
    collected: {
      count: collectedTotals?.count ?? 0,
      totalPaise: collectedTotals?.totalPaise ?? 0,
      rows: collectedRows,
    },
  };
}
