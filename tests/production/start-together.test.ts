import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { migrationsFolder } from "../../server/db/client.ts";
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
