import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { evaluateCod } from "../../common/cod-rules.ts";
import { withDatabase } from "../../tests/database-url.ts";
import { createDb, migrationsFolder } from "./client.ts";

const serverUrl = inject("testDatabaseServer");
const name = `shop_migration_${randomBytes(6).toString("hex")}`;
let database: ReturnType<typeof createDb>;
let before: string;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  database = createDb(withDatabase(serverUrl, name), { max: 1 });
  // The migrations as they were before this one, to build a shop with "no COD" delivery rules.
  before = await mkdtemp(path.join(tmpdir(), "migrations-"));
  await cp(migrationsFolder, before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith("cod_pin_rules_in_one_store"));
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  await writeFile(journalPath, JSON.stringify(journal));
});
afterAll(async () => {
  await database.pool.end();
  await rm(before, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

it("moves the no-COD delivery rules into the COD place rules, each PIN allowed what it was", async () => {
  await migrate(database.db, { migrationsFolder: before });
  const query = (text: string) => database.pool.query(text);
  await query(`INSERT INTO delivery_rules (prefix, rule, note) VALUES
    ('79', 'no_cod', 'North east'), ('795001', 'served', ''),
    ('74', 'not_served', 'Islands'), ('744101', 'no_cod', 'Port Blair only'),
    ('5600', 'no_cod', ''), ('11', 'not_served', '')`);
  await query(`INSERT INTO cod_place_rules (kind, value, max_paise, note) VALUES
    ('pin', '5600', 200000, 'Capped'), ('state', 'Bihar', NULL, '')`);

  await migrate(database.db, { migrationsFolder });

  const delivery = await query("SELECT prefix, rule, note FROM delivery_rules ORDER BY prefix");
  expect(delivery.rows).toEqual([
    { prefix: "11", rule: "not_served", note: "" },
    { prefix: "74", rule: "not_served", note: "Islands" },
    // Still served, as the exception to 74 it was; its cash is now a COD rule.
    { prefix: "744101", rule: "served", note: "Port Blair only" },
    { prefix: "795001", rule: "served", note: "" },
  ]);
  const cod = await query("SELECT kind, value, max_paise, note FROM cod_place_rules ORDER BY kind, value");
  expect(cod.rows).toEqual([
    { kind: "pin", value: "5600", max_paise: null, note: "Capped" },
    { kind: "pin", value: "744101", max_paise: null, note: "Port Blair only" },
    { kind: "pin", value: "79", max_paise: null, note: "North east" },
    {
      kind: "pin",
      value: "795001",
      max_paise: 100_000_000,
      note: "Cash on delivery as usual (an exception in the delivery rules)",
    },
    { kind: "state", value: "Bihar", max_paise: null, note: "" },
  ]);
  const places = cod.rows.map((row) => ({
    kind: row.kind,
    value: row.value,
    maxPaise: row.max_paise,
    note: row.note,
  }));
  const rules = {
    enabled: true,
    maxOrderPaise: 500_000,
    firstOrderMaxPaise: null,
    prepaidOnlyAfterRtos: null,
    places,
  };
  const codAt = (pin: string, totalPaise: number) =>
    evaluateCod(rules, { totalPaise, pin, district: null, state: null, earlierDelivered: 1, earlierRtos: 0 });
  expect(codAt("795002", 10_000)).toMatchObject({ available: false, rule: "pin_no_cod" });
  expect(codAt("795001", 10_000)).toEqual({ available: true });
  // The shop-wide cap still holds for the exception.
  expect(codAt("795001", 500_100)).toMatchObject({ available: false, rule: "max_order" });
  expect(codAt("560038", 10_000)).toMatchObject({
    available: false,
    reason: "Cash on delivery is not available for PIN code 560038.",
  });
  await expect(query("INSERT INTO delivery_rules (prefix, rule) VALUES ('12', 'no_cod')")).rejects.toThrow(
    /delivery_rules_rule/,
  );
});
