/**
 * Parcels and their journey, as both the admin and the shopper's order page show them (docs/decisions/052).
 */

import { formatDate, startOfIndianDay } from "./india-time.ts";

/** A parcel as an aggregator prices it: grams and whole centimetres. */
export type Parcel = { weightGrams: number; lengthCm: number; breadthCm: number; heightCm: number };

/** Where a parcel is, in the shop's words; an aggregator's own labels are mapped onto these. */
export const SHIPMENT_STATUSES = [
  "booked",
  "pickup_scheduled",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "undelivered",
  "rto_initiated",
  "rto_delivered",
  "cancelled",
  "lost",
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const SHIPMENT_STATUS_LABELS: Record<ShipmentStatus, string> = {
  booked: "Booked",
  pickup_scheduled: "Pickup scheduled",
  picked_up: "Picked up",
  in_transit: "In transit",
  out_for_delivery: "Out for delivery",
  delivered: "Delivered",
  undelivered: "Delivery attempt failed",
  rto_initiated: "Returning to us",
  rto_delivered: "Returned to us",
  cancelled: "Cancelled",
  lost: "Lost",
};

/**
 * Aggregator labels that are steps on the shop's side rather than parcel statuses (Shiprocket's status table:
 * AWB ASSIGNED, LABEL GENERATED, MANIFEST GENERATED, ...), in the shop's words for the parcel journey.
 */
const AGGREGATOR_STEP_WORDS: Record<string, string> = {
  NEW: "Booked",
  "AWB ASSIGNED": "Courier assigned",
  "LABEL GENERATED": "Label ready",
  "PICKUP GENERATED": "Pickup requested",
  "PICKUP QUEUED": "Pickup requested",
  "MANIFEST GENERATED": "Ready for the courier to collect",
  "PICKUP ERROR": "Pickup not arranged yet",
  "PICKUP EXCEPTION": "Pickup delayed",
  "OUT FOR PICKUP": "Courier on the way to collect",
  "REACHED WAREHOUSE": "At the courier's hub",
  "IN FLIGHT": "In transit",
};

/**
 * One scan's headline: the shop's word for its status, else for the aggregator's step, else the aggregator's
 * label in sentence case (never shouted in capitals), else what the courier wrote.
 */
export function scanHeadline(scan: Pick<ShipmentView["scans"][number], "label" | "status" | "activity">) {
  if (scan.status) return SHIPMENT_STATUS_LABELS[scan.status];
  const label = scan.label.trim().replace(/_/g, " ").replace(/\s+/g, " ");
  const known = AGGREGATOR_STEP_WORDS[label.toUpperCase()];
  if (known) return known;
  if (!label) return scan.activity || "Update from the courier";
  const lower = label.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/**
 * The courier's pickup day as the shop writes dates ("27 Nov 2026"). The aggregator sends "2026-11-27 10:00:00"
 * in Indian time without a zone; the hour is its placeholder, so only the day is shown.
 */
export function formatPickupDay(scheduledFor: string) {
  const day = scheduledFor.trim().match(/^(\d{4}-\d{2}-\d{2})/)?.[1];
  const start = day ? startOfIndianDay(day) : null;
  return start && !Number.isNaN(start.getTime()) ? formatDate(start) : scheduledFor;
}

/** Statuses after which nothing more happens to a parcel, so the shop stops asking after it. */
export const FINAL_SHIPMENT_STATUSES: readonly ShipmentStatus[] = [
  "delivered",
  "rto_delivered",
  "cancelled",
  "lost",
];

/**
 * The packing rule: the goods' weights plus the box and filling, in a box as long and wide as the largest item
 * and as tall as the items stacked. Couriers charge the larger of this weight and the box's volumetric weight,
 * so an honest box matters as much as the grams.
 */
export const PACKAGING_GRAMS = 150;
/** Couriers' smallest box; an item with no size set is taken to fit in it. */
export const SMALLEST_BOX_CM = { length: 10, breadth: 10, height: 5 };
/** A parcel is not stacked taller than this; more goes side by side (the breadth doubles instead). */
const MAX_HEIGHT_CM = 40;

export type PackedItem = {
  name: string;
  quantity: number;
  weightGrams: number | null;
  lengthCm: number | null;
  breadthCm: number | null;
  heightCm: number | null;
};

/** The shop's default parcel: the weight and box of an item that has none of its own (docs/decisions/086). */
export type DefaultItemSize = {
  weightGrams: number | null;
  lengthCm: number | null;
  breadthCm: number | null;
  heightCm: number | null;
};

/**
 * The parcel for an order's items, with the names of those packed by the shop's default (no weight of their
 * own); or, when there is no default weight either, the names of the items whose weight is not set yet.
 * `weighedGrams`: staff weighed the packed parcel, and that stands for its weight (its box is still packed
 * from the items' sizes).
 */
export function packParcel(
  given: PackedItem[],
  { fallback = null, weighedGrams }: { fallback?: DefaultItemSize | null; weighedGrams?: number } = {},
): { parcel: Parcel; byDefault: string[] } | { missingWeight: string[] } {
  const unweighed = given.filter((item) => !item.weightGrams).map((item) => item.name);
  if (unweighed.length && !fallback?.weightGrams && !weighedGrams) return { missingWeight: unweighed };
  let weightGrams = PACKAGING_GRAMS;
  let lengthCm = SMALLEST_BOX_CM.length;
  let breadthCm = SMALLEST_BOX_CM.breadth;
  let heightCm = 0;
  for (const item of given) {
    // An item with no weight of its own is packed as the default parcel, in its box where it has none.
    const size = item.weightGrams ? item : { ...item, ...fallback, ...sizeOf(item) };
    weightGrams += (size.weightGrams ?? 0) * item.quantity;
    lengthCm = Math.max(lengthCm, size.lengthCm ?? SMALLEST_BOX_CM.length);
    breadthCm = Math.max(breadthCm, size.breadthCm ?? SMALLEST_BOX_CM.breadth);
    heightCm += (size.heightCm ?? SMALLEST_BOX_CM.height) * item.quantity;
  }
  while (heightCm > MAX_HEIGHT_CM) {
    heightCm = Math.ceil(heightCm / 2);
    breadthCm *= 2;
  }
  return {
    parcel: {
      weightGrams: weighedGrams ?? weightGrams,
      lengthCm,
      breadthCm,
      heightCm: Math.max(heightCm, SMALLEST_BOX_CM.height),
    },
    byDefault: weighedGrams ? [] : unweighed,
  };
}

/** The dimensions an item has of its own (those it lacks are left out, for the default's to stand). */
function sizeOf(item: PackedItem) {
  return Object.fromEntries(
    (["lengthCm", "breadthCm", "heightCm"] as const)
      .filter((key) => item[key] !== null)
      .map((key) => [key, item[key]]),
  );
}

/** A parcel's journey as the API shows it (the shopper sees no charges or weight). */
export type ShipmentView = {
  service: string;
  status: ShipmentStatus;
  courier: string | null;
  awb: string | null;
  /** The order id the aggregator knows the parcel by. */
  reference: string | null;
  chargesPaise: number | null;
  rtoChargesPaise: number | null;
  /** The cash the courier was told to collect, exactly as sent; null for a prepaid parcel. */
  codAmountPaise: number | null;
  manifestUrl: string | null;
  weightGrams: number | null;
  pickupScheduledFor: string | null;
  ndr: {
    state: "open" | "reattempt_requested" | "return_requested" | "closed";
    reason: string | null;
    note: string | null;
  } | null;
  /** The shopper's answer to the last failed delivery, if they gave one. */
  request: DeliveryRequest | null;
  receivedBack: boolean;
  scans: { at: string; label: string; activity: string; location: string; status: ShipmentStatus | null }[];
};

/**
 * A shopper's answer to a failed delivery: the day, the corrected address or mobile, when, and what became of it
 * (`asking`: the aggregator is being asked; `sent`: it took it; `refused`: it did not, and the shop passes it on
 * by hand; `passed_on`: staff did). `courierSaid` is the aggregator's refusal in its own words, for staff only.
 */
export type DeliveryRequest = {
  day: string | null;
  line1: string | null;
  line2: string | null;
  phone: string | null;
  at: string;
  outcome: "asking" | "sent" | "refused" | "passed_on";
  courierSaid: string | null;
};

/** A courier offered for a parcel, cheapest and fastest marked. */
export type CourierChoice = {
  courierId: string;
  name: string;
  ratePaise: number;
  estimatedDays: number | null;
  etd: string | null;
  cheapest: boolean;
  fastest: boolean;
};

/** A failed delivery still waiting for someone's choice. */
export const ndrWaiting = (shipment: Pick<ShipmentView, "status" | "ndr">) =>
  shipment.status === "undelivered" && shipment.ndr?.state === "open";
