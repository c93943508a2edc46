import { randomBytes, randomUUID } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { withDatabase } from "../../tests/database-url.ts";
import { createDb, migrationsFolder } from "./client.ts";
import { orderLines, orders, products, users } from "./schema.ts";
import { products as seedProducts } from "./seed/catalogue.ts";

const serverUrl = inject("testDatabaseServer");
const name = `shop_migration_${randomBytes(6).toString("hex")}`;
let database: ReturnType<typeof createDb>;
let before: string;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  database = createDb(withDatabase(serverUrl, name), { max: 1 });
  // The migrations as they were before this one, to build a shop that already has duplicates.
  before = await mkdtemp(path.join(tmpdir(), "migrations-"));
  await cp(migrationsFolder, before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith("one_unpaid_online_order"));
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  await writeFile(journalPath, JSON.stringify(journal));
});
afterAll(async () => {
  await database.pool.end();
  await rm(before, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

it("keeps an account's newest waiting order and cancels and restocks the older ones", async () => {
  const { db } = database;
  await migrate(db, { migrationsFolder: before });
  // The products alone: the shop's later migrations change other seeded tables (discount codes), which the
  // schema as it was before this migration does not have yet.
  await db
    .insert(products)
    .values(seedProducts.map(({ menus, ...product }) => ({ ...product, menus: [...menus] })));
  await db.insert(users).values({ id: "u1", name: "Two Tabs", email: "two@example.in" });
  const stockOf = async () =>
    (await db.select({ stock: products.stock }).from(products).where(eq(products.slug, "wax-powder")))[0]
      ?.stock;
  const initial = (await stockOf()) ?? 0;
  const ids: string[] = [];
  for (const [index, minutesAgo] of [20, 10, 1].entries()) {
    const id = randomUUID();
    ids.push(id);
    await db.insert(orders).values({
      id,
      number: `PN-2026-90000${index}`,
      userId: "u1",
      status: "awaiting_payment",
      paymentMethod: "razorpay",
      subtotalPaise: 100,
      shippingPaise: 0,
      totalPaise: 100,
      shipName: "A",
      shipPhone: "9876543210",
      shipLine1: "1",
      shipCity: "Chennai",
      shipState: "Tamil Nadu",
      shipPin: "600001",
      estimatedDeliveryFrom: "2026-01-01",
      estimatedDeliveryTo: "2026-01-02",
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    await db.insert(orderLines).values({
      orderId: id,
      position: 0,
      itemId: "wax-powder",
      kind: "product",
      name: "Wax Powder",
      image: "",
      unitPricePaise: 100,
      quantity: 2,
      lineTotalPaise: 200,
    });
    await db
      .update(products)
      .set({ stock: sql`${products.stock} - 2` })
      .where(eq(products.slug, "wax-powder"));
  }

  await migrate(db, { migrationsFolder });

  const statuses = await db.select({ id: orders.id, status: orders.status }).from(orders);
  expect(Object.fromEntries(statuses.map((o) => [o.id, o.status]))).toEqual({
    [ids[0] as string]: "cancelled",
    [ids[1] as string]: "cancelled",
    [ids[2] as string]: "awaiting_payment",
  });
  expect(await stockOf()).toBe(initial - 2);
});
