import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDatabase } from "../../tests/database.ts";
import { fromTemplate, onConnection } from "./message-transaction.ts";
import {
  build,
  noRead,
  readAs,
  readNow,
  rowsRead,
  selectedRowSchema,
  tableRowsRead,
  together,
} from "./reads.ts";
import { products } from "./schema.ts";

/**
 * A Read is defined once and sent alone (readNow, on the pool or on a transaction's connection) or with others
 * in one message; its rows are parsed by its schema either way.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let slug: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const [first] = await database.db.select({ slug: products.slug }).from(products).limit(1);
  slug = first?.slug ?? "";
});
afterAll(() => database?.drop());

const stockColumns = { slug: products.slug, stock: products.stock };
const stockRead = (of: string) =>
  rowsRead(
    fromTemplate(
      "reads test stock",
      () =>
        build
          .select(stockColumns)
          .from(products)
          .where(eq(products.slug, sql.placeholder("slug"))),
      { slug: of },
    ),
    selectedRowSchema(stockColumns, { slug: z.string(), stock: z.number().int() }),
  );

describe("a read", () => {
  it("gives the same answer sent alone or with others in one message, under the names it was given", async () => {
    const alone = await readNow(database.db, stockRead(slug));
    expect(alone).toEqual([{ slug, stock: expect.any(Number) }]);
    const both = together({
      nothing: noRead("none"),
      stock: stockRead(slug),
      one: rowsRead(sql`select 1 as "one"`, z.object({ one: z.number() })),
    });
    expect(both.statements).toHaveLength(2);
    const answer = await onConnection(database.db, async (connection) =>
      both.answer(await connection.read(both.statements)),
    );
    expect(answer).toEqual({ nothing: "none", stock: alone, one: [{ one: 1 }] });
  });

  it("runs on the transaction's own connection when given one, seeing what it has not committed", async () => {
    const [before] = await readNow(database.db, stockRead(slug));
    const inside = await database.db.transaction(async (tx) => {
      await tx
        .update(products)
        .set({ stock: (before?.stock ?? 0) + 5 })
        .where(eq(products.slug, slug));
      const [row] = await readNow(tx, stockRead(slug));
      await tx
        .update(products)
        .set({ stock: before?.stock ?? 0 })
        .where(eq(products.slug, slug));
      return row;
    });
    expect(inside?.stock).toBe((before?.stock ?? 0) + 5);
    expect(await readNow(database.db, stockRead(slug))).toEqual([before]);
  });

  it("refuses a row its schema does not describe instead of passing it on", async () => {
    const wrong = rowsRead(sql`select 'seven' as "stock"`, z.object({ stock: z.number() }));
    await expect(readNow(database.db, wrong)).rejects.toBeInstanceOf(z.ZodError);
  });

  it("parses each read by the same row schema alike, however many reads are defined with it", async () => {
    const row = z.object({ stock: z.number() });
    const good = () => rowsRead(sql`select 7 as "stock"`, row);
    expect(await readNow(database.db, good())).toEqual([{ stock: 7 }]);
    expect(await readNow(database.db, good())).toEqual([{ stock: 7 }]);
    const both = together({ first: good(), second: rowsRead(sql`select 'seven' as "stock"`, row) });
    await expect(readNow(database.db, both)).rejects.toBeInstanceOf(z.ZodError);
    expect(await readNow(database.db, good())).toEqual([{ stock: 7 }]);
  });

  it("reads a whole row by its table's columns, dates included, and says it in other words", async () => {
    const read = readAs(
      tableRowsRead(
        fromTemplate(
          "reads test product",
          () =>
            build
              .select()
              .from(products)
              .where(eq(products.slug, sql.placeholder("slug"))),
          { slug },
        ),
        products,
      ),
      ([row]) => ({ slug: row?.slug, updated: row?.updatedAt }),
    );
    const answer = await readNow(database.db, read);
    expect(answer.slug).toBe(slug);
    expect(answer.updated).toBeInstanceOf(Date);
  });
});
