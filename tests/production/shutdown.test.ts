import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { signUpViaHttp } from "../accounts.ts";
import { createTestDatabase } from "../database.ts";
import { TEST_ADDRESS } from "../orders.ts";
import { callHttp, type Instance, startInstance } from "./instances.ts";

// Fewer than the pool's 10 connections, so every one of them can be waiting on the lock at once.
const ORDERS = 8;

describe("graceful shutdown", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let instance: Instance | undefined;

  afterAll(async () => {
    await instance?.stop();
    await database?.drop();
  });

  it("answers every order in flight on SIGTERM, refuses new connections, and exits 0", async () => {
    database = await createTestDatabase();
    instance = await startInstance("shutdown", { DATABASE_URL: database.url });
    const shop = instance;
    const [{ slug } = { slug: "" }] = (
      await database.pool.query<{ slug: string }>("select slug from products order by slug limit 1")
    ).rows;
    await database.pool.query("update products set stock = 1000 where slug = $1", [slug]);

    const shoppers = await Promise.all(
      Array.from({ length: ORDERS }, async (_, index) => {
        const account = await signUpViaHttp(shop.url, `leaving-${index}@example.com`);
        const saved = await callHttp(shop.url, "POST", "/api/addresses", {
          cookie: account.cookie,
          body: TEST_ADDRESS,
        });
        const added = await callHttp(shop.url, "POST", "/api/cart/items", {
          cookie: account.cookie,
          body: { id: slug, kind: "product" },
        });
        expect([saved.status, added.status]).toEqual([201, 200]);
        const address = saved as { body: { address: { id: string } } };
        return { account, addressId: address.body.address.id };
      }),
    );

    // The orders wait on the product's row lock, held here, so they are surely in flight at SIGTERM.
    const locker = new pg.Client({ connectionString: database.url });
    locker.on("error", () => {});
    await locker.connect();
    await locker.query("begin");
    await locker.query("select stock from products where slug = $1 for update", [slug]);

    const placing = shoppers.map(({ account, addressId }) =>
      callHttp(shop.url, "POST", "/api/orders", {
        cookie: account.cookie,
        body: { addressId, paymentMethod: "cod" },
        headers: { "Idempotency-Key": randomUUID() },
      }),
    );
    await waitFor(async () => {
      const waiting = await locker.query(
        "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
      );
      return waiting.rows[0].n >= ORDERS;
    });

    const stopping = shop.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const during = await callHttp(shop.url, "GET", "/api/health");
    expect(shop.exited()).toBe(false);
    await locker.query("commit");
    await locker.end();

    const answers = await Promise.all(placing);
    const exit = await stopping;
    const [{ n: placed } = { n: -1 }] = (
      await database.pool.query<{ n: number }>("select count(*)::int as n from orders")
    ).rows;
    console.log(
      `[shutdown] ${answers.filter((answer) => answer.status === 201).length} of ${ORDERS} orders in flight answered 201; exit ${exit.code}`,
    );
    expect(during).toMatchObject({ status: 0, error: "ECONNREFUSED" });
    expect(answers.map((answer) => answer.status)).toEqual(shoppers.map(() => 201));
    expect(placed).toBe(ORDERS);
    expect(exit).toEqual({ code: 0, signal: null });
    instance = undefined;
  });
});

async function waitFor(condition: () => Promise<boolean>) {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
