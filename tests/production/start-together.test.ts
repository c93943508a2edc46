import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { UNKNOWN_PIN_MESSAGE } from "../../common/delivery-check.ts";
import { migrationsFolder } from "../../server/db/client.ts";
import { loadPinDirectory } from "../../server/delivery/pin-directory.ts";
import { createTestDatabase } from "../database.ts";
import { withDatabase } from "../database-url.ts";
import { type Instance, startInstance } from "./instances.ts";

describe("instances started together on an empty database", () => {
  const serverUrl = inject("testDatabaseServer");
  const name = `shop_together_${Date.now()}`;
  const url = withDatabase(serverUrl, name);
  let instances: Instance[] = [];

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it("all 4 come up, migrating and seeding once, and stop with exit code 0", async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();

    const started = Date.now();
    const starting = ["one", "two", "three", "four"].map((label) =>
      startInstance(label, { DATABASE_URL: url }, { waitReady: false }),
    );
    instances = await Promise.all(starting);
    await Promise.all(instances.map((instance) => instance.ready(90_000)));
    console.log(`[start-together] 4 instances ready in ${Date.now() - started} ms`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8"));
    const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
    const products = await client.query(
      "select count(*)::int as n, count(distinct slug)::int as slugs from products",
    );
    await client.end();
    expect(applied.rows[0].n).toBe(journal.entries.length);
    expect(products.rows[0].n).toBeGreaterThan(0);
    expect(products.rows[0].slugs).toBe(products.rows[0].n);

    for (const instance of instances) {
      expect((await fetch(`${instance.url}/api/products`)).status).toBe(200);
    }
    const exits = await Promise.all(instances.map((instance) => instance.stop()));
    expect(exits).toEqual(instances.map(() => ({ code: 0, signal: null })));
  });
});

// Browser tests serve their shops from the test worker's process (tests/in-process-shop.ts), without
// server/serve.ts's ready line; a shop process's own line is checked here, and the built server's own copy
// of the PIN directory (made when it was built, scripts/build-server.ts).
describe("a shop process's ready line and PIN directory", () => {
  it("names PUBLIC_URL, not a guessed localhost (issue 30), and knows the PINs the source's directory knows", async () => {
    const PUBLIC_URL = "https://shop.example.in";
    const database = await createTestDatabase();
    const shop = await startInstance("ready-line", { DATABASE_URL: database.url, PUBLIC_URL });
    try {
      // The line is written as the server starts listening, just before it answers /api/ready.
      const deadline = Date.now() + 10_000;
      while (!shop.output().includes("Shop ready on") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(shop.output()).toContain(`Shop ready on ${PUBLIC_URL} (`);
      expect(shop.output()).not.toContain("Shop ready on http://localhost");

      // Every thousandth PIN, and the border PINs that reach two states, answered as the source's map has them.
      const directory = await loadPinDirectory();
      const pins = [...directory.keys()].filter(
        (pin, index) => index % 1000 === 0 || (directory.get(pin)?.states.length ?? 0) > 1,
      );
      expect(pins.length).toBeGreaterThan(40);
      for (const pin of pins) {
        const answer = await fetch(`${shop.url}/api/pincodes/${pin}`);
        expect(await answer.json()).toEqual(directory.get(pin));
      }
      const unlisted = Array.from({ length: 1000 }, (_, step) => String(110001 + step)).find(
        (pin) => !directory.has(pin),
      );
      const refused = await fetch(`${shop.url}/api/pincodes/${unlisted}`);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { fields: { pin: UNKNOWN_PIN_MESSAGE } } });
    } finally {
      await shop.stop();
      await database.drop();
    }
  });
});
