import { eq, inArray, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { signUpViaApp } from "../../tests/accounts.ts";
import { createTestApp } from "../../tests/database.ts";
import { insertOrderRow, placeGuestOrderRequest, putInCart, setStock } from "../../tests/orders.ts";
import { carts, leftCarts, orders } from "../db/schema.ts";
import { sweepLeftCarts } from "./left-carts.ts";

/**
 * A left cart's won-back answer (left_carts.won_paise, docs/decisions/099) stays exact when two transactions
 * change its shopper's orders at once: each trigger locks the carts it concerns before reading the orders again,
 * so the second sees what the first committed instead of its own stale snapshot.
 */
let shop: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  shop = await createTestApp();
  await setStock(shop.db, "bath-powder", 100);
});
afterAll(async () => {
  await shop?.close();
});

/** A guest's order of `quantity` bath powders, with its row's id and when it was placed. */
async function guestOrder(email: string, phone: string, quantity: number) {
  const placed = await placeGuestOrderRequest(shop.app, {
    email,
    phone,
    items: [{ id: "bath-powder", kind: "product", quantity }],
  });
  expect(placed.status).toBe(201);
  const { order } = (await placed.json()) as { order: OrderDetail };
  const [row] = await shop.db
    .select({ id: orders.id, createdAt: orders.createdAt })
    .from(orders)
    .where(eq(orders.number, order.number));
  if (!row) throw new Error(`no order ${order.number}`);
  return { ...row, totalPaise: order.totalPaise };
}

/** A guest's cart left behind and reminded by e-mail an hour ago. */
async function remindedGuestCart(email: string, mobile: string | null = null) {
  const [cart] = await shop.db
    .insert(leftCarts)
    .values({
      subject: `guest:${email}`,
      email,
      mobile,
      items: [{ id: "bath-powder", kind: "product", quantity: 1 }],
      touchedAt: sql`now() - interval '2 hours'`,
      remindersSent: 1,
      firstRemindedAt: sql`now() - interval '1 hour'`,
      lastRemindedAt: sql`now() - interval '1 hour'`,
    })
    .returning({ id: leftCarts.id });
  if (!cart) throw new Error("no left cart");
  return cart.id;
}

const wonPaiseOf = async (id: string) =>
  (await shop.db.select({ won: leftCarts.wonPaise }).from(leftCarts).where(eq(leftCarts.id, id)))[0]?.won;

