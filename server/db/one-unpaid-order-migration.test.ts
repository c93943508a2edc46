import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { expect, it } from "vitest";
import { setUpMigrationDatabase } from "../../tests/migration-database.ts";
import { migrationsFolder } from "./client.ts";
import { orders, products } from "./schema.ts";

// The migrations as they were before this one build a shop that already has duplicates.
const database = setUpMigrationDatabase("one_unpaid_online_order");

it("keeps an account's newest waiting order and cancels and restocks the older ones", async () => {
  const { db } = database;
  await migrate(db, { migrationsFolder: database.migrationsBefore });
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
