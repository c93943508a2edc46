import { z } from "zod";
import { plainText } from "./schemas/text.ts";

/**
 * Cash on delivery counted (docs/decisions/059): what staff send to record cash, what the import answers,
 * and the figures of the "Cash on delivery" admin page. Money is integer paise throughout.
 */

/** A delivered COD order whose cash has not been recorded this many days after delivery is overdue. */
export const COD_OVERDUE_DAYS = 10;

/** How a refund of a cash-on-delivery order reached the shopper (no gateway carries it back). */
export const COD_REFUND_METHODS = ["upi", "bank_transfer", "cash", "store_credit"] as const;
export type CodRefundMethod = (typeof COD_REFUND_METHODS)[number];
export const COD_REFUND_METHOD_LABELS: Record<CodRefundMethod, string> = {
  upi: "UPI",
  bank_transfer: "Bank transfer",
  cash: "Cash",
  store_credit: "Store credit",
};

/** A real calendar day as YYYY-MM-DD, between the years 2000 and 2999. */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-03-02")
  .refine((value) => realDay(value), "must be a real date like 2026-03-02");

function realDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  const year = Number(value.slice(0, 4));
  return year >= 2000 && year <= 2999 && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}

export const recordCashSchema = z
  .object({
    amountPaise: z.number().int().positive().max(100_000_000),
    collectedOn: isoDay,
    reference: plainText().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  })
  .strict();
export type RecordCash = z.infer<typeof recordCashSchema>;

/** The remittance report as text; 900,000 characters is some 12,000 rows, under the 1 MB body limit, more than a courier remits in a month. */
export const importRemittanceSchema = z
  .object({
    // The shop's one text rule, multi-line: a NUL or a broken character would only fail later, in PostgreSQL.
    csv: plainText({ multiline: true })
      .min(1, "is required")
      .max(900_000, "must be at most 900,000 characters"),
  })
  .strict();

export const codSummaryQuerySchema = z.object({ from: isoDay.optional(), to: isoDay.optional() }).strict();

export const REMITTANCE_PROBLEMS = [
  "invalid_row",
  "unknown_order",
  "not_cod",
  "not_delivered",
  "amount_differs",
  "already_collected",
] as const;
export type RemittanceProblem = (typeof REMITTANCE_PROBLEMS)[number];

export const REMITTANCE_PROBLEM_LABELS: Record<RemittanceProblem, string> = {
  invalid_row: "Row not readable",
  unknown_order: "No such order or AWB",
  not_cod: "Not a cash-on-delivery order",
  not_delivered: "Not delivered yet",
  amount_differs: "Amount differs",
  already_collected: "Already collected",
};

/** One row of an import's answer; `line` is the row's line in the file (the header is line 1). */
export type RemittanceRowResult = {
  line: number;
  key: string;
  orderNumber: string | null;
  amountPaise: number | null;
  expectedPaise: number | null;
  problem: RemittanceProblem | null;
  message: string;
};

export type RemittanceImportResult = {
  matched: RemittanceRowResult[];
  mismatched: RemittanceRowResult[];
  recordedPaise: number;
};

export type CodOrderRow = {
  number: string;
  shipName: string;
  shipPin: string;
  totalPaise: number;
  deliveredAt: string;
  awb: string | null;
};

export type CodCollectedRow = {
  number: string;
  shipName: string;
  amountPaise: number;
  collectedOn: string;
  reference: string;
  source: "manual" | "import";
};

export type CodSummary = {
  from: string;
  to: string;
  overdueDays: number;
  expected: { count: number; totalPaise: number; orders: CodOrderRow[] };
  overdue: { count: number; totalPaise: number; orders: CodOrderRow[] };
  collected: { count: number; totalPaise: number; rows: CodCollectedRow[] };
};

/** The cash recorded for one order, as the admin order page shows it. */
export type CodCash = {
  amountPaise: number;
  collectedOn: string;
  reference: string;
  source: "manual" | "import";
};

/** "1,199", "₹1199.50", "1199.5" as paise; null when it is not a plain amount in rupees. */
export function parseRupeesToPaise(text: string): number | null {
  const plain = text.replace(/[₹,\s]/g, "").replace(/^(Rs\.?|INR)/i, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(plain)) return null;
  const [rupees = "0", fraction = ""] = plain.split(".");
  return Number(rupees) * 100 + Number(fraction.padEnd(2, "0"));
}

/**
 * A remittance report's date as 2026-03-02: couriers write it ISO (2026-03-02, maybe with a time after it)
 * or Indian style, day first (02-03-2026, 02/03/2026). Null when it is neither, or not a real day.
 */
export function parseRemittanceDate(text: string): string | null {
  const value = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T].*)?$/.exec(value);
  const indian = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:\s.*)?$/.exec(value);
  let day: string | null = null;
  if (iso) day = `${iso[1]}-${iso[2]}-${iso[3]}`;
  else if (indian) day = `${indian[3]}-${indian[2]?.padStart(2, "0")}-${indian[1]?.padStart(2, "0")}`;
  return day && realDay(day) ? day : null;
}
