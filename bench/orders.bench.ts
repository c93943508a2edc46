import { sql } from "drizzle-orm";
import { signUpViaApp } from "../tests/accounts.ts";
import { asUser, placeOrderRequest, putInCart, saveAddress } from "../tests/orders.ts";
import { startBenchShop } from "./support.ts";

/**
 * Orders placed per second on the embedded PostgreSQL, through the whole API (session, validation, the order
 * transaction with its row locks, the confirmation e-mail), as a ratio against a baseline measured in the same
 * run: a signed-in request reading the address book (session lookup plus one query). Filling the carts between
 * rounds is not timed.
 */
const SHOPPERS = 8; // concurrent shoppers, each with their own cart
const ROUNDS = 25;
const WARMUP_ROUNDS = 3;

export default async function ordersBench() {
  const shop = await startBenchShop();
  const { app, db } = shop;
  try {
    await db.execute(sql`update products set stock = 1000000; update combos set stock = 1000000`);
    const shoppers = await Promise.all(
      Array.from({ length: SHOPPERS }, async (_, index) => {
        const account = await signUpViaApp(app, `bench${index}@example.in`);
        return { ...account, addressId: await saveAddress(app, account.cookie) };
      }),
    );

    const baseline = async () => {
      const responses = await Promise.all(
        shoppers.map((s) => app.request("/api/addresses", asUser(s.cookie))),
      );
      for (const response of responses)
        if (response.status !== 200) throw new Error(`baseline ${response.status}`);
    };
    const orderRound = async () => {
      const responses = await Promise.all(
        shoppers.map((s) =>
          placeOrderRequest(app, s.cookie, { addressId: s.addressId, paymentMethod: "cod" }),
        ),
      );
      for (const response of responses) {
        if (response.status !== 201) throw new Error(`order ${response.status} ${await response.text()}`);
      }
    };
    const fillCarts = () =>
      Promise.all(
        shoppers.map((s) =>
          putInCart(db, s.userId, [
            { itemId: "hair-growth-oil", quantity: 2 },
            { itemId: "face-glow-oil" },
            { itemId: "skincare-combo", kind: "combo" },
          ]),
        ),
      );

    const measure = async (round: () => Promise<void>, before?: () => Promise<unknown>) => {
      for (let index = 0; index < WARMUP_ROUNDS; index++) {
        await before?.();
        await round();
      }
      let elapsed = 0;
      for (let index = 0; index < ROUNDS; index++) {
        await before?.();
        const start = performance.now();
        await round();
        elapsed += performance.now() - start;
      }
      return (ROUNDS * SHOPPERS) / (elapsed / 1000);
    };

    const baselinePerSecond = await measure(baseline);
    const ordersPerSecond = await measure(orderRound, fillCarts);
    console.log(`baseline (signed-in read of the address book): ${baselinePerSecond.toFixed(0)} requests/s`);
    console.log(`orders placed:                                 ${ordersPerSecond.toFixed(1)} orders/s`);
    console.log(
      `ratio: ${(ordersPerSecond / baselinePerSecond).toFixed(3)} (each order costs ${(
        baselinePerSecond / ordersPerSecond
      ).toFixed(1)} baseline requests), ${SHOPPERS} concurrent shoppers, ${ROUNDS * SHOPPERS} orders`,
    );
  } finally {
    await shop.stop();
  }
}
