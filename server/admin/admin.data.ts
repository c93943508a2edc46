import { count, eq, sql } from "drizzle-orm";
import type { AdminSummary } from "../../common/admin.ts";
import type { Db } from "../db/client.ts";
import { combos, products, users } from "../db/schema.ts";

/** The dashboard's figures; the orders, questions and reviews work adds theirs beside these. */
export async function getAdminSummary(db: Db): Promise<AdminSummary> {
  const [people] = await db
    .select({
      customers: sql<number>`count(*) filter (where ${users.role} = 'customer')`.mapWith(Number),
      newCustomersLast7Days:
        sql<number>`count(*) filter (where ${users.role} = 'customer' and ${users.createdAt} > now() - interval '7 days')`.mapWith(
          Number,
        ),
      admins: sql<number>`count(*) filter (where ${users.role} in ('staff', 'owner'))`.mapWith(Number),
    })
    .from(users);
  const [catalogue] = await db
    .select({
      products: count(),
      productsOutOfStock: sql<number>`count(*) filter (where ${products.stock} = 0)`.mapWith(Number),
    })
    .from(products)
    .where(eq(products.active, true));
  const [bundles] = await db.select({ combos: count() }).from(combos).where(eq(combos.active, true));
  return {
    customers: people?.customers ?? 0,
    newCustomersLast7Days: people?.newCustomersLast7Days ?? 0,
    admins: people?.admins ?? 0,
    products: catalogue?.products ?? 0,
    productsOutOfStock: catalogue?.productsOutOfStock ?? 0,
    combos: bundles?.combos ?? 0,
  };
}
