import { z } from "zod";
import { isoDay } from "./cod.ts";
import { plainText } from "./schemas/text.ts";

/**
 * Parcels returned to origin (RTO, docs/decisions/062): what staff send to record one, and the admin's figures
 * of the RTO rate by PIN, district, state and customer over a period. Money in paise.
 */

const paise = z
  .number()
  .int("must be whole paise")
  .min(0, "must be 0 or more")
  .max(10_000_000, "is too large");

export const recordRtoSchema = z
  .object({
    forwardPaise: paise,
    returnPaise: paise,
    note: plainText().trim().max(300, "must be at most 300 characters").optional(),
  })
  .strict();
export type RecordRto = z.infer<typeof recordRtoSchema>;

export const RTO_GROUPS = ["pin", "district", "state", "customer"] as const;
export type RtoGroup = (typeof RTO_GROUPS)[number];
export const RTO_GROUP_LABELS: Record<RtoGroup, string> = {
  pin: "PIN code",
  district: "District",
  state: "State",
  customer: "Customer",
};

export const rtoStatsQuerySchema = z
  .object({
    from: isoDay.optional(),
    to: isoDay.optional(),
    by: z.enum(RTO_GROUPS, { error: "must be pin, district, state or customer" }).default("pin"),
  })
  .strict()
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["from"],
    message: "must not be after to",
  });

/** Each list shows the places or customers with the most parcels back, at most this many. */
export const RTO_LIST_LIMIT = 100;

export type RtoFigures = {
  /** Parcels shipped in the period (cash on delivery and prepaid), and of those, returned to origin. */
  shipped: number;
  returned: number;
  /** Per thousand, rounded, so the browser divides nothing: 263 is 26.3%. */
  ratePerMille: number;
  costPaise: number;
};

export type RtoStats = {
  from: string;
  to: string;
  by: RtoGroup;
  total: RtoFigures;
  cod: RtoFigures;
  prepaid: RtoFigures;
  rows: (RtoFigures & { key: string; label: string })[];
  /** How many groups had a parcel back; rows holds the first RTO_LIST_LIMIT by parcels back. */
  groups: number;
};

export type OrderRtoView = {
  source: "manual" | "tracking";
  forwardPaise: number;
  returnPaise: number;
  recordedAt: string;
  receivedAt: string | null;
};

export const formatPerMille = (perMille: number) => `${(perMille / 10).toFixed(1)}%`;
