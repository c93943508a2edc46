import { z } from "zod";
import { isoDay } from "./cod.ts";
import type { Paise } from "./money.ts";

/** One line of the admin home's work list: how many wait, and where they are dealt with. */
export type WorkItem = {
  key: WorkKey;
  count: number;
  /** Money the count stands for (cash expected, overdue), when it has one. */
  amountPaise?: Paise;
};

export const WORK_KEYS = [
  "toConfirm",
  "toPack",
  "toBook",
  "failedDeliveries",
  "comingBack",
  "toReceive",
  "cashExpected",
  "cashOverdue",
  "questions",
  "reviews",
  "messages",
] as const;
export type WorkKey = (typeof WORK_KEYS)[number];

/** Today's work, in the order it is done: orders in, parcels out and back, cash, then shoppers' words. */
export type WorkToDo = { items: WorkItem[]; codOverdueDays: number };

/** The longest range "Sales at a glance" sums: a financial year, and a day to spare for a leap year. */
export const SALES_MAX_DAYS = 366;

export const SALES_PERIODS = ["today", "7d", "30d", "range"] as const;
export type SalesPeriod = (typeof SALES_PERIODS)[number];

export const salesQuerySchema = z
  .object({
    period: z.enum(SALES_PERIODS, { error: "must be today, 7d, 30d or range" }).default("7d"),
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .strict()
  .refine((query) => query.period !== "range" || (query.from && query.to), {
    path: ["from"],
    message: "a range needs from and to",
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["from"],
    message: "must not be after to",
  })
  .refine(
    (query) =>
      !query.from ||
      !query.to ||
      (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 < SALES_MAX_DAYS,
    { path: ["to"], message: `a range is at most ${SALES_MAX_DAYS} days` },
  );
export type SalesQuery = z.infer<typeof salesQuerySchema>;

export const SALES_TABLES = ["days", "items", "states", "payments", "codes", "refunds"] as const;
export type SalesTable = (typeof SALES_TABLES)[number];

/** One table of the sales figures as a CSV file: the same period as the page. */
export const salesCsvParamSchema = z
  .object({
    file: z.enum(
      SALES_TABLES.map((table) => `${table}.csv` as const),
      { error: `must be one of ${SALES_TABLES.map((table) => `${table}.csv`).join(", ")}` },
    ),
  })
  .strict();

/** The returns to origin by place as a CSV file: by state or by PIN prefix, the same period as the page. */
export const afterOrderCsvParamSchema = z
  .object({
    file: z.enum(["states.csv", "pins.csv"], { error: "must be one of states.csv, pins.csv" }),
  })
  .strict();

/** Orders and their value (GST included, as the shoppers paid it), and the average order. */
export type SalesTotals = { orders: number; salesPaise: Paise; averagePaise: Paise };

export type SalesFigures = {
  /** The period shown and the one before it, of the same length (India's days, inclusive). */
  period: { key: SalesPeriod; from: string; to: string; days: number };
  previous: { from: string; to: string };
  totals: SalesTotals;
  previousTotals: SalesTotals;
  /**
   * Taxable value net of GST, as the tax documents issued in the period say it: invoices less credit notes.
   * A shop without a GSTIN issues none, so it reads 0 there.
   */
  taxable: { invoicedPaise: Paise; creditedPaise: Paise; netPaise: Paise };
  byDay: { date: string; orders: number; salesPaise: Paise }[];
  /** Top products and combos by revenue (their lines' value before the order's discount). */
  items: { itemId: string; kind: "product" | "combo"; name: string; units: number; revenuePaise: Paise }[];
  states: { state: string; orders: number; salesPaise: Paise }[];
  customers: { customers: number; newCustomers: number; returning: number; repeatRatePercent: number };
  payments: { method: "cod" | "razorpay"; orders: number; salesPaise: Paise }[];
  codes: { code: string; orders: number; discountPaise: Paise; salesPaise: Paise }[];
  /**
   * Money given back in the period, from the ledger (docs/decisions/075, 088): refunds of sales, online (a whole
   * order or the difference of an edit) and by hand for cash; and, apart, payments that arrived when their order
   * could no longer take them and went back whole (never a sale). Orders: distinct orders in each.
   */
  refunds: {
    orders: number;
    amountPaise: Paise;
    online: RefundRow;
    byHand: RefundRow;
    latePayments: RefundRow;
  };
  creditNotes: { count: number; totalPaise: Paise };
};

/** Refunds of one kind in a period: how many orders they touched and how much went back. */
export type RefundRow = { orders: number; amountPaise: Paise };

/** What the dashboard shows of sales to this person: the figures, or why not. */
export type SalesAnswer =
  | { visible: true; figures: SalesFigures; staffSeeSales: boolean; canShare: boolean }
  | { visible: false };

export const analyticsSettingsSchema = z.object({ staffSeeSales: z.boolean() }).strict();
export type AnalyticsSettings = z.infer<typeof analyticsSettingsSchema>;

/**
 * The refunds table, as the page and its CSV show it: refunds of sales by way, then credit notes, then late
 * payments returned (apart, since they were never sales).
 */
export function refundRowsOf(figures: SalesFigures): { label: string; orders: number; amountPaise: Paise }[] {
  return [
    { label: "Refunded online", ...figures.refunds.online },
    { label: "Refunded by hand (cash orders)", ...figures.refunds.byHand },
    {
      label: "All refunds of sales",
      orders: figures.refunds.orders,
      amountPaise: figures.refunds.amountPaise,
    },
    {
      label: "Credit notes issued",
      orders: figures.creditNotes.count,
      amountPaise: figures.creditNotes.totalPaise,
    },
    { label: "Late payments returned whole (not sales)", ...figures.refunds.latePayments },
  ];
}

/** A change against the period before, in whole percent; null when there was nothing before to compare. */
export function changePercent(now: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((now - before) * 100) / before);
}

/** Returns to origin of one group (a state, a PIN's first three digits): rate in parcels per thousand shipped. */
export type RtoRow = {
  key: string;
  shipped: number;
  returned: number;
  ratePerMille: number;
  costPaise: Paise;
};

/** After the order, for the period of the sales figures (docs/decisions/080). */
export type AfterTheOrder = {
  period: SalesFigures["period"];
  rto: {
    shipped: number;
    returned: number;
    ratePerMille: number;
    costPaise: Paise;
    byState: RtoRow[];
    byPinPrefix: RtoRow[];
  };
  /** COD orders placed in the period that were asked to confirm, by how the question ended. */
  confirmations: {
    confirmed: number;
    refused: number;
    lapsed: number;
    cancelledByStaff: number;
    waiting: number;
  };
  /** COD orders delivered in the period: the cash they should bring and what is recorded as collected. */
  cash: { deliveredOrders: number; expectedPaise: Paise; collectedOrders: number; collectedPaise: Paise };
};
