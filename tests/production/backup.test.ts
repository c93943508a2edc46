import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { connectEmbeddedPostgres } from "../../server/db/embedded.ts";
import { signUpViaHttp, TEST_PASSWORD } from "../accounts.ts";
import { TEST_AUTH_SECRET } from "../database.ts";
import { TEST_ADDRESS } from "../orders.ts";
import { startDebianPostgres } from "./debian-postgres.ts";
import { callHttp, type Instance, startInstance } from "./instances.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

/** Three shoppers each order one product; their order numbers. */
async function placeOrders(shop: Instance): Promise<string[]> {
  const numbers: string[] = [];
  const products = (await callHttp(shop.url, "GET", "/api/products")) as {
    body: { items: { slug: string }[] };
  };
  for (let index = 0; index < 3; index++) {
    const account = await signUpViaHttp(shop.url, `kept-${index}@example.com`);
    const saved = (await callHttp(shop.url, "POST", "/api/addresses", {
      cookie: account.cookie,
      body: TEST_ADDRESS,
    })) as { body: { address: { id: string } } };
    await callHttp(shop.url, "POST", "/api/cart/items", {
      cookie: account.cookie,
      body: { id: products.body.items[index]?.slug, kind: "product" },
    });
    const placed = (await callHttp(shop.url, "POST", "/api/orders", {
      cookie: account.cookie,
      body: { addressId: saved.body.address.id, paymentMethod: "cod" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    })) as { status: number; body: { order: { number: string } } };
    expect(placed.status).toBe(201);
    numbers.push(placed.body.order.number);
  }
  return numbers;
}

/** Every order's number with its count of lines, read straight from the database. */
async function ordersIn(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ number: string; lines: number }>(
      `select o.number, (select count(*)::int from order_lines l where l.order_id = o.id) as lines
         from orders o order by o.number`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

async function wipe(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("drop schema public cascade; drop schema drizzle cascade; create schema public");
  await client.end();
}

describe("npm run backup and npm run restore", () => {
  let database: Awaited<ReturnType<typeof startDebianPostgres>> | undefined;
  let instance: Instance | undefined;
  const folders: string[] = [];

  afterAll(async () => {
    await instance?.stop();
    await database?.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const scripts = (env: Record<string, string>) => {
    const options = { cwd: root, env: { ...process.env, BETTER_AUTH_SECRET: TEST_AUTH_SECRET, ...env } };
    return {
      backup: (file: string) => run("npm", ["run", "--silent", "backup", "--", file], options),
      restore: (file: string) => run("npm", ["run", "--silent", "restore", "--", file], options),
    };
  };

  it("backs up an external database with pg_dump; wiped and restored, it still holds every order", async () => {
    database = await startDebianPostgres();
    instance = await startInstance("backup", { DATABASE_URL: database.url });
    const numbers = await placeOrders(instance);
    await instance.stop();
    instance = undefined;

    const folder = await mkdtemp(path.join(tmpdir(), "shop-backup-"));
    folders.push(folder);
    const file = path.join(folder, "shop.dump");
    const { backup, restore } = scripts({ DATABASE_URL: database.url, DATA_DIR: folder });
    expect((await backup(file)).stdout).toContain("Backed up with pg_dump");
    await wipe(database.url);
    await restore(file);
    instance = await startInstance("restored", { DATABASE_URL: database.url });
    const rows = await ordersIn(database.url);
    console.log(
      `[backup] PostgreSQL ${database.version}: ${rows.length} of ${numbers.length} orders restored`,
    );
    expect(rows).toEqual(numbers.sort().map((number) => ({ number, lines: 1 })));
    await instance.stop();
    instance = undefined;
  });

  it("backs up the embedded database by COPY; wiped and restored, the shop serves every order again", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "shop-embedded-backup-"));
    folders.push(folder);
    // As root PostgreSQL runs as the "postgres" user, which must pass through the folders above its own.
    await chmod(folder, 0o711);
    const dataDir = path.join(folder, "data");
    instance = await startInstance("embedded", { DATA_DIR: dataDir });
    const numbers = await placeOrders(instance);
    await instance.stop();
    instance = undefined;

    const file = path.join(folder, "shop.dump");
    const { backup, restore } = scripts({ DATABASE_URL: "", DATA_DIR: dataDir });
    const started = Date.now();
    expect((await backup(file)).stdout).toContain("Backed up by COPY");
    const backupMs = Date.now() - started;
    const embedded = await connectEmbeddedPostgres(dataDir);
    try {
      await wipe(embedded.url);
    } finally {
      await embedded.stop();
    }
    await restore(file);

    // The restored shop answers from the restored rows: the first shopper signs in and sees their order.
    instance = await startInstance("embedded-restored", { DATA_DIR: dataDir });
    const signedIn = (await callHttp(instance.url, "POST", "/api/auth/sign-in/email", {
      body: { email: "kept-0@example.com", password: TEST_PASSWORD },
    })) as { status: number };
    expect(signedIn.status).toBe(200);
    const served = (await callHttp(instance.url, "GET", `/api/products`)) as { status: number };
    expect(served.status).toBe(200);
    await instance.stop();
    instance = undefined;

    const again = await connectEmbeddedPostgres(dataDir);
    try {
      const rows = await ordersIn(again.url);
      console.log(
        `[backup] embedded PostgreSQL by COPY: ${rows.length} of ${numbers.length} orders restored; backup took ${backupMs} ms`,
      );
      expect(rows).toEqual(numbers.sort().map((number) => ({ number, lines: 1 })));
    } finally {
      await again.stop();
    }
  });
});