/** Resolves once `pending` has settled or some statement of this database waits for a lock, whichever is first. */
async function settledOrWaiting(pending: Promise<unknown>) {
  let settled = false;
  const watched = pending.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let tries = 0; tries < 500 && !settled; tries++) {
    const waiting = await shop.db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`);
    if ((waiting.rows[0]?.n ?? 0) > 0) return;
    await Promise.race([watched, new Promise((resolve) => setTimeout(resolve, 20))]);
  }
}

describe("a left cart's won-back order under concurrent orders", () => {
  it("counts a new order placed while the order that won the cart is being cancelled", async () => {
    // The cart is won back by an order to its mobile under another e-mail; the desk cancels that order in a
    // transaction still open while the guest orders again with the cart's e-mail.
    const cart = await remindedGuestCart("race.cancel@example.in", "97000 54321");
    const first = await guestOrder("race.first@example.in", "9700054321", 1);
    expect(await wonPaiseOf(cart)).toBe(first.totalPaise);

    const desk = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    await desk.connect();
    try {
      await desk.query("begin");
      await desk.query("update orders set status = 'cancelled', cancelled_at = now() where id = $1", [
        first.id,
      ]);
      const again = guestOrder("race.cancel@example.in", "98765 11111", 2);
      await settledOrWaiting(again);
      await desk.query("commit");
      const second = await again;
      expect(await wonPaiseOf(cart)).toBe(second.totalPaise);
    } finally {
      await desk.end();
    }
  });

  it("keeps the earlier of two guest orders placed at once, by e-mail and by the reminded mobile", async () => {
    const cart = await remindedGuestCart("race.twice@example.in", "97000 12345");
    const [byEmail, byMobile] = await Promise.all([
      guestOrder("race.twice@example.in", "98765 22222", 1),
      guestOrder("someone.else@example.in", "9700012345", 2),
    ]);
    const [earlier] = [byEmail, byMobile].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    );
    expect(await wonPaiseOf(cart)).toBe(earlier?.totalPaise);
  });
});

/** Resolves once `count` statements of this database wait for a lock (or throws after about ten seconds). */
async function waitingFor(count: number) {
  for (let tries = 0; tries < 500; tries++) {
    const waiting = await shop.db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`);
    if ((waiting.rows[0]?.n ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} statements waiting for a lock`);
}

describe("the left-cart sweep beside an order's won-back recheck", () => {
  it("locks the carts it moves in the order of their ids, as the recheck does, so neither deadlocks", async () => {
    // Two shoppers with an order each, carts touched again after they were left: the sweep moves both left
    // carts, and one statement changing both orders rechecks both carts.
    const shoppers = [
      await signUpViaApp(shop.app, "sweep.one@example.in"),
      await signUpViaApp(shop.app, "sweep.two@example.in"),
    ];
    const orderIds: string[] = [];
    for (const [index, shopper] of shoppers.entries()) {
      orderIds.push(
        await insertOrderRow(shop.db, {
          number: `PN-SWEEP-${index}`,
          userId: shopper.userId,
          status: "placed",
          paymentMethod: "cod",
          shipName: "Sweep",
        }),
      );
      await putInCart(shop.db, shopper.userId, [{ itemId: "bath-powder" }]);
    }
    await shop.db
      .update(carts)
      .set({ updatedAt: sql`now()` })
      .where(
        inArray(
          carts.userId,
          shoppers.map((shopper) => shopper.userId),
        ),
      );
    // The cart the sweep reaches first gets the higher id: without a fixed order it locks that one first.
    const scanned = await shop.db.execute<{ user_id: string }>(sql`
      select user_id from carts where user_id in (${shoppers[0]?.userId}, ${shoppers[1]?.userId}) order by ctid`);
    const [first, second] = scanned.rows.map((row) => row.user_id);
    const high = "ffffffff-0000-4000-8000-000000000000";
    const low = "00000000-0000-4000-8000-000000000000";
    for (const [id, userId] of [
      [high, first],
      [low, second],
    ] as const) {
      await shop.db.insert(leftCarts).values({
        id,
        subject: `user:${userId}`,
        userId,
        touchedAt: sql`now() - interval '1 hour'`,
      });
    }

    // The cart with the lower id is held, so the recheck waits on it first; then the sweep starts.
    const holder = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    const desk = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    await holder.connect();
    await desk.connect();
    try {
      await holder.query("begin");
      await holder.query("select id from left_carts where id = $1 for update", [low]);
      await desk.query("begin");
      const recheck = desk.query(
        "update orders set created_at = created_at - interval '1 minute' where id = any($1)",
        [orderIds],
      );
      await waitingFor(1);
      const sweep = sweepLeftCarts(shop.deps, new Date(Date.now() + 2 * 3_600_000));
      await waitingFor(2);
      await holder.query("commit");
      const outcomes = await Promise.allSettled([recheck.then(() => desk.query("commit")), sweep]);
      expect(
        outcomes.map((outcome) => (outcome.status === "rejected" ? String(outcome.reason) : "ok")),
      ).toEqual(["ok", "ok"]);
    } finally {
      await holder.end();
      await desk.end();
    }
    const moved = await shop.db
      .select({ touchedAt: leftCarts.touchedAt })
      .from(leftCarts)
      .where(inArray(leftCarts.id, [high, low]));
    expect(moved.every((row) => row.touchedAt.getTime() > Date.now() - 30 * 60_000)).toBe(true);
  });
});
