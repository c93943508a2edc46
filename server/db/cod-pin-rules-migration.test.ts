import { migrate } from "drizzle-orm/node-postgres/migrator";
import { expect, it } from "vitest";
import { evaluateCod } from "../../common/cod-rules.ts";
import { setUpMigrationDatabase } from "../../tests/migration-database.ts";
import { migrationsFolder } from "./client.ts";

// The migrations as they were before this one build a shop with "no COD" delivery rules.
const database = setUpMigrationDatabase("cod_pin_rules_in_one_store");

it("moves the no-COD delivery rules into the COD place rules, each PIN allowed what it was", async () => {
  await migrate(database.db, { migrationsFolder: database.migrationsBefore });
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
