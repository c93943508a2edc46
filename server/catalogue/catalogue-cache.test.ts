import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Combo, Product } from "../../common/catalogue.ts";
import { signUpViaApp } from "../../tests/accounts.ts";
import { callApi, createTestApp, startSecondInstance, type TestApp } from "../../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, setStock } from "../../tests/orders.ts";
import { CATALOGUE_CHANNEL, createCatalogueCache, LISTENER_APPLICATION_NAME } from "./catalogue-cache.ts";

// Two instances of the shop on one database, each with its own pool and listener, as two processes would be.
let shop: TestApp;
let second: ReturnType<typeof startSecondInstance>;
beforeAll(async () => {
  shop = await createTestApp();
  second = startSecondInstance(shop);
});
afterAll(async () => {
  await second?.end();
  await shop?.close();
});

const SLUG = "face-glow-oil";
const product = async (app: typeof shop.app, slug = SLUG) =>
  (await callApi(app, "GET", `/api/products/${slug}`)).body as Product;
const listed = async (app: typeof shop.app, slug = SLUG) =>
  ((await callApi(app, "GET", "/api/products?pageSize=100")).body.items as Product[]).find(
    (item) => item.slug === slug,
  );

/** Both instances have read the catalogue (so their listeners are connected) and hold it in memory. */
async function warmBoth() {
  for (const app of [shop.app, second.app]) await product(app);
  await vi.waitFor(() => {
    expect(shop.deps.catalogue.listening()).toBe(true);
    expect(second.deps.catalogue.listening()).toBe(true);
  });
  for (const app of [shop.app, second.app]) {
    await product(app);
    await listed(app);
  }
}

