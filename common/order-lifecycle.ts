/**
 * The order lifecycle: every status, who may move an order from one to the next, and the policy
 * windows. The server refuses any change this table does not allow; the web app uses the same
 * functions to decide which buttons to show.
 */

export const ORDER_STATUSES = [
  "awaiting_payment",
  "placed",
  "confirmed",
  "packed",
  "shipped",
  "delivered",
  "cancelled",
  "return_requested",
  "returned",
  "returned_to_origin",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Who made a change: the shopper, staff, the payment gateway, or the shop itself (an unpaid order expiring). */
/** What the shopper is told about an order (by mail, and by SMS to an account made with a mobile). */
export type OrderMailKind =
  | "placed"
  | "shipped"
  | "delivered"
  | "cancelled"
  | "returned"
  | "refunded"
  | "link"
  | "out_for_delivery"
  | "undelivered"
  /** A tax invoice issued late, after the "shipped" mail that normally carries it went without it (decision 060). */
  | "invoice"
  /** A payment that could not be applied to the order was refunded in full (docs/decisions/075). */
  | "payment_returned";

export const ORDER_ACTORS = ["customer", "admin", "payment", "system"] as const;
export type OrderActor = (typeof ORDER_ACTORS)[number];

/**
 * What an order's history entry records: a move between statuses, or a change that leaves the status as it
 * was (the address, the items, an invoice issued late ...), which the history names rather than "Updated".
 */
export const ORDER_EVENT_KINDS = [
  "status",
  "address",
  "items",
  "invoice",
  "courier",
  "parcel_booked",
  "delivery_attempt",
  "payment",
  "parcel_back",
  "message",
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/** The history's heading of an entry that leaves the status as it was, before "by …". */
export const EVENT_KIND_LABELS: Record<Exclude<OrderEventKind, "status">, string> = {
  address: "Address changed",
  items: "Items changed",
  invoice: "Tax invoice issued",
  courier: "Courier details changed",
  parcel_booked: "Parcel booked",
  delivery_attempt: "Failed delivery answered",
  payment: "Payment received",
  parcel_back: "Parcel received back",
  message: "Message not delivered",
};

/**
 * An order history entry's heading, before "by …": a move names its new status, a change that keeps the
 * status names what changed ("Address changed"); only entries older than the kinds say "Updated".
 */
export function orderEventHeading(event: {
  kind: OrderEventKind;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
}): string {
  if (event.kind !== "status") return EVENT_KIND_LABELS[event.kind];
  return event.fromStatus === event.toStatus ? "Updated" : STATUS_LABELS[event.toStatus];
}

export const STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: "Awaiting payment",
  placed: "Placed",
  confirmed: "Confirmed",
  packed: "Packed",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
  return_requested: "Return requested",
  returned: "Returned",
  // The status is entered when the courier starts the return (or staff record it), long before the parcel is
  // back: orderStatusLabel says "Returned to us" once it is.
  returned_to_origin: "Coming back to us",
  refunded: "Refunded",
};

/**
 * An order's status as the shopper and staff read it: a parcel on its way back reads "Coming back to us" until
 * the courier has delivered it back or staff have received it (`parcelBack`).
 */
export function orderStatusLabel(status: OrderStatus, parcelBack = false) {
  return status === "returned_to_origin" && parcelBack ? "Returned to us" : STATUS_LABELS[status];
}

/** What the change is called on a button or in an error: "cannot be shipped". */
export const TRANSITION_VERBS: Record<OrderStatus, string> = {
  awaiting_payment: "put back to awaiting payment",
  placed: "placed",
  confirmed: "confirmed",
  packed: "packed",
  shipped: "shipped",
  delivered: "delivered",
  cancelled: "cancelled",
  return_requested: "returned",
  returned: "marked returned",
  returned_to_origin: "marked returned to origin",
  refunded: "refunded",
};

/**
 * The one table of allowed changes: from a status, to a status, by whom.
 * return_requested -> delivered is staff declining a return request.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, Partial<Record<OrderStatus, readonly OrderActor[]>>> = {
  awaiting_payment: { confirmed: ["payment"], cancelled: ["customer", "admin", "system"] },
  // A cash-on-delivery order is confirmed by its shopper (the link, WhatsApp) or by staff who called them, and
  // cancelled by the shop when nobody confirmed it in time (docs/decisions/065).
  placed: { confirmed: ["customer", "admin"], cancelled: ["customer", "admin", "system"] },
  confirmed: { packed: ["admin"], cancelled: ["customer", "admin"] },
  // "system": a courier aggregator's scans ship and deliver a booked parcel (docs/decisions/052).
  packed: { shipped: ["admin", "system"], cancelled: ["customer", "admin"] },
  // shipped -> returned_to_origin: the parcel refused or undeliverable, coming back at the shop's cost (by hand,
  // or from the courier's RTO scans). Its stock comes back when staff mark it received (docs/decisions/062).
  shipped: { delivered: ["admin", "system"], returned_to_origin: ["admin", "system"] },
  delivered: { return_requested: ["customer", "admin"] },
  return_requested: { returned: ["admin"], delivered: ["admin"] },
  returned: { refunded: ["admin"] },
  returned_to_origin: { refunded: ["admin"] },
  cancelled: { refunded: ["admin"] },
  refunded: {},
};

/**
 * The policy says 6-8 days for cancelling after ordering and for reporting a problem after delivery.
 * The shop binds itself to the shorter end: 6 full days (144 hours) from the moment of ordering or delivery.
 */
export const CANCEL_WINDOW_DAYS = 6;
export const RETURN_WINDOW_DAYS = 6;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The order as the rules need to see it. */
export type LifecycleOrder = {
  status: OrderStatus;
  placedAt: Date;
  deliveredAt: Date | null;
  paidAt: Date | null;
  hasPerishables: boolean;
};

export type TransitionCheck = { ok: true } | { ok: false; reason: string };

export function checkTransition(
  order: LifecycleOrder,
  to: OrderStatus,
  actor: OrderActor,
  now: Date,
): TransitionCheck {
  const allowedActors = ORDER_TRANSITIONS[order.status][to];
  if (order.status === "placed" && (to === "packed" || to === "shipped")) {
    return {
      ok: false,
      reason: `This cash-on-delivery order is not confirmed yet, so it cannot be ${TRANSITION_VERBS[to]}: the shopper confirms it from their link, or call them and confirm it from "To confirm".`,
    };
  }
  if (!allowedActors) {
    return {
      ok: false,
      reason: `An order that is ${STATUS_LABELS[order.status].toLowerCase()} cannot be ${TRANSITION_VERBS[to]}.`,
    };
  }
  if (!allowedActors.includes(actor)) {
    return { ok: false, reason: `This order cannot be ${TRANSITION_VERBS[to]} from here.` };
  }
  if (to === "cancelled" && actor === "customer") {
    if (order.hasPerishables && order.status !== "awaiting_payment") {
      return {
        ok: false,
        reason:
          "Orders with perishable food items cannot be cancelled online. Please contact us if there is a quality issue.",
      };
    }
    if (now.getTime() - order.placedAt.getTime() > CANCEL_WINDOW_DAYS * DAY_MS) {
      return {
        ok: false,
        reason: `Orders can be cancelled within ${CANCEL_WINDOW_DAYS} days of ordering. Please contact us.`,
      };
    }
  }
  if (to === "return_requested" && actor === "customer") {
    const deliveredAt = order.deliveredAt ?? order.placedAt;
    if (now.getTime() - deliveredAt.getTime() > RETURN_WINDOW_DAYS * DAY_MS) {
      return {
        ok: false,
        reason: `Returns can be requested within ${RETURN_WINDOW_DAYS} days of delivery. Please contact us.`,
      };
    }
  }
  if (
    to === "refunded" &&
    (order.status === "cancelled" || order.status === "returned_to_origin") &&
    !order.paidAt
  ) {
    return { ok: false, reason: "Nothing was paid for this order, so there is nothing to refund." };
  }
  return { ok: true };
}

/**
 * Changes made only by an action of their own, never offered as a plain status button: a shipped order is
 * returned to origin by the "Returned to origin" form, which records what the parcel cost both ways
 * (docs/decisions/062).
 */
const OWN_ACTION_ONLY: Partial<Record<OrderStatus, readonly OrderStatus[]>> = {
  shipped: ["returned_to_origin"],
};

/** The statuses an actor could move the order to now (for buttons). */
export function nextStatuses(order: LifecycleOrder, actor: OrderActor, now: Date): OrderStatus[] {
  return (Object.keys(ORDER_TRANSITIONS[order.status]) as OrderStatus[]).filter(
    (to) => !OWN_ACTION_ONLY[order.status]?.includes(to) && checkTransition(order, to, actor, now).ok,
  );
}

/** The happy path, for the progress line on My Orders. */
export const ORDER_PROGRESS: readonly OrderStatus[] = [
  "placed",
  "confirmed",
  "packed",
  "shipped",
  "delivered",
];

/** Statuses in which the order still counts as a sale (for revenue). */
export const SALE_STATUSES: readonly OrderStatus[] = [
  "placed",
  "confirmed",
  "packed",
  "shipped",
  "delivered",
  "return_requested",
];
