import { beforeAll, describe, expect, it } from "vitest";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { insertOrderRow } from "../../tests/orders.ts";
import { codRemittances, orderEvents, orderRto, type orders } from "../db/schema.ts";
import { afterTheOrder } from "./after-order.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let staff: TestAccount;
const api = apiCaller(shop, () => owner);

/** Noon in India on 15 March 2026; the period is 9-15 March. */
const NOW = new Date("2026-03-15T06:30:00Z");
const ist = (day: string) => new Date(`${day}T12:00:00+05:30`);
let sequence = 0;

async function order(o: {
  method?: "cod" | "razorpay";
  status: (typeof orders.$inferInsert)["status"];
  state?: string;
  pin?: string;
  placed?: string;
  shipped?: string;
  delivered?: string;
  asked?: boolean;
  totalPaise?: number;
}) {
  return insertOrderRow(shop.db, {
    number: `PN-AFTER-${++sequence}`,
    status: o.status,
    paymentMethod: o.method ?? "cod",
    totalPaise: o.totalPaise,
    shipState: o.state,
    shipPin: o.pin,
    codConfirmBy: o.asked ? ist("2026-03-16") : null,
    shippedAt: o.shipped ? ist(o.shipped) : null,
    deliveredAt: o.delivered ? ist(o.delivered) : null,
    createdAt: ist(o.placed ?? "2026-03-10"),
  });
}

const rto = (orderId: string, forwardPaise: number, returnPaise: number) =>
  shop.db
    .insert(orderRto)
    .values({ orderId, source: "tracking", forwardPaise, returnPaise, recordedAt: NOW });

const moved = (orderId: string, to: "confirmed" | "cancelled", actor: "customer" | "system" | "admin") =>
  shop.db
    .insert(orderEvents)
    .values({ orderId, fromStatus: "placed", toStatus: to, actor, createdAt: ist("2026-03-11") });

beforeAll(async () => {
  ({ owner, staff } = await signUpOwnerStaffAndCustomer(shop, "after"));
  // Shipped in the period: four to Karnataka (560..., one back), two to Bihar (800..., both back), one earlier.
  for (let index = 0; index < 3; index++) await order({ status: "delivered", shipped: "2026-03-10" });
  await rto(await order({ status: "returned_to_origin", shipped: "2026-03-10" }), 6_000, 5_000);
  await rto(
    await order({ status: "returned_to_origin", state: "Bihar", pin: "800001", shipped: "2026-03-11" }),
    7_000,
    7_000,
  );
  await rto(
    await order({ status: "returned_to_origin", state: "Bihar", pin: "800020", shipped: "2026-03-12" }),
    7_000,
    7_000,
  );
  await rto(await order({ status: "returned_to_origin", state: "Bihar", shipped: "2026-02-01" }), 1, 1);

  // Asked to confirm, placed in the period: confirmed twice, refused, lapsed, cancelled by staff, waiting.
  await moved(await order({ status: "confirmed", asked: true }), "confirmed", "customer");
  await moved(await order({ status: "confirmed", asked: true }), "confirmed", "admin");
  await moved(await order({ status: "cancelled", asked: true }), "cancelled", "customer");
  await moved(await order({ status: "cancelled", asked: true }), "cancelled", "system");
  await moved(await order({ status: "cancelled", asked: true }), "cancelled", "admin");
  await order({ status: "placed", asked: true });
  await order({ status: "placed", asked: true, placed: "2026-03-01" }); // before the period

  // Cash: three COD orders delivered in the period, one collected; a prepaid one is not cash.
  const collected = await order({ status: "delivered", delivered: "2026-03-12", totalPaise: 40_000 });
  await order({ status: "delivered", delivered: "2026-03-13", totalPaise: 30_000 });
  await order({ status: "delivered", delivered: "2026-03-14", totalPaise: 20_000 });
  await order({ status: "delivered", method: "razorpay", delivered: "2026-03-14" });
  await shop.db.insert(codRemittances).values({
    orderId: collected,
    amountPaise: 40_000,
    collectedOn: "2026-03-14",
    reference: "UTR9",
    source: "import",
  });
}, 120_000);

describe("after the order", () => {
  it("counts returns to origin, their rate and cost, by state and by PIN prefix", async () => {
    const figures = await afterTheOrder(shop.db, { period: "7d" }, NOW);
    expect(figures.rto).toEqual({
      shipped: 6,
      returned: 3,
      ratePerMille: 500,
      costPaise: 11_000 + 14_000 + 14_000,
      byState: [
        { key: "Bihar", shipped: 2, returned: 2, ratePerMille: 1000, costPaise: 28_000 },
        { key: "Karnataka", shipped: 4, returned: 1, ratePerMille: 250, costPaise: 11_000 },
      ],
      byPinPrefix: [
        { key: "800", shipped: 2, returned: 2, ratePerMille: 1000, costPaise: 28_000 },
        { key: "560", shipped: 4, returned: 1, ratePerMille: 250, costPaise: 11_000 },
      ],
    });
  });

  it("tells how each COD confirmation ended, and cash collected against expected", async () => {
    const figures = await afterTheOrder(shop.db, { period: "7d" }, NOW);
    expect(figures.confirmations).toEqual({
      confirmed: 2,
      refused: 1,
      lapsed: 1,
      cancelledByStaff: 1,
      waiting: 1,
    });
    expect(figures.cash).toEqual({
      deliveredOrders: 3,
      expectedPaise: 90_000,
      collectedOrders: 1,
      collectedPaise: 40_000,
    });
  });

  it("is the owner's, and staff's only when shared", async () => {
    expect((await api("GET", "/admin/analytics/after-order?period=30d")).status).toBe(200);
    expect((await api("GET", "/admin/analytics/after-order", undefined, staff)).status).toBe(403);
    await api("PUT", "/admin/analytics/settings", { staffSeeSales: true });
    expect((await api("GET", "/admin/analytics/after-order", undefined, staff)).status).toBe(200);
  });
});
