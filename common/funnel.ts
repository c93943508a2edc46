import { z } from "zod";
import type { SalesPeriod } from "./analytics.ts";

/**
 * The funnel's steps, in order (docs/decisions/090): a session (one visitor on one India day) that viewed a
 * product or combo, added to the cart, reached checkout, placed an order, and paid for it.
 */
export const FUNNEL_STEPS = ["viewed", "added", "checkout", "ordered", "paid"] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** What each step is called on the page and in the CSV file. */
export const FUNNEL_STEP_LABELS: Record<FunnelStep, string> = {
  viewed: "Viewed a product",
  added: "Added to cart",
  checkout: "Reached checkout",
  ordered: "Placed an order",
  paid: "Paid",
};

export type FunnelCounts = Record<FunnelStep, number>;

export type FunnelFigures = {
  /** The days shown (India's, inclusive), as "Sales at a glance" reads them from the same query. */
  period: { key: SalesPeriod; from: string; to: string; days: number };
  /** Sessions at each step over the whole period: the sum of the days'. */
  totals: FunnelCounts;
  byDay: ({ date: string } & FunnelCounts)[];
  /** Whether the shop counts visits now (the owner's switch), and whether this person may turn it. */
  counting: boolean;
  canSwitch: boolean;
};

/**
 * The share of one step's sessions that did not reach the next, in whole percent; null when nobody reached the
 * step. It can be negative: a step counts the sessions that did it that day, and a shopper may come back to
 * a cart filled on another day (or another device) and go straight to checkout.
 */
export function dropPercent(from: number, to: number): number | null {
  if (from === 0) return null;
  return Math.round(((from - to) / from) * 100);
}

export const funnelSettingsSchema = z.object({ counting: z.boolean() }).strict();
export type FunnelSettings = z.infer<typeof funnelSettingsSchema>;

export const funnelCsvParamSchema = z
  .object({ file: z.enum(["days.csv"], { error: "must be days.csv" }) })
  .strict();
