// npm run seed:big -- --orders 1000000 [--customers 100000]
// Fills the shop's database (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR, as the server uses) with
// five years of customers, orders, reviews, questions and messages. Adds to what is there; run it on a
// database kept for trying things, never on a live shop.
import { parseArgs } from "node:util";
import { migrateDatabase } from "../server/db/client.ts";
import { seedCatalogue } from "../server/db/seed/seed.ts";
import { fillBigShop } from "./big-shop.ts";
import { runScript, withShopDatabase } from "./shop-database.ts";

const USAGE = "Usage: npm run seed:big -- --orders <count> [--customers <count>]";

async function main() {
  const { values } = parseArgs({
    options: { orders: { type: "string" }, customers: { type: "string" } },
    strict: true,
  });
  const orders = Number(values.orders);
  const customers = values.customers === undefined ? undefined : Number(values.customers);
  if (
    !values.orders ||
    !Number.isInteger(orders) ||
    orders < 0 ||
    (customers !== undefined && !Number.isInteger(customers))
  ) {
    console.error(USAGE);
    return 2;
  }
  return withShopDatabase({ maxConnections: 2, createEmbedded: true }, async ({ db }) => {
    // The same start as the server's: schema up to date, catalogue and codes in place.
    await migrateDatabase(db);
    await seedCatalogue(db);
    const started = performance.now();
    console.log(`Filling the shop with ${orders.toLocaleString("en-IN")} orders...`);
    const counts = await fillBigShop(db, { orders, customers, log: console.log });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Done in ${seconds.toFixed(1)} s: ${counts.customers} customers, ${counts.orders} orders, ${counts.orderLines} lines, ` +
        `${counts.orderEvents} events, ${counts.reviews} reviews, ${counts.questions} questions, ${counts.messages} messages.`,
    );
    return 0;
  });
}

runScript(main);
