import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { signUpViaHttp } from "../accounts.ts";
import { TEST_AUTH_SECRET } from "../database.ts";
import { TEST_ADDRESS } from "../orders.ts";
import { startDebianPostgres } from "./debian-postgres.ts";
import { callHttp, type Instance, startInstance } from "./instances.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

describe("npm run backup and npm run restore", () => {
  let database: Awaited<ReturnType<typeof startDebianPostgres>> | undefined;
  let instance: Instance | undefined;
  let folder: string | undefined;

  afterAll(async () => {
    await instance?.stop();
    await database?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("backs up an external database, which is wiped, restored, and still holds every order", async () => {
    database = await startDebianPostgres();
    instance = await startInstance("backup", { DATABASE_URL: database.url });
    const shop = instance;
    const numbers: string[] = [];
    for (let index = 0; index < 3; index++) {
      const account = await signUpViaHttp(shop.url, `kept-${index}@example.com`);
      const saved = (await callHttp(shop.url, "POST", "/api/addresses", {
        cookie: account.cookie,
        body: TEST_ADDRESS,
      })) as { body: { address: { id: string } } };
      const products = (await callHttp(shop.url, "GET", "/api/products")) as {
        body: { items: { slug: string }[] };
      };
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
    await shop.stop();
    instance = undefined;

    folder = await mkdtemp(path.join(tmpdir(), "shop-backup-"));
    const file = path.join(folder, "shop.dump");
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: folder,
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    };
    const backedUp = await run("npm", ["run", "--silent", "backup", "--", file], { cwd: root, env });
    expect(backedUp.stdout).toContain("Backed up");

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query("drop schema public cascade; drop schema drizzle cascade; create schema public");
    await client.end();

    await run("npm", ["run", "--silent", "restore", "--", file], { cwd: root, env });
    instance = await startInstance("restored", { DATABASE_URL: database.url });
    const after = new pg.Client({ connectionString: database.url });
    await after.connect();
    const { rows } = await after.query<{ number: string; lines: number }>(
      `select o.number, (select count(*)::int from order_lines l where l.order_id = o.id) as lines
         from orders o order by o.number`,
    );
    await after.end();
    console.log(
      `[backup] PostgreSQL ${database.version}: ${rows.length} of ${numbers.length} orders restored`,
    );
    expect(rows).toEqual(numbers.sort().map((number) => ({ number, lines: 1 })));
  });
});
