import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import {
  asUser,
  placeOrderRequest,
  putInCart,
  setStock,
  signUpWithAddress,
  stockOf,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { createApp } from "../app.ts";
import { knownSoldOut } from "../catalogue/sold-out.ts";
import { createDb } from "../db/client.ts";
import { orderNumbers } from "../db/schema.ts";
import { createDeps } from "../deps.ts";

/**
 * Orders for a product the catalogue in memory already knows has run out (decision 069, "Orders at the peak"):
 * refused before the cart is priced, with the refusal pricing would give, never once stock is back, and an
 * Idempotency-Key that placed an order still answers with it.
 */
const shop = setUpTestApp();
const PRODUCT = "face-glow-oil";
const SOLD_OUT = "Face Glow Oil is out of stock. Please remove it from your cart.";
let count = 0;

async function customer() {
  const who = await signUpWithAddress(shop.app, `sold-out-${++count}@example.in`);
  await putInCart(shop.db, who.userId, [{ itemId: PRODUCT }]);
  return who;
}

async function place(who: { cookie: string; addressId: string }, key: string = randomUUID()) {
  const response = await placeOrderRequest(
    shop.app,
    who.cookie,
    { addressId: who.addressId, paymentMethod: "cod" },
    key,
  );
  const body = (await response.json()) as { order?: OrderDetail; error?: { code: string; message: string } };
  return { status: response.status, replayed: response.headers.get("Idempotent-Replayed"), body };
}

/** Waits until the catalogue has heard a change committed before this was called. */
async function catalogueHeard(since: number) {
  for (let waited = 0; shop.deps.catalogue.generation() === since; waited += 10) {
    if (waited > 5_000) throw new Error("the catalogue never heard the change");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The text of every statement this process sends while `work` runs. */
async function statementsDuring(work: () => Promise<unknown>) {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const texts: string[] = [];
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    texts.push(typeof first === "string" ? first : String((first as { text?: string }).text));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return texts;
}

async function jobsSettled() {
  for (let waited = 0; ; waited += 20) {
    const { rows } = await shop.db.execute<{ n: number }>(
      sql`select count(*)::int as n from jobs where status in ('queued', 'running')`,
    );
    if (rows[0]?.n === 0) return;
    if (waited > 10_000) throw new Error("the job queue never settled");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  shop.deps.catalogue.start();
  for (let waited = 0; !shop.deps.catalogue.listening(); waited += 10) {
    if (waited > 5_000) throw new Error("the catalogue listener never connected");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

// Stock back for the next test, and heard back when it had run out: a restore still on its way to the listener
// would otherwise arrive after the next test's own change was heard, and make the catalogue forget what it read.
afterEach(async () => {
  const before = await stockOf(shop.db, PRODUCT);
  const generation = shop.deps.catalogue.generation();
  await setStock(shop.db, PRODUCT, 25);
  if ((before ?? 0) <= 0) await catalogueHeard(generation);
});

describe("an order for what the catalogue knows has run out", () => {
  it("is refused before its cart is priced, and a key that placed the last unit still replays its order", async () => {
    const [first, second, third] = [await customer(), await customer(), await customer()];
    await setStock(shop.db, PRODUCT, 1);
    const firstKey = randomUUID();
    const generation = shop.deps.catalogue.generation();
    const placed = await place(first, firstKey);
    expect(placed.status).toBe(201);
    await catalogueHeard(generation);

    // The first refusal after the change reads what has run out; the next ones know it.
    const refused = await place(second);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: "out_of_stock",
      message: SOLD_OUT,
      fields: { [PRODUCT]: SOLD_OUT },
    });
    // The first order's mails are sent by this process's job worker, which reads the shop's settings: done first.
    await jobsSettled();
    let answer: Awaited<ReturnType<typeof place>> | undefined;
    const statements = await statementsDuring(async () => {
      answer = await place(third);
    });
    expect(answer?.status).toBe(409);
    expect(answer?.body.error).toMatchObject({ code: "out_of_stock", message: SOLD_OUT });
    // Neither the catalogue, the settings nor the stock were read or written for it: only its key and cart.
    expect(
      statements.filter((text) => /"products"|"shop_settings"|"cod_settings"|update products/.test(text)),
    ).toEqual([]);
    expect(statements.some((text) => /"cart_items"/.test(text))).toBe(true);

    const replay = await place(first, firstKey);
    expect(replay.status).toBe(200);
    expect(replay.replayed).toBe("true");
    expect(replay.body.order?.number).toBe(placed.body.order?.number);
    expect(await stockOf(shop.db, PRODUCT)).toBe(0);
  });

  it("is placed once stock is back, with the key a refusal was given under", async () => {
    const shopper = await customer();
    await setStock(shop.db, PRODUCT, 0);
    await place(await customer());
    const key = randomUUID();
    expect((await place(shopper, key)).status).toBe(409);

    const generation = shop.deps.catalogue.generation();
    await setStock(shop.db, PRODUCT, 3);
    await catalogueHeard(generation);
    const again = await place(shopper, key);
    expect(again.status).toBe(201);
    expect(again.body.order?.lines).toEqual([expect.objectContaining({ itemId: PRODUCT, quantity: 1 })]);
    expect(await stockOf(shop.db, PRODUCT)).toBe(2);
  });

  it("gives exactly as many orders as units to 24 shoppers at once, the rest sold out, twice over", async () => {
    const shoppers = await Promise.all(Array.from({ length: 24 }, () => customer()));
    for (const stock of [6, 4]) {
      await setStock(shop.db, PRODUCT, stock);
      for (const each of shoppers) await putInCart(shop.db, each.userId, [{ itemId: PRODUCT }]);
      // Each shopper's cart holds one; a shopper placed in the first round has a fresh cart for the second.
      await shop.db.execute(sql`update cart_items set quantity = 1 where item_id = ${PRODUCT}`);
      const results = await Promise.all(shoppers.map((each) => place(each)));
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(stock);
      expect(statuses.filter((status) => status === 409)).toHaveLength(24 - stock);
      for (const result of results.filter((each) => each.status === 409)) {
        expect(result.body.error).toMatchObject({ code: "out_of_stock", message: SOLD_OUT });
      }
      expect(await stockOf(shop.db, PRODUCT)).toBe(0);
    }
  }, 60_000);
});

/** The account's orders, by number. */
async function orderNumbersOf(userId: string) {
  const { rows } = await shop.db.execute<{ number: string }>(
    sql`select number from orders where user_id = ${userId} order by number`,
  );
  return rows.map((row) => row.number);
}

/** Runs `change` once, from another connection, after the first message `matches` has been answered. */
async function afterMessage(
  matches: (text: string) => boolean,
  change: () => Promise<unknown>,
  work: () => Promise<unknown>,
) {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  let done = false;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    const text = typeof first === "string" ? first : String((first as { text?: string }).text);
    if (done || !matches(text)) return original.apply(this, args);
    done = true;
    // A message transaction's message is answered through its own callback (server/db/message-transaction.ts):
    // the answer is handed on once the change is made.
    const message = first as { callback?: (error: Error | null, value?: unknown) => void };
    const answer = message.callback;
    if (typeof answer === "function") {
      message.callback = (error, value) => {
        void change().then(
          () => answer.call(message, error, value),
          (failed: Error) => answer.call(message, failed),
        );
      };
      return original.apply(this, args);
    }
    return (original.apply(this, args) as Promise<unknown>).then(async (value) => {
      await change();
      return value;
    });
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  expect(done).toBe(true);
}

const isLook = (text: string) =>
  !/^begin/i.test(text) && /"order_requests"/.test(text) && /"cart_items"/.test(text);

describe("a refusal told from memory", () => {
  /** Stock 0, and the catalogue in memory knowing it, so the next refusal is told from memory. */
  async function soldOutKnown() {
    const generation = shop.deps.catalogue.generation();
    const before = await stockOf(shop.db, PRODUCT);
    await setStock(shop.db, PRODUCT, 0);
    // Running out is announced (coming back was, too, by the last test's clean-up): heard before the set is read.
    if ((before ?? 0) > 0) await catalogueHeard(generation);
    expect((await knownSoldOut(shop.deps.catalogue, shop.db))?.has(`product:${PRODUCT}`)).toBe(true);
    // The job worker reads the settings for earlier orders' mails: done first, so only the order is watched.
    await jobsSettled();
  }

  it("is one message of reads: no transaction, no claim, no lock, and its key stays free", async () => {
    const shopper = await customer();
    await soldOutKnown();
    const key = randomUUID();
    let answer: Awaited<ReturnType<typeof place>> | undefined;
    const statements = await statementsDuring(async () => {
      answer = await place(shopper, key);
    });
    expect(answer?.status).toBe(409);
    expect(answer?.body.error).toEqual({
      code: "out_of_stock",
      message: SOLD_OUT,
      fields: { [PRODUCT]: SOLD_OUT },
    });
    expect(statements).toHaveLength(1);
    const [look] = statements;
    expect(look).toMatch(/"order_requests"/);
    expect(look).toMatch(/"cart_items"/);
    expect(look).not.toMatch(/\bbegin\b|\binsert\b|for update|rollback|pg_advisory/i);
    const { rows } = await shop.db.execute(sql`select 1 from order_requests where key = ${key}`);
    expect(rows).toEqual([]);
  });

  it("is not given to a key that placed an order: it replays the order without a claim", async () => {
    const shopper = await customer();
    await setStock(shop.db, PRODUCT, 1);
    const key = randomUUID();
    const placed = await place(shopper, key);
    expect(placed.status).toBe(201);
    await soldOutKnown();
    let replay: Awaited<ReturnType<typeof place>> | undefined;
    const statements = await statementsDuring(async () => {
      replay = await place(shopper, key);
    });
    expect(replay?.status).toBe(200);
    expect(replay?.replayed).toBe("true");
    expect(replay?.body.order?.number).toBe(placed.body.order?.number);
    expect(statements.filter((text) => /\bbegin\b|insert into "order_requests"/i.test(text))).toEqual([]);
    // The same key with another request is still refused as reused, sold out or not.
    const other = await placeOrderRequest(
      shop.app,
      shopper.cookie,
      { addressId: shopper.addressId, paymentMethod: "razorpay" },
      key,
    );
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("idempotency_key_reused");
  });

  it("gives one order to one key sent ten times at once for the last unit; the others replay it", async () => {
    const shopper = await customer();
    await setStock(shop.db, PRODUCT, 1);
    // What has run out is in memory, so each request's look could be answered from it.
    await knownSoldOut(shop.deps.catalogue, shop.db);
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => place(shopper, key)));
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // A look that saw no order for the key was sent before the order committed, so before its unit was known
    // to be gone: it went on to the claim, which waited for the order and found it.
    expect(statuses.filter((status) => status === 200)).toHaveLength(9);
    const number = results.find((result) => result.status === 201)?.body.order?.number;
    expect(new Set(results.map((result) => result.body.order?.number))).toEqual(new Set([number]));
    expect(await orderNumbersOf(shopper.userId)).toEqual([number]);
    expect(await stockOf(shop.db, PRODUCT)).toBe(0);
  });

  it("prices the cart as it is under its lock when another tab changed it after the look", async () => {
    const shopper = await customer();
    const other = "badam-mix";
    const [price] = (
      await shop.db.execute<{ price: number }>(
        sql`select price_paise as price from products where slug = ${other}`,
      )
    ).rows;
    const [stockBefore, otherBefore] = [await stockOf(shop.db, PRODUCT), await stockOf(shop.db, other)];
    let placed: Awaited<ReturnType<typeof place>> | undefined;
    await afterMessage(
      isLook,
      async () => {
        await shop.db.execute(sql`delete from cart_items where user_id = ${shopper.userId}`);
        await putInCart(shop.db, shopper.userId, [{ itemId: other, quantity: 2 }]);
      },
      async () => {
        placed = await place(shopper);
      },
    );
    expect(placed?.status).toBe(201);
    expect(placed?.body.order?.lines).toEqual([
      expect.objectContaining({ itemId: other, quantity: 2, unitPricePaise: price?.price }),
    ]);
    expect(await stockOf(shop.db, PRODUCT)).toBe(stockBefore);
    expect(await stockOf(shop.db, other)).toBe((otherBefore ?? 0) - 2);
  });

  it("is not told from a look at a cart emptied of the sold-out item before its lock: what is left is placed", async () => {
    const shopper = await customer();
    await putInCart(shop.db, shopper.userId, [{ itemId: "badam-mix" }]);
    await setStock(shop.db, PRODUCT, 1);
    // The look sees the product still in stock; by the lock the shopper has removed it and it has run out.
    await afterMessage(
      isLook,
      async () => {
        await shop.db.execute(
          sql`delete from cart_items where user_id = ${shopper.userId} and item_id = ${PRODUCT}`,
        );
        await setStock(shop.db, PRODUCT, 0);
      },
      async () => {
        const placed = await place(shopper);
        expect(placed.status).toBe(201);
        expect(placed.body.order?.lines.map((line) => line.itemId)).toEqual(["badam-mix"]);
      },
    );
  });

  it("answers a guest from one read of the key, leaving it free", async () => {
    await soldOutKnown();
    const key = randomUUID();
    const body = {
      email: "sold-out-guest@example.in",
      address: { ...TEST_ADDRESS, phone: "98111 22334" },
      items: [{ id: PRODUCT, kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    };
    let answer: { status: number; body: { error?: unknown } } | undefined;
    const statements = await statementsDuring(async () => {
      const response = await shop.app.request(
        "/api/guest-orders",
        jsonRequest({ method: "POST", body, headers: { "Idempotency-Key": key } }),
      );
      answer = { status: response.status, body: (await response.json()) as { error?: unknown } };
    });
    expect(answer?.status).toBe(409);
    expect(answer?.body.error).toEqual({
      code: "out_of_stock",
      message: SOLD_OUT,
      fields: { [PRODUCT]: SOLD_OUT },
    });
    // The route's own look at the key (before its rate limits) reads no request_hash; the order's does.
    const orderStatements = statements.filter((text) => /request_hash|\bbegin\b/i.test(text));
    expect(orderStatements).toHaveLength(1);
    expect(orderStatements[0]).not.toMatch(/\bbegin\b|\binsert\b/i);
    const { rows } = await shop.db.execute(sql`select 1 from guest_order_requests where key = ${key}`);
    expect(rows).toEqual([]);
  });
});

describe("an order whose read of what has run out fails in its own transaction", () => {
  it("is answered 503 and can be placed again under its key, not carried on in an aborted transaction", async () => {
    // An instance whose statements are cut off at 400 ms, as DB_STATEMENT_TIMEOUT_MS does.
    const { db, pool } = createDb(shop.env.DATABASE_URL ?? "", { max: 3, statementTimeoutMs: 400 });
    const deps = createDeps({ db, env: shop.env });
    const app = createApp(deps);
    const blocker = await shop.db.$client.connect();
    try {
      deps.catalogue.start();
      for (let waited = 0; !deps.catalogue.listening(); waited += 10) {
        if (waited > 5_000) throw new Error("the catalogue listener never connected");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const shopper = await customer();
      const key = randomUUID();
      const order = () =>
        placeOrderRequest(app, shopper.cookie, { addressId: shopper.addressId, paymentMethod: "cod" }, key);
      // The read of what has run out waits on combos past the statement timeout: this order's transaction is
      // aborted by it, and its next statement could only fail.
      await blocker.query("begin");
      await blocker.query("lock table combos in access exclusive mode");
      const cut = await order();
      await blocker.query("rollback");
      expect(cut.status).toBe(503);
      expect(((await cut.json()) as { error: { code: string } }).error.code).toBe("unavailable");
      const placed = await order();
      expect(placed.status).toBe(201);
    } finally {
      await blocker.query("rollback").catch(() => {});
      blocker.release();
      await deps.catalogue.stop();
      await deps.live.stop();
      await pool.end();
    }
  });
});

describe("a new order's answer", () => {
  it("is what reading the order back gives, and its number keeps every digit past six", async () => {
    const shopper = await customer();
    await shop.db.execute(sql`select setval(${orderNumbers.seqName}, 999999)`);
    const placed = await place(shopper);
    expect(placed.status).toBe(201);
    const year = placed.body.order?.number.slice(3, 7);
    expect(placed.body.order?.number).toBe(`PN-${year}-1000000`);
    const read = await shop.app.request(`/api/orders/${placed.body.order?.number}`, asUser(shopper.cookie));
    expect(((await read.json()) as { order: OrderDetail }).order).toEqual(placed.body.order);
  });
});
