import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { signUpViaApp } from "../../tests/accounts.ts";
import { setUpTestApp } from "../../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, setStock, stockOf } from "../../tests/orders.ts";
import { orderLines, orderRequests } from "../db/schema.ts";

/**
 * Orders placed together (order-batch.ts, decision 069's fourth pass), against PostgreSQL: many at once in one
 * transaction, each in its own savepoint, answered once it commits.
 */
const shop = setUpTestApp();
const PRODUCT = "hair-growth-oil";
const SOLD_OUT = "Hair Growth Oil is out of stock. Please remove it from your cart.";
let count = 0;

async function customer() {
  const account = await signUpViaApp(shop.app, `batch-${++count}@example.in`);
  await putInCart(shop.db, account.userId, [{ itemId: PRODUCT }]);
  return { ...account, addressId: await saveAddress(shop.app, account.cookie) };
}

async function place(who: { cookie: string; addressId: string }, key: string = randomUUID()) {
  const response = await placeOrderRequest(
    shop.app,
    who.cookie,
    { addressId: who.addressId, paymentMethod: "cod" },
    key,
  );
  const body = (await response.json()) as { order?: OrderDetail; error?: { code: string; message: string } };
  return { status: response.status, body };
}

type Sent = { text: string; client: pg.Client };

/** Every message this process sends while `work` runs; `before` may act on one before it goes. */
async function messagesDuring<T>(work: () => Promise<T>, before?: (sent: Sent) => Promise<void> | void) {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  const sent: Sent[] = [];
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    const each = {
      text: typeof first === "string" ? first : String((first as { text?: string }).text),
      client: this,
    };
    sent.push(each);
    if (!before) return original.apply(this, args);
    return Promise.resolve(before(each)).then(() => original.apply(this, args));
  };
  try {
    return { result: await work(), sent };
  } finally {
    prototype.query = original;
  }
}

const soldOf = async () =>
  (await shop.db.select().from(orderLines).where(eq(orderLines.itemId, PRODUCT))).length;

describe("orders placed together", () => {
  it("gives exactly as many orders as units to 40 shoppers at once, in fewer commits than orders", async () => {
    const shoppers = await Promise.all(Array.from({ length: 40 }, () => customer()));
    const soldBefore = await soldOf();
    await setStock(shop.db, PRODUCT, 15);
    const { result, sent } = await messagesDuring(() => Promise.all(shoppers.map((each) => place(each))));
    const statuses = result.map((each) => each.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(15);
    expect(statuses.filter((status) => status === 409)).toHaveLength(25);
    for (const refused of result.filter((each) => each.status === 409)) {
      expect(refused.body.error).toMatchObject({ code: "out_of_stock", message: SOLD_OUT });
    }
    expect(await stockOf(shop.db, PRODUCT)).toBe(0);
    expect((await soldOf()) - soldBefore).toBe(15);
    // Orders went in savepoints of shared transactions: fewer commits than orders placed.
    const savepoints = sent.filter((each) => each.text.startsWith("savepoint batched_order")).length;
    const commits = sent.filter((each) => each.text === "commit" || each.text.endsWith(";\ncommit")).length;
    console.log(
      "DEBUG",
      sent
        .filter((each) => /commit|savepoint|rollback/.test(each.text))
        .map(
          (each) =>
            each.text.slice(0, 60).replace(/\n/g, " ") + " ... " + each.text.slice(-40).replace(/\n/g, " "),
        )
        .join("\n"),
    );
    expect(savepoints).toBeGreaterThan(1);
    expect(commits).toBeLessThan(15);
  }, 120_000);

  it("answers an order that fails on its own account alone, and the others in its batch are placed", async () => {
    const shoppers = await Promise.all(Array.from({ length: 12 }, () => customer()));
    await setStock(shop.db, PRODUCT, 100);
    const [wrongAddress, emptyCart] = shoppers as [(typeof shoppers)[0], (typeof shoppers)[0]];
    const otherAddress = (shoppers[2] as (typeof shoppers)[0]).addressId;
    await shop.db.execute(sql`delete from cart_items where user_id = ${emptyCart.userId}`);
    const wrongKey = randomUUID();
    const { result, sent } = await messagesDuring(() =>
      Promise.all(
        shoppers.map((each) =>
          each === wrongAddress ? place({ ...each, addressId: otherAddress }, wrongKey) : place(each),
        ),
      ),
    );
    const [wrong, empty, ...rest] = result;
    expect(wrong?.status).toBe(400);
    expect(wrong?.body.error?.code).toBe("invalid_request");
    expect(empty?.status).toBe(409);
    expect(empty?.body.error?.code).toBe("cart_empty");
    expect(rest.map((each) => each.status)).toEqual(rest.map(() => 201));
    expect(sent.filter((each) => each.text.startsWith("rollback to savepoint")).length).toBeGreaterThan(0);
    expect(await stockOf(shop.db, PRODUCT)).toBe(90);
    // Nothing of the refused order stayed: its key is free and its cart whole, so it can be placed as it is.
    const [claimed] = await shop.db.select().from(orderRequests).where(eq(orderRequests.key, wrongKey));
    expect(claimed).toBeUndefined();
    const again = await place(wrongAddress, wrongKey);
    expect(again.status).toBe(201);
    expect(await stockOf(shop.db, PRODUCT)).toBe(89);
  }, 120_000);

  it("places each order of a batch whose connection dies one by one, none twice and none lost", async () => {
    const shoppers = await Promise.all(Array.from({ length: 20 }, () => customer()));
    const soldBefore = await soldOf();
    await setStock(shop.db, PRODUCT, 8);
    let savepoints = 0;
    let killed = false;
    const { result } = await messagesDuring(
      () => Promise.all(shoppers.map((each) => place(each))),
      async ({ text, client }) => {
        // The fourth order of a batch: the first three are written in its transaction, not yet committed.
        if (killed || !text.startsWith("savepoint batched_order") || ++savepoints < 4) return;
        killed = true;
        const pid = (client as unknown as { processID: number }).processID;
        await shop.db.execute(sql`select pg_terminate_backend(${pid})`);
      },
    );
    expect(killed).toBe(true);
    const statuses = result.map((each) => each.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(8);
    expect(statuses.filter((status) => status === 409)).toHaveLength(12);
    expect(await stockOf(shop.db, PRODUCT)).toBe(0);
    expect((await soldOf()) - soldBefore).toBe(8);
  }, 120_000);
});
