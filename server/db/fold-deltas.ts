import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/** Which delta table to fold, and by what: the names are the table's own columns. */
export type DeltaFold = {
  table: string;
  /** The columns a folded row is one per (its day or month first). */
  keys: readonly string[];
  /** The columns summed. */
  sums: readonly string[];
  /** Only the rows whose date column is in from..to, both included; without it, all rows. */
  within?: { column: string; from: string; to: string };
  /** A folded row is kept while any of these sums is not 0 (all of `sums` unless told). */
  keptWhile?: readonly string[];
};

const list = (columns: readonly string[], each: (column: SQL) => SQL = (column) => column) =>
  sql.join(
    columns.map((column) => each(sql`${sql.identifier(column)}`)),
    sql`, `,
  );

/**
 * Replaces a table's delta rows by their sums, one row per key, in one statement under a transaction-level
 * advisory lock named after the table (one fold at a time; a fold that finds it taken does nothing): readers
 * see the old rows or the sums, never a mix, and rows a concurrent change writes meanwhile are not in the
 * statement's snapshot, so they stay and still count.
 */
export async function foldDeltaRows(db: Db, fold: DeltaFold) {
  const table = sql.identifier(fold.table);
  const columns = [...fold.keys, ...fold.sums];
  const within = fold.within
    ? sql` where ${sql.identifier(fold.within.column)} between ${fold.within.from}::date and ${fold.within.to}::date`
    : sql``;
  const kept = sql.join(
    (fold.keptWhile ?? fold.sums).map((column) => sql`sum(${sql.identifier(column)}) <> 0`),
    sql` or `,
  );
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext(${fold.table})) as locked`,
    );
    if (!rows[0]?.locked) return;
    await tx.execute(sql`
      with gone as (delete from ${table}${within} returning ${list(columns)})
      insert into ${table} (${list(columns)})
      select ${list(fold.keys)}, ${list(fold.sums, (column) => sql`sum(${column})`)}
      from gone group by ${list(fold.keys)}
      having ${kept}`);
  });
}
