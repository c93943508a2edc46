import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/database.ts";
import { createDb } from "../db/client.ts";
import { documentCounters } from "../db/schema.ts";
import { takeDocumentNumber } from "./document-numbers.ts";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let other: ReturnType<typeof createDb>;

beforeAll(async () => {
  database = await createTestDatabase();
  // A second pool on the same database: a second instance of the shop.
  other = createDb(database.url, { max: 20 });
});
afterAll(async () => {
  await other.pool.end();
  await database.drop();
});

const AT = new Date("2026-11-24T06:00:00Z");

/** Takes a number in a transaction of its own on one of the two instances; `fail` rolls it back after. */
async function issue(index: number, fail = false): Promise<string | null> {
  const db = index % 2 === 0 ? database.db : other.db;
  try {
    return await db.transaction(async (tx) => {
      const taken = await takeDocumentNumber(tx, "invoice", AT);
      // Hold the number a moment, as issuing an invoice does while it writes its lines.
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error("refused after taking a number");
      return taken.number;
    });
  } catch (error) {
    if (fail) return null;
    throw error;
  }
}

describe("invoice numbers under load", () => {
  it("30 issues at the same moment on two instances get 30 consecutive numbers", async () => {
    const numbers = await Promise.all(Array.from({ length: 30 }, (_, index) => issue(index)));
    expect([...numbers].sort()).toEqual(
      Array.from({ length: 30 }, (_, index) => `PN/26-27/${String(index + 1).padStart(6, "0")}`),
    );
  });

  it("issues that roll back leave no gap: their numbers go to the next ones", async () => {
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) => issue(index, index % 3 === 0)),
    );
    const committed = results.filter((number): number is string => number !== null).sort();
    expect(committed).toHaveLength(20);
    expect(committed).toEqual(
      Array.from({ length: 20 }, (_, index) => `PN/26-27/${String(index + 31).padStart(6, "0")}`),
    );
  });

  it("each kind and financial year is a series of its own", async () => {
    const [credit, nextYear] = await database.db.transaction(async (tx) => [
      await takeDocumentNumber(tx, "credit_note", AT),
      await takeDocumentNumber(tx, "invoice", new Date("2027-04-01T00:00:00+05:30")),
    ]);
    expect(credit?.number).toBe("CN/26-27/000001");
    expect(nextYear?.number).toBe("PN/27-28/000001");
    const rows = await database.db.select().from(documentCounters);
    expect(rows).toHaveLength(3);
  });
});
