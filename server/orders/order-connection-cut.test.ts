import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import {
  backendPid,
  interceptStatements,
  setUpTestApp,
  startSecondInstance,
  terminateBackend,
} from "../../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, setStock, stockOf } from "../../tests/orders.ts";
import { cartItems, orderRequests, orders } from "../db/schema.ts";

/**
 * An order is placed in three messages (docs/decisions/069): a look at the key's earlier order, the cart and the
 * address, with no transaction; BEGIN with the key's claim, the cart's locked read and the reads it is priced
 * with; its rows, the cart emptied, its jobs, the stock and COMMIT. Here the
 * connection is lost at each point between and within them, on one instance; whatever was answered, the
 * database holds either nothing of the order or all of it, and the same request sent again to another
 * instance ends with exactly one order and an empty cart.
 */
const shop = setUpTestApp();
const ITEM = "abc-malt";
const QUANTITY = 2;

type Plan = {
  /** Which message to act on, by its text. */
  matches: (text: string) => boolean;
  /**
   * Runs instead of sending the message: `send` sends it (what pg's query returns for it is no promise: a
   * message is answered through its own callback).
   */
  act: (client: pg.PoolClient, send: () => unknown) => Promise<unknown>;
};

const isLook = (text: string) =>
  !text.startsWith("begin;") && text.includes('"order_requests"') && text.includes('"cart_items"');
const isOpening = (text: string) => text.startsWith("begin;");
const isClosing = (text: string) => /;\s*commit$/.test(text);

const terminate = (client: pg.PoolClient) => terminateBackend(shop.db, client);

/** The backend ended (and gone) just before the message is sent. */
const terminateBefore = async (client: pg.PoolClient, send: () => unknown) => {
  await terminate(client);
  return send();
};

/** The product's row locked by another session, so the last message waits on it within its stock update. */
async function holdProductRow() {
  const holder = new pg.Client({ connectionString: shop.env.DATABASE_URL });
  await holder.connect();
  await holder.query("begin");
  await holder.query("select stock from products where slug = $1 for update", [ITEM]);
  return {
    release: async () => {
      await holder.query("rollback");
      await holder.end();
    },
  };
}

async function untilWaitingOnLock(client: pg.PoolClient) {
  for (let tries = 0; tries < 250; tries++) {
    const { rows } = await shop.db.execute<{ waiting: boolean }>(
      sql`select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = ${backendPid(client)}::int`,
    );
    if (rows[0]?.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the last message never waited on the product's row");
}

async function untilEnded(pid: number) {
  for (let tries = 0; tries < 250; tries++) {
    const { rows } = await shop.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where pid = ${pid}::int`,
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the backend that lost its client never ended");
}

const cuts: { name: string; answered: "503"; placed: boolean; plan: () => Plan }[] = [
  {
    name: "before the look (the key's earlier order, the cart, the address; no transaction)",
    answered: "503",
    placed: false,
    plan: () => ({ matches: isLook, act: terminateBefore }),
  },
  {
    name: "between the look and the opening message (BEGIN, the key's claim, the cart's lock, the reads)",
    answered: "503",
    placed: false,
    plan: () => ({ matches: isOpening, act: terminateBefore }),
  },
  {
    name: "between the opening message and the last",
    answered: "503",
    placed: false,
    plan: () => ({ matches: isClosing, act: terminateBefore }),
  },
  {
    name: "within the last message, before its COMMIT (the backend ended while its stock update waits)",
    answered: "503",
    placed: false,
    plan: () => ({
      matches: isClosing,
      act: async (client, send) => {
        const lock = await holdProductRow();
        send();
        await untilWaitingOnLock(client);
        await terminate(client);
        await lock.release();
      },
    }),
  },
  {
    name: "after the COMMIT ran, before its answer came back (the shop's end of the connection cut)",
    answered: "503",
    placed: true,
    plan: () => ({
      matches: isClosing,
      act: async (client, send) => {
        const lock = await holdProductRow();
        send();
        await untilWaitingOnLock(client);
        const pid = backendPid(client);
        (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        await lock.release();
        // The backend runs the rest of the message, COMMIT included, and ends when it cannot answer.
        await untilEnded(pid);
      },
    }),
  },
];

describe("placing an order while its connection is lost", () => {
  let shoppers = 0;

  it.each(cuts)("$name: all of the order or nothing, and the retry places it once", async (cut) => {
    shoppers += 1;
    const shopper = await signUpViaApp(shop.app, `cut-${shoppers}@example.in`);
    const addressId = await saveAddress(shop.app, shopper.cookie);
    await setStock(shop.db, ITEM, 50);
    await putInCart(shop.db, shopper.userId, [{ itemId: ITEM, quantity: QUANTITY }]);

    const instance = startSecondInstance(shop);
    let plan: Plan | null = cut.plan();
    // What the cut does after the connection is gone (the lock let go, the backend's end) goes on after the
    // shop has answered: the database is read once it is done, not while the lost backend may still commit.
    let acting: Promise<unknown> = Promise.resolve();
    interceptStatements(instance, (text, client, send) => {
      if (!plan?.matches(text)) return send();
      const { act } = plan;
      plan = null;
      acting = act(client, send);
      return acting;
    });

    const key = randomUUID();
    const body = { addressId, paymentMethod: "cod" };
    try {
      const first = await placeOrderRequest(instance.app, shopper.cookie, body, key);
      expect(plan).toBeNull();
      expect(first.status).toBe(Number(cut.answered));
      expect(((await first.json()) as { error: { code: string } }).error.code).toBe("unavailable");
    } finally {
      await acting;
      await instance.end();
    }

    const state = async () => {
      const placed = await shop.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.userId, shopper.userId));
      const lines = await shop.db.select().from(cartItems).where(eq(cartItems.userId, shopper.userId));
      const [claim] = await shop.db
        .select({ orderId: orderRequests.orderId })
        .from(orderRequests)
        .where(and(eq(orderRequests.userId, shopper.userId), eq(orderRequests.key, key)));
      return {
        orders: placed.length,
        cartLines: lines.length,
        claim: claim ?? null,
        stock: await stockOf(shop.db, ITEM),
      };
    };
    // The commit that ran (or not) on the lost connection: all of the order, or none of it.
    expect(await state()).toEqual(
      cut.placed
        ? { orders: 1, cartLines: 0, claim: { orderId: expect.any(String) }, stock: 50 - QUANTITY }
        : { orders: 0, cartLines: 1, claim: null, stock: 50 },
    );

    const retried = await placeOrderRequest(shop.app, shopper.cookie, body, key);
    expect(retried.status).toBe(cut.placed ? 200 : 201);
    expect(retried.headers.get("Idempotent-Replayed")).toBe(String(cut.placed));
    expect(await state()).toEqual({
      orders: 1,
      cartLines: 0,
      claim: { orderId: expect.any(String) },
      stock: 50 - QUANTITY,
    });
  });
});
