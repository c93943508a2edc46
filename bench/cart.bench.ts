import { signUpViaApp } from "../tests/accounts.ts";
import { jsonRequest } from "../tests/database.ts";
import { type Measurement, measure, report, startBenchShop } from "./support.ts";

/**
 * Cart operations through the whole app (routing, validation, session lookup, PostgreSQL), in
 * process, against GET /api/health measured in the same run. GET /api/ready (one `select 1`) shows
 * what a single database round trip costs on this machine.
 */
export default async function benchCart() {
  const shop = await startBenchShop();
  const { app, db } = shop;
  try {
    const accounts = await Promise.all(
      Array.from({ length: 8 }, (_, index) => signUpViaApp(app, `bench-${index}@example.in`)),
    );
    const [shopper] = accounts;
    if (!shopper) throw new Error("no account");
    const slugs = (await db.query.products.findMany({ columns: { slug: true } })).map((row) => row.slug);

    const request = async (
      cookie: string | null,
      method: string,
      url: string,
      body?: unknown,
      acceptable = [200],
    ) => {
      const response = await app.request(
        `/api${url}`,
        jsonRequest({ method, body, ...(cookie ? { cookie } : {}) }),
      );
      if (!acceptable.includes(response.status))
        throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    const add = (cookie: string, i: number) =>
      // 409 is a line already at 99: still a full round trip, and it keeps long runs going.
      request(cookie, "POST", "/cart/items", { id: slugs[i % slugs.length], kind: "product" }, [200, 409]);

    // A cart of 5 lines, as a shopper would have.
    for (let i = 0; i < 5; i++) await add(shopper.cookie, i);
    const guestLines = slugs.slice(0, 5).map((id) => ({ id, kind: "product", quantity: 2 }));

    const rows: Measurement[] = [];
    const run = async (name: string, operation: (i: number) => Promise<unknown>, concurrency = 1) => {
      rows.push(await measure(name, operation, { concurrency }));
    };
    const baseline = await measure("GET /api/health", () => request(null, "GET", "/health"));
    await run("GET /api/ready (one select 1)", () => request(null, "GET", "/ready"));
    await run("GET /api/cart/version signed out", () => request(null, "GET", "/cart/version"));
    await run("GET /api/cart/version (the poll)", () => request(shopper.cookie, "GET", "/cart/version"));
    await run("GET /api/cart (5 lines)", () => request(shopper.cookie, "GET", "/cart"));
    await run("PUT /api/cart/items/:id quantity", (i) =>
      request(shopper.cookie, "PUT", `/cart/items/${slugs[0]}`, { quantity: (i % 98) + 1 }),
    );
    await run("POST /api/cart/quote (guest, 5 lines)", () =>
      request(null, "POST", "/cart/quote", { items: guestLines, discountCode: "GLOW20" }),
    );
    // Adds spread over the catalogue so no line reaches 99; the cart is emptied between runs.
    await request(shopper.cookie, "DELETE", "/cart/items");
    await run("POST /api/cart/items (add one)", (i) => add(shopper.cookie, i));
    await Promise.all(accounts.map((account) => request(account.cookie, "DELETE", "/cart/items")));
    await run(
      "POST /api/cart/items, 8 accounts at once",
      (i) => add(accounts[i % accounts.length]?.cookie ?? "", i),
      8,
    );
    await Promise.all(accounts.map((account) => request(account.cookie, "DELETE", "/cart/items")));
    await run("POST /api/cart/items, 1 account 8 at once", (i) => add(shopper.cookie, i), 8);
    report("Cart operations (in-process, embedded PostgreSQL)", baseline, rows);
  } finally {
    await shop.stop();
  }
}