describe("the catalogue in memory, invalidated through LISTEN/NOTIFY", () => {
  it("answers from memory: a change nobody announced is not seen", async () => {
    await warmBoth();
    const before = await product(second.app);
    // session_replication_role = replica skips the triggers: the write the cache is not told about.
    const client = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query("set session_replication_role = replica");
      await client.query("update products set name = name || ' (quiet)' where slug = $1", [SLUG]);
      expect((await product(second.app)).name).toBe(before.name);
      await client.query("update products set name = $2 where slug = $1", [SLUG, before.name]);
    } finally {
      await client.end();
    }
  });

  it("shows an admin's stock change made through one instance on the other within moments", async () => {
    await warmBoth();
    expect((await product(second.app)).inStock).toBe(true);
    await setStock(shop.db, SLUG, 0);
    await vi.waitFor(async () => {
      expect((await product(second.app)).inStock).toBe(false);
      expect((await listed(second.app))?.inStock).toBe(false);
      expect((await product(shop.app)).inStock).toBe(false);
    });
    await setStock(shop.db, SLUG, 40);
    await vi.waitFor(async () => expect((await listed(second.app))?.inStock).toBe(true));
  });

  it("an order taking the last one, and its cancellation, change availability on both instances", async () => {
    const account = await signUpViaApp(shop.app, "last-one@example.in");
    const addressId = await saveAddress(shop.app, account.cookie);
    await setStock(shop.db, "bath-powder", 1);
    await warmBoth();
    expect((await product(second.app, "bath-powder")).inStock).toBe(true);

    await putInCart(shop.db, account.userId, [{ itemId: "bath-powder" }]);
    const placed = await placeOrderRequest(shop.app, account.cookie, { addressId, paymentMethod: "cod" });
    expect(placed.status).toBe(201);
    await vi.waitFor(async () => expect((await product(second.app, "bath-powder")).inStock).toBe(false));

    const { order } = (await placed.json()) as { order: { number: string } };
    const cancelled = await callApi(shop.app, "POST", `/api/orders/${order.number}/cancel`, {
      as: account,
      body: {},
    });
    expect(cancelled.status).toBe(200);
    await vi.waitFor(async () => expect((await product(second.app, "bath-powder")).inStock).toBe(true));
  });

  it("a combo's availability follows its stock", async () => {
    await callApi(second.app, "GET", "/api/combos");
    await warmBoth();
    const combo = async () =>
      ((await callApi(second.app, "GET", "/api/combos")).body.items as Combo[]).find(
        (item) => item.id === "skincare-combo",
      );
    expect((await combo())?.inStock).toBe(true);
    await shop.db.execute(`update combos set stock = 0 where id = 'skincare-combo'`);
    await vi.waitFor(async () => expect((await combo())?.inStock).toBe(false));
    await shop.db.execute(`update combos set stock = 25 where id = 'skincare-combo'`);
    await vi.waitFor(async () => expect((await combo())?.inStock).toBe(true));
  });

  it("recovers when its listener connection is killed, reading from the database meanwhile", async () => {
    await warmBoth();
    const admin = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = $1 and datname = current_database()`,
        [LISTENER_APPLICATION_NAME],
      );
      expect(killed.rowCount).toBe(2);
      // Made while nobody listens: its notification is lost, so the instances must not keep what they held.
      await setStock(shop.db, SLUG, 0);
      await vi.waitFor(async () => expect((await product(second.app)).inStock).toBe(false));
      await vi.waitFor(() => expect(second.deps.catalogue.listening()).toBe(true), { timeout: 5000 });

      // Listening again: the next change reaches it through a notification, as before.
      await warmBoth();
      await setStock(shop.db, SLUG, 40);
      await vi.waitFor(async () => expect((await product(second.app)).inStock).toBe(true));
      const listeners = await admin.query(
        "select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()",
        [LISTENER_APPLICATION_NAME],
      );
      expect(listeners.rows[0].n).toBe(2);
    } finally {
      await admin.end();
    }
  });
});

describe("the catalogue cache when full", () => {
  it("forgets its oldest answer for a new one, so new answers are still remembered", async () => {
    const cache = createCatalogueCache({ connectionString: shop.env.DATABASE_URL }, { maxEntries: 2 });
    const loads: string[] = [];
    const read = (key: string) =>
      cache.remember(key, async () => {
        loads.push(key);
        return key;
      });
    try {
      await read("first");
      await vi.waitFor(() => expect(cache.listening()).toBe(true));
      for (const key of ["a", "b", "c", "c", "b", "a"]) await read(key);
      // Listening: a, b remembered; c pushes a out; a is read again.
      expect(loads).toEqual(["first", "a", "b", "c", "a"]);
    } finally {
      await cache.stop();
    }
  });
});

describe("a change committed through this instance", () => {
  it("is forgotten here at once, before its NOTIFY comes back", async () => {
    const cache = createCatalogueCache({ connectionString: shop.env.DATABASE_URL });
    let loads = 0;
    const read = () =>
      cache.remember("settings", async () => {
        loads++;
        return loads;
      });
    try {
      await read();
      await vi.waitFor(() => expect(cache.listening()).toBe(true));
      expect(await read()).toBe(2);
      expect(await read()).toBe(2);
      const generation = cache.generation();
      cache.changedHere();
      // No notification has been sent: the forgetting is this instance's own, at once.
      expect(cache.generation()).not.toBe(generation);
      expect(cache.peek("settings")).toBeUndefined();
      expect(await read()).toBe(3);
    } finally {
      await cache.stop();
    }
  });
});

describe("a peek at what the catalogue cache holds", () => {
  it("gives a finished load only, never loads, and forgets with the catalogue and with the oldest entry", async () => {
    const cache = createCatalogueCache({ connectionString: shop.env.DATABASE_URL }, { maxEntries: 2 });
    try {
      expect(cache.peek("set")).toBeUndefined();
      cache.start();
      await vi.waitFor(() => expect(cache.listening()).toBe(true));
      let finish: (value: string) => void = () => {};
      const loading = cache.remember("set", () => new Promise<string>((resolve) => (finish = resolve)));
      // Still loading: a peek must not hand out what a read not yet answered will say.
      expect(cache.peek("set")).toBeUndefined();
      finish("value");
      await loading;
      expect(cache.peek("set")).toEqual({ value: "value" });
      await expect(cache.remember("failing", () => Promise.reject(new Error("no")))).rejects.toThrow("no");
      expect(cache.peek("failing")).toBeUndefined();
      // A change announced forgets it.
      const generation = cache.generation();
      await shop.db.$client.query(`select pg_notify('${CATALOGUE_CHANNEL}', 'test')`);
      await vi.waitFor(() => expect(cache.generation()).not.toBe(generation));
      expect(cache.peek("set")).toBeUndefined();
      // So does being pushed out as the oldest.
      await cache.remember("set", async () => "again");
      await cache.remember("b", async () => "b");
      await cache.remember("c", async () => "c");
      expect(cache.peek("set")).toBeUndefined();
      expect(cache.peek("c")).toEqual({ value: "c" });
    } finally {
      await cache.stop();
    }
  });
});

describe("the triggers behind the notifications", () => {
  async function notificationsDuring(change: (client: pg.Client) => Promise<unknown>) {
    const listener = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    const heard: string[] = [];
    await listener.connect();
    listener.on("notification", (message) => heard.push(message.payload ?? ""));
    await listener.query(`LISTEN ${CATALOGUE_CHANNEL}`);
    const writer = new pg.Client({ connectionString: shop.env.DATABASE_URL });
    await writer.connect();
    try {
      await change(writer);
      // A round trip on the listener's connection delivers whatever was committed before it.
      await listener.query("select 1");
      return heard;
    } finally {
      await writer.end();
      await listener.end();
    }
  }

  it("stay quiet while stock changes without an item running out, and speak when it runs out", async () => {
    await setStock(shop.db, SLUG, 40);
    expect(
      await notificationsDuring((db) => db.query("update products set stock = 39 where slug = $1", [SLUG])),
    ).toEqual([]);
    expect(
      await notificationsDuring((db) => db.query("update products set stock = 0 where slug = $1", [SLUG])),
    ).toEqual(["products"]);
    expect(
      await notificationsDuring((db) => db.query("update products set stock = 5 where slug = $1", [SLUG])),
    ).toEqual(["products"]);
    expect(
      await notificationsDuring((db) =>
        db.query("update products set price_paise = price_paise + 100 where slug = $1", [SLUG]),
      ),
    ).toEqual(["products"]);
    await setStock(shop.db, SLUG, 40);
  });

  it("say nothing for a change rolled back, and announce an approved review once per transaction", async () => {
    expect(
      await notificationsDuring(async (db) => {
        await db.query("begin");
        await db.query("update products set stock = 0 where slug = $1", [SLUG]);
        await db.query("rollback");
      }),
    ).toEqual([]);
    const account = await signUpViaApp(shop.app, "reviewer-notify@example.in");
    expect(
      await notificationsDuring(async (db) => {
        await db.query(
          `insert into reviews (product_slug, user_id, rating, title, body) values ($1, $2, 5, 'Lovely oil', 'Smells of neem and leaves my skin soft all day long.')`,
          [SLUG, account.userId],
        );
      }),
    ).toEqual([]);
    expect(
      await notificationsDuring(async (db) => {
        await db.query("begin");
        await db.query("update reviews set status = 'approved' where user_id = $1", [account.userId]);
        await db.query("update products set stock = 0 where slug = $1", [SLUG]);
        await db.query("update products set stock = 40 where slug = $1", [SLUG]);
        await db.query("commit");
      }),
    ).toEqual(["reviews", "products"]);
  });
});

describe("ETags", () => {
  it("answer 304 to a matching If-None-Match, and a new tag once the catalogue changes", async () => {
    for (const path of [
      "/api/products",
      `/api/products/${SLUG}`,
      "/api/combos",
      "/api/combos/skincare-combo",
    ]) {
      const first = await shop.app.request(path);
      expect(first.status).toBe(200);
      const tag = first.headers.get("ETag");
      expect(tag).toMatch(/^"[\w-]+"$/);
      expect(first.headers.get("Cache-Control")).toBe("no-cache");
      const again = await shop.app.request(path, { headers: { "If-None-Match": tag ?? "" } });
      expect(again.status).toBe(304);
      expect(again.headers.get("ETag")).toBe(tag);
      expect(await again.text()).toBe("");
    }
    await warmBoth();
    const before = await shop.app.request(`/api/products/${SLUG}`);
    const tag = before.headers.get("ETag") ?? "";
    // The same bytes carry the same tag on every instance, so a revalidation can reach either.
    expect((await second.app.request(`/api/products/${SLUG}`)).headers.get("ETag")).toBe(tag);
    await setStock(shop.db, SLUG, 0);
    await vi.waitFor(async () => {
      const after = await second.app.request(`/api/products/${SLUG}`, { headers: { "If-None-Match": tag } });
      expect(after.status).toBe(200);
      expect(after.headers.get("ETag")).not.toBe(tag);
      expect(((await after.json()) as Product).inStock).toBe(false);
    });
    await setStock(shop.db, SLUG, 40);
  });

  it("sends brotli or gzip bytes as asked, each with a tag of its own that still revalidates", async () => {
    const plain = await shop.app.request("/api/products?pageSize=100");
    const body = await plain.text();
    for (const [asked, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const response = await shop.app.request("/api/products?pageSize=100", {
        headers: { "Accept-Encoding": asked },
      });
      expect(response.headers.get("Content-Encoding")).toBe(encoding);
      expect(response.headers.get("Vary")).toContain("Accept-Encoding");
      const bytes = Buffer.from(await response.arrayBuffer());
      const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
      const text = (
        encoding === "br" ? brotliDecompressSync(bytes) : encoding === "gzip" ? gunzipSync(bytes) : bytes
      ).toString();
      expect(text).toBe(body);
      const tag = response.headers.get("ETag") ?? "";
      const revalidated = await shop.app.request("/api/products?pageSize=100", {
        headers: { "Accept-Encoding": asked, "If-None-Match": `"nope", ${tag}` },
      });
      expect(revalidated.status).toBe(304);
    }
  });
});
