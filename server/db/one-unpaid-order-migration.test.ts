import { randomBytes, randomUUID } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { withDatabase } from "../../tests/database-url.ts";
import { createDb, migrationsFolder } from "./client.ts";
import { orders, products } from "./schema.ts";

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
  // Plain SQL, naming the columns the tables had before this migration: later migrations add columns that the
  // schema in server/db/schema.ts would fill in.
  const query = (text: string, values: unknown[] = []) => database.pool.query(text, values);
  await query(
    `INSERT INTO products (slug, name, description, category, subcategory, price_paise, rating, benefits, images, stock)
     VALUES ('wax-powder', 'Wax Powder', 'Wax powder.', 'Body Care', 'Powders', 100, 4.5, '[]', '[]', 10)`,
  );
  await query("INSERT INTO users (id, name, email) VALUES ('u1', 'Two Tabs', 'two@example.in')");
  const stockOf = async () =>
    (await db.select({ stock: products.stock }).from(products).where(eq(products.slug, "wax-powder")))[0]
      ?.stock;
  const initial = (await stockOf()) ?? 0;
  const ids: string[] = [];
  for (const [index, minutesAgo] of [20, 10, 1].entries()) {
    const id = randomUUID();
    ids.push(id);
    await query(
      `INSERT INTO orders (id, number, user_id, status, payment_method, subtotal_paise, shipping_paise, total_paise,
         ship_name, ship_phone, ship_line1, ship_city, ship_state, ship_pin, estimated_delivery_from,
         estimated_delivery_to, created_at)
       VALUES ($1, $2, 'u1', 'awaiting_payment', 'razorpay', 100, 0, 100, 'A', '9876543210', '1', 'Chennai',
         'Tamil Nadu', '600001', '2026-01-01', '2026-01-02', $3)`,
      [id, `PN-2026-90000${index}`, new Date(Date.now() - minutesAgo * 60_000)],
    );
    await query(
      `INSERT INTO order_lines (order_id, position, item_id, kind, name, image, unit_price_paise, quantity,
         line_total_paise)
       VALUES ($1, 0, 'wax-powder', 'product', 'Wax Powder', '', 100, 2, 200)`,
      [id],
    );
    await query("UPDATE products SET stock = stock - 2 WHERE slug = 'wax-powder'");
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
