import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setUpTestApp } from "../../tests/database.ts";
import { insertOrderRow } from "../../tests/orders.ts";
import { moneyLedger, orders } from "../db/schema.ts";
import { orderMoney, orderWithPayment } from "./ledger.ts";

const shop = setUpTestApp();
let sequence = 0;

/** An order written directly, as the shop's own paths would leave it before any money moved. */
async function order(paymentMethod: "cod" | "razorpay", status: "placed" | "awaiting_payment" = "placed") {
  return insertOrderRow(shop.db, {
    number: `PN-LEDGER-${String(++sequence).padStart(4, "0")}`,
    status,
    paymentMethod,
    shipName: "Asha Rao",
    shipCity: "Bengaluru",
    estimatedDeliveryFrom: "2026-12-10",
    estimatedDeliveryTo: "2026-12-12",
  });
}

const capture = (orderId: string, amountPaise: number, paymentId = `pay_${randomUUID().slice(0, 14)}`) => ({
  orderId,
  kind: "online_payment" as const,
  amountPaise,
  razorpayPaymentId: paymentId,
});

/** The database's own answer to a transaction: committed, or refused by the ledger's check at commit. */
async function commit(
  work: (tx: Parameters<Parameters<typeof shop.db.transaction>[0]>[0]) => Promise<unknown>,
) {
  try {
    await shop.db.transaction(async (tx) => {
      await work(tx);
    });
    return "committed";
  } catch (error) {
    const cause = (error as { cause?: { constraint?: string } }).cause ?? (error as { constraint?: string });
    return cause.constraint === "money_adds_up" ? "refused" : String(error);
  }
}

describe("the money ledger: one record of what was paid (docs/decisions/075, 091)", () => {
  it("is the only record: the order row keeps no payment of its own", async () => {
    const { rows } = await shop.db.execute<{ column_name: string }>(sql`
      select column_name from information_schema.columns
      where table_name = 'orders' and column_name in ('paid_at', 'razorpay_payment_id')`);
    expect(rows).toEqual([]);
  });

  it("says an order is paid, when and by which payment, from its applied capture alone", async () => {
    const id = await order("razorpay", "awaiting_payment");
    const read = async () =>
      (await shop.db.select(orderWithPayment).from(orders).where(eq(orders.id, id)))[0];
    expect(await read()).toMatchObject({ paidAt: null, razorpayPaymentId: null });

    const at = new Date("2026-12-05T06:30:00.000Z");
    // A payment that could not be applied does not make the order paid.
    expect(
      await commit((tx) =>
        tx
          .insert(moneyLedger)
          .values({ ...capture(id, 50_000, "pay_NotApplied001"), applied: false, createdAt: at }),
      ),
    ).toBe("committed");
    expect(await read()).toMatchObject({ paidAt: null, razorpayPaymentId: null });

    expect(
      await commit(async (tx) => {
        await tx.insert(moneyLedger).values({ ...capture(id, 50_000, "pay_Applied00001"), createdAt: at });
        await tx.update(orders).set({ status: "confirmed" }).where(eq(orders.id, id));
      }),
    ).toBe("committed");
    expect(await read()).toMatchObject({
      status: "confirmed",
      paidAt: at,
      razorpayPaymentId: "pay_Applied00001",
    });
    expect((await orderMoney(shop.db, id)).paidOnlinePaise).toBe(50_000);
  });

  it("refuses at commit a payment applied to an order the courier is to collect cash for", async () => {
    const id = await order("cod");
    expect(await commit((tx) => tx.insert(moneyLedger).values(capture(id, 50_000)))).toBe("refused");
    // Switched to online in the same transaction, as "pay online instead" does: accepted.
    expect(
      await commit(async (tx) => {
        await tx.insert(moneyLedger).values(capture(id, 50_000));
        await tx
          .update(orders)
          .set({ paymentMethod: "razorpay", status: "confirmed" })
          .where(eq(orders.id, id));
      }),
    ).toBe("committed");
  });

  it("refuses a capture that is not the order's total, and a total changed without its refund", async () => {
    const id = await order("razorpay", "awaiting_payment");
    expect(await commit((tx) => tx.insert(moneyLedger).values(capture(id, 49_900)))).toBe("refused");
    const paymentId = "pay_WholeTotal01";
    expect(await commit((tx) => tx.insert(moneyLedger).values(capture(id, 50_000, paymentId)))).toBe(
      "committed",
    );
    // An edit that lowers the total must refund the difference in the same transaction.
    expect(
      await commit((tx) =>
        tx.update(orders).set({ subtotalPaise: 45_000, totalPaise: 45_000 }).where(eq(orders.id, id)),
      ),
    ).toBe("refused");
    expect(
      await commit(async (tx) => {
        await tx.update(orders).set({ subtotalPaise: 45_000, totalPaise: 45_000 }).where(eq(orders.id, id));
        await tx.insert(moneyLedger).values({
          orderId: id,
          kind: "online_refund",
          amountPaise: 5_000,
          razorpayPaymentId: paymentId,
          razorpayRefundId: `rfnd_${randomUUID().slice(0, 14)}`,
        });
      }),
    ).toBe("committed");
    // Refunded in full only with the order marked refunded, and never beyond what was captured.
    expect(
      await commit(async (tx) => {
        await tx.update(orders).set({ status: "refunded" }).where(eq(orders.id, id));
        await tx.insert(moneyLedger).values({
          orderId: id,
          kind: "online_refund",
          amountPaise: 50_000,
          razorpayPaymentId: paymentId,
          razorpayRefundId: `rfnd_${randomUUID().slice(0, 14)}`,
        });
      }),
    ).toBe("refused");
  });
});
