import { describe, expect, it } from "vitest";
import {
  CANCEL_WINDOW_DAYS,
  checkTransition,
  type LifecycleOrder,
  nextStatuses,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  orderEventHeading,
  orderStatusLabel,
  RETURN_WINDOW_DAYS,
} from "./order-lifecycle.ts";

const placedAt = new Date("2026-03-02T10:00:00+05:30");
const hours = (n: number) => new Date(placedAt.getTime() + n * 3_600_000);
const order = (overrides: Partial<LifecycleOrder> = {}): LifecycleOrder => ({
  status: "placed",
  placedAt,
  deliveredAt: null,
  paidAt: null,
  hasPerishables: false,
  ...overrides,
});

describe("the transition table", () => {
  it("names only known statuses, and refunded is the end", () => {
    for (const [from, targets] of Object.entries(ORDER_TRANSITIONS)) {
      expect(ORDER_STATUSES).toContain(from);
      for (const to of Object.keys(targets)) expect(ORDER_STATUSES).toContain(to);
    }
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(ORDER_TRANSITIONS.refunded).toEqual({});
  });

  it("walks the happy path only in order, each step by staff; the shopper only confirms a placed order", () => {
    const path = ["placed", "confirmed", "packed", "shipped", "delivered"] as const;
    for (let index = 0; index < path.length - 1; index++) {
      const from = path[index] as (typeof path)[number];
      const to = path[index + 1] as (typeof path)[number];
      expect(checkTransition(order({ status: from }), to, "admin", hours(1))).toEqual({ ok: true });
      // docs/decisions/065: a cash-on-delivery order is confirmed by its shopper before it is packed.
      expect(checkTransition(order({ status: from }), to, "customer", hours(1)).ok).toBe(from === "placed");
    }
    for (const to of ["packed", "shipped"] as const) {
      const check = checkTransition(order({ status: "placed" }), to, "admin", hours(1));
      expect(check.ok).toBe(false);
      expect(check.ok ? "" : check.reason).toMatch(
        new RegExp(`^This cash-on-delivery order is not confirmed yet, so it cannot be ${to}`),
      );
    }
    expect(checkTransition(order({ status: "placed" }), "cancelled", "system", hours(1))).toEqual({
      ok: true,
    });
    expect(checkTransition(order({ status: "shipped" }), "cancelled", "admin", hours(1)).ok).toBe(false);
  });

  it("lets only the payment gateway confirm an unpaid order", () => {
    const unpaid = order({ status: "awaiting_payment" });
    expect(checkTransition(unpaid, "confirmed", "payment", hours(1)).ok).toBe(true);
    expect(checkTransition(unpaid, "confirmed", "admin", hours(1)).ok).toBe(false);
    expect(checkTransition(unpaid, "confirmed", "customer", hours(1)).ok).toBe(false);
    expect(checkTransition(unpaid, "cancelled", "system", hours(1)).ok).toBe(true);
  });
});

describe("cancelling", () => {
  it("is open to the customer until shipping, within the window", () => {
    for (const status of ["placed", "confirmed", "packed", "awaiting_payment"] as const) {
      expect(checkTransition(order({ status }), "cancelled", "customer", hours(2)).ok).toBe(true);
    }
    expect(checkTransition(order({ status: "shipped" }), "cancelled", "customer", hours(2)).ok).toBe(false);
    expect(checkTransition(order({ status: "delivered" }), "cancelled", "customer", hours(2)).ok).toBe(false);
  });

  it(`closes for the customer after ${CANCEL_WINDOW_DAYS} days, not for staff`, () => {
    const edge = CANCEL_WINDOW_DAYS * 24;
    expect(checkTransition(order(), "cancelled", "customer", hours(edge)).ok).toBe(true);
    const late = checkTransition(order(), "cancelled", "customer", hours(edge + 1));
    expect(late).toEqual({
      ok: false,
      reason: "Orders can be cancelled within 6 days of ordering. Please contact us.",
    });
    expect(checkTransition(order(), "cancelled", "admin", hours(edge + 100)).ok).toBe(true);
  });

  it("keeps perishable orders from being cancelled online once placed", () => {
    const perishable = order({ hasPerishables: true });
    const check = checkTransition(perishable, "cancelled", "customer", hours(1));
    expect(check.ok).toBe(false);
    expect(checkTransition(perishable, "cancelled", "admin", hours(1)).ok).toBe(true);
    // Nothing was paid or packed yet: walking away from an unpaid order is always possible.
    const unpaid = order({ status: "awaiting_payment", hasPerishables: true });
    expect(checkTransition(unpaid, "cancelled", "customer", hours(1)).ok).toBe(true);
  });
});

describe("returns and refunds", () => {
  const deliveredAt = hours(96);
  const delivered = order({ status: "delivered", deliveredAt });

  it(`can be requested within ${RETURN_WINDOW_DAYS} days of delivery`, () => {
    const edge = 96 + RETURN_WINDOW_DAYS * 24;
    expect(checkTransition(delivered, "return_requested", "customer", hours(edge)).ok).toBe(true);
    expect(checkTransition(delivered, "return_requested", "customer", hours(edge + 1)).ok).toBe(false);
    expect(checkTransition(order({ status: "shipped" }), "return_requested", "customer", hours(1)).ok).toBe(
      false,
    );
  });

  it("is received, refunded, or declined by staff", () => {
    const requested = order({ status: "return_requested", deliveredAt });
    expect(nextStatuses(requested, "admin", hours(100)).sort()).toEqual(["delivered", "returned"]);
    expect(nextStatuses(requested, "customer", hours(100))).toEqual([]);
    expect(checkTransition(order({ status: "returned" }), "refunded", "admin", hours(200)).ok).toBe(true);
  });

  it("refunds a cancelled order only when something was paid", () => {
    expect(checkTransition(order({ status: "cancelled" }), "refunded", "admin", hours(2)).ok).toBe(false);
    expect(
      checkTransition(order({ status: "cancelled", paidAt: hours(0) }), "refunded", "admin", hours(2)).ok,
    ).toBe(true);
  });
});

describe("next statuses", () => {
  it("offers a customer only confirming or cancelling a fresh order", () => {
    expect(nextStatuses(order(), "customer", hours(1))).toEqual(["confirmed", "cancelled"]);
    expect(nextStatuses(order(), "admin", hours(1))).toEqual(["confirmed", "cancelled"]);
  });
});

describe("orderEventHeading", () => {
  it("names what changed when the status stayed, and the new status when it moved", () => {
    const same = { fromStatus: "confirmed", toStatus: "confirmed" } as const;
    expect(orderEventHeading({ ...same, kind: "address" })).toBe("Address changed");
    expect(orderEventHeading({ ...same, kind: "items" })).toBe("Items changed");
    expect(orderEventHeading({ ...same, kind: "invoice" })).toBe("Tax invoice issued");
    expect(orderEventHeading({ ...same, kind: "courier" })).toBe("Courier details changed");
    expect(orderEventHeading({ kind: "status", fromStatus: "placed", toStatus: "confirmed" })).toBe(
      "Confirmed",
    );
  });
});

describe("an order's status in words", () => {
  it("reads a parcel on its way back as coming back until it is back", () => {
    expect(orderStatusLabel("returned_to_origin")).toBe("Coming back to us");
    expect(orderStatusLabel("returned_to_origin", true)).toBe("Returned to us");
    expect(orderStatusLabel("delivered", true)).toBe("Delivered");
  });
});
