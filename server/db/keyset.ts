import { type Column, type SQL, sql } from "drizzle-orm";
import type { PgSelect, PgTable } from "drizzle-orm/pg-core";
import {
  encodeCursor,
  type KeysetCursor,
  LIST_TOTAL_CAP,
  type ListCursors,
  type ListTotal,
} from "../../common/lists.ts";
import type { Db } from "./client.ts";

/**
 * Keyset paging for every long admin list (and the customer's orders): newest first by (created_at, id),
 * each page the rows after or before a cursor, read from an index on (…, created_at, id) in the order it
 * keeps them. One helper, so each new list gets it right by using it.
 */
export type KeysetColumns = { at: Column; id: Column };
export type KeysetRequest = { after?: KeysetCursor; before?: KeysetCursor };

/**
 * The cursor's timestamp as text with all six decimals: a JavaScript Date keeps milliseconds only, and a
 * cursor rounded to them would skip or repeat rows placed within the same millisecond.
 */
export const cursorAt = (at: Column) =>
  sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The condition that picks the rows past the cursor; undefined on the first page. */
export function keysetWhere(columns: KeysetColumns, request: KeysetRequest): SQL | undefined {
  if (request.after) {
    return sql`(${columns.at}, ${columns.id}) < (${request.after.at}::timestamptz, ${request.after.id})`;
  }
  if (request.before) {
    return sql`(${columns.at}, ${columns.id}) > (${request.before.at}::timestamptz, ${request.before.id})`;
  }
  return undefined;
}

/** Newest first; walking back toward newer rows reads the index forwards and turns the page round after. */
export function keysetOrder(columns: KeysetColumns, request: KeysetRequest): SQL[] {
  return request.before
    ? [sql`${columns.at} asc`, sql`${columns.id} asc`]
    : [sql`${columns.at} desc`, sql`${columns.id} desc`];
}

/**
 * Turns the `size + 1` rows a keyset query fetched into the page and its cursors: the extra row only says
 * whether there is another page that way.
 */
export function keysetPage<Row>(
  rows: Row[],
  size: number,
  request: KeysetRequest,
  keyOf: (row: Row) => KeysetCursor,
): { items: Row[]; cursors: ListCursors } {
  const more = rows.length > size;
  const kept = rows.slice(0, size);
  const items = request.before ? kept.reverse() : kept;
  const first = items[0];
  const last = items.at(-1);
  const cursor = (row: Row | undefined) => (row ? encodeCursor(keyOf(row)) : null);
  if (request.before)
    return { items, cursors: { previous: more ? cursor(first) : null, next: cursor(last) } };
  return {
    items,
    cursors: { previous: request.after ? cursor(first) : null, next: more ? cursor(last) : null },
  };
}

/**
 * The parts of one list's keyset query, made from the same columns and request so they cannot disagree:
 * select `cursorAt` as the row's `cursorAt`, filter by `where`, order by `orderBy`, and turn the `size + 1`
 * rows fetched into the page with `page`.
 */
export function keysetQuery(columns: KeysetColumns, request: KeysetRequest) {
  return {
    cursorAt: cursorAt(columns.at),
    where: keysetWhere(columns, request),
    orderBy: keysetOrder(columns, request),
    page: <Row extends { cursorAt: string }>(rows: Row[], size: number, idOf: (row: Row) => string) =>
      keysetPage(rows, size, request, (row) => ({ at: row.cursorAt, id: idOf(row) })),
  };
}

/** countUpTo for the rows of one table that match `where` (all of them when it is undefined). */
export function countRowsUpTo(db: Db, table: PgTable, where: SQL | undefined): Promise<ListTotal> {
  return countUpTo(
    db,
    db
      .select({ one: sql`1`.as("one") })
      .from(table)
      .where(where)
      .$dynamic(),
  );
}

/**
 * How many rows a list has, counting no further than `cap`: exact for a small list, "cap+" for a long one,
 * so a page view never counts a whole table. `rows` is the list's query without order or limit.
 */
export async function countUpTo(db: Db, rows: PgSelect, cap = LIST_TOTAL_CAP): Promise<ListTotal> {
  const capped = rows.limit(cap + 1).as("capped");
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(capped);
  return cappedTotal(row?.count ?? 0, cap);
}

/** A count that stopped at `cap + 1` rows, as the list shows it. */
export const cappedTotal = (count: number, cap: number): ListTotal =>
  count > cap ? { count: cap, exact: false } : { count, exact: true };
