import { z } from "zod";
import type { OrderStatus } from "../order-lifecycle.ts";

/**
 * Orders whose goods were supplied, or are being packed and sent, and so need a tax invoice. A cancelled
 * order was never supplied; a returned or refunded one would need its invoice and a credit note at once,
 * netting to nothing: both are left out (docs/decisions/060).
 */
export const INVOICE_DUE_STATUSES = [
  "confirmed",
  "packed",
  "shipped",
  "delivered",
  "return_requested",
] as const satisfies readonly OrderStatus[];

export const invoiceDue = (status: OrderStatus) =>
  (INVOICE_DUE_STATUSES as readonly string[]).includes(status);

/** Whether the shop's details allow a tax invoice, and what they lack ("GSTIN", "registered address"). */
export type SellerInvoiceStatus = { canIssue: boolean; missing: string[] };

export type MissedInvoiceOrder = {
  number: string;
  status: OrderStatus;
  shipName: string;
  totalPaise: number;
  /** When it was confirmed: the goods' time of supply. */
  confirmedAt: string;
};

export type MissedInvoices = SellerInvoiceStatus & { orders: MissedInvoiceOrder[]; total: number };

const orderNumber = z.string().regex(/^PN-\d{4}-\d{6,}$/, "is not an order number");

/** "Issue invoices": the orders named (one or a few), or every order still without one. */
export const issueMissedInvoicesSchema = z
  .object({
    orders: z.array(orderNumber).min(1).max(200).optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((body) => (body.orders === undefined) !== (body.all === undefined), {
    message: "give either orders (a list of order numbers) or all: true",
    path: ["orders"],
  });
export type IssueMissedInvoices = z.infer<typeof issueMissedInvoicesSchema>;
