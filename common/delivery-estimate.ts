import { addDays } from "date-fns/addDays";
import { format } from "date-fns/format";
import { isSunday } from "date-fns/isSunday";
import { parseISO } from "date-fns/parseISO";
import { indianWallClock } from "./india-time.ts";

/** The policy: handed to the courier within 3-5 days of ordering. */
export const HANDOVER_DAYS = { min: 3, max: 5 } as const;
/** Courier transit within India, from the couriers' published service levels (metros sooner, remote areas later). */
export const TRANSIT_DAYS = { min: 2, max: 4 } as const;

/** The calendar date in India (UTC+5:30 all year) of a moment, as a local-noon Date so adding days never slips across midnight. */
function indianCalendarDate(moment: Date): Date {
  const shifted = indianWallClock(moment);
  return new Date(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate(), 12);
}

/** Couriers do not deliver on Sundays. */
const skipSunday = (date: Date) => (isSunday(date) ? addDays(date, 1) : date);

export type DeliveryEstimate = { from: string; to: string };

/** The window in which an order placed at `placedAt` should arrive, as yyyy-MM-dd dates. */
export function estimateDelivery(placedAt: Date): DeliveryEstimate {
  const day = indianCalendarDate(placedAt);
  const from = skipSunday(addDays(day, HANDOVER_DAYS.min + TRANSIT_DAYS.min));
  const to = skipSunday(addDays(day, HANDOVER_DAYS.max + TRANSIT_DAYS.max));
  return { from: format(from, "yyyy-MM-dd"), to: format(to, "yyyy-MM-dd") };
}

/** "Sat, 7 Mar" */
export const formatEstimateDate = (date: string) => format(parseISO(date), "EEE, d MMM");

/** "Sat, 7 Mar – Wed, 11 Mar" */
export const formatEstimate = (estimate: DeliveryEstimate) =>
  `${formatEstimateDate(estimate.from)} – ${formatEstimateDate(estimate.to)}`;
