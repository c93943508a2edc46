import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApp } from "../server/app.ts";
import { createDb, migrateDatabase } from "../server/db/client.ts";
import { startEmbeddedPostgres } from "../server/db/embedded.ts";
import { seedCatalogue } from "../server/db/seed/seed.ts";
import { createDeps } from "../server/deps.ts";
import { parseEnv } from "../server/env.ts";
import { signUpViaApp } from "../tests/accounts.ts";
import { measure, printRatios, type Row } from "./measure.ts";

/**
 * Cart operations through the whole app (routing, validation, session lookup, PostgreSQL), in
 * process, against GET /api/health measured in the same run. GET /api/ready (one `select 1`) shows
 * what a single database round trip costs on this machine.
 */
export default async function benchCart() {
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-cart-"));
  const postgres = await startEmbeddedPostgres(dataDir);
  const { db, pool } = createDb(postgres.url, { max: 10 });
  try {
    await migrateDatabase(db);
    await seedCatalogue(db);
    const env = parseEnv({
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      BETTER_AUTH_SECRET: "bench-secret-that-is-long-enough-for-better-auth",
      PUBLIC_URL: "http://localhost:3000",
    });
    const app = createApp(createDeps({ db, env }));
    const accounts = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        signUpViaApp(app, `bench-${index}@example.in`, undefined, `10.9.0.${index + 1}`),
      ),
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
      const response = await app.request(`/api${url}`, {
        method,
        headers: {
          ...(cookie ? { Cookie: cookie } : {}),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
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

    const rows: Row[] = [];
    const run = async (name: string, operation: (i: number) => Promise<unknown>, concurrency = 1) => {
      rows.push({ name, opsPerSecond: await measure(operation, { concurrency }) });
    };
    await run("GET /api/health (baseline)", () => request(null, "GET", "/health"));
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
    printRatios(rows);
  } finally {
    await pool.end();
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
