import { type Column, getTableColumns, type Table } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type pg from "pg";
import { z } from "zod";
import type { DbOrTx } from "./client.ts";
import { type Statement, sendOn } from "./message-transaction.ts";

/**
 * A read in the words of the domain: the statements it sends and what their results say, their rows parsed
 * by a schema. The same definition is sent alone (readNow) or with others in one message (a HeldConnection's
 * read, the statements that open or close a message transaction): how it travels is message-transaction.ts's.
 */
export type Read<T> = { statements: readonly Statement[]; answer(results: readonly pg.QueryResult[]): T };

type Answers<R extends Record<string, Read<unknown>>> = {
  [K in keyof R]: R[K] extends Read<infer T> ? T : never;
};

/** Reads sent together: their statements in one list, in the order named, their answers under the same names. */
export function together<R extends Record<string, Read<unknown>>>(reads: R): Read<Answers<R>> {
  const named = Object.entries(reads);
  return {
    statements: named.flatMap(([, read]) => read.statements),
    answer(results) {
      let at = 0;
      const answers: Record<string, unknown> = {};
      for (const [name, read] of named) {
        answers[name] = read.answer(results.slice(at, at + read.statements.length));
        at += read.statements.length;
      }
      return answers as Answers<R>;
    },
  };
}

/** The read's answer in other words (its rows made into what they say). */
export function readAs<T, U>(read: Read<T>, as: (answer: T) => U): Read<U> {
  return { statements: read.statements, answer: (results) => as(read.answer(results)) };
}

/** A read of nothing, answered `value` (a part a placement does not need, such as a guest's saved cart). */
export const noRead = <T>(value: T): Read<T> => ({ statements: [], answer: () => value });

/** The read's statements on `db` in one message, and its answer. */
export async function readNow<T>(db: DbOrTx, read: Read<T>): Promise<T> {
  return read.answer(await sendOn(db, read.statements));
}

/**
 * The array schema of each row schema, made once: a zod schema costs far more to make (and to compile, on its
 * first parse) than to parse a few rows with, and a read is defined again for every request that sends it.
 */
const rowsOf = new WeakMap<z.ZodType, z.ZodType>();

/** One statement's rows as a read, each parsed by `row` (a schema made once, not per read). */
export function rowsRead<T>(statement: Statement, row: z.ZodType<T>): Read<T[]> {
  let rows = rowsOf.get(row) as z.ZodType<T[]> | undefined;
  if (!rows) {
    rows = z.array(row);
    rowsOf.set(row, rows);
  }
  const schema = rows;
  return { statements: [statement], answer: ([result]) => schema.parse(result?.rows ?? []) };
}

/** One statement's rows as a read, each the whole row of `table` (`select *`, `returning *`), read by rowOf. */
export function tableRowsRead<T extends Table>(statement: Statement, table: T): Read<T["$inferSelect"][]> {
  return {
    statements: [statement],
    answer: ([result]) => (result?.rows ?? []).map((raw) => rowOf(table, raw)),
  };
}

/**
 * Builds statements with no database at hand: a statement is built once per shape (fromTemplate) and sent on
 * whichever connection needs it.
 */
export const build = new QueryBuilder();

/**
 * The schema of a row of drizzle's select of `columns`, which answers each under its column's name in the
 * table: `shape` checks each value, and the row is given under the keys of `columns`.
 */
export function selectedRowSchema<S extends z.ZodRawShape>(columns: { [K in keyof S]: Column }, shape: S) {
  const keys = Object.keys(shape);
  const byName = Object.fromEntries(keys.map((key) => [(columns[key] as Column).name, shape[key]]));
  const names = keys.map((key) => [key, (columns[key] as Column).name] as const);
  return z.object(byName).transform((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, name] of names) row[key] = raw[name];
    return row as z.output<z.ZodObject<S>>;
  });
}

/**
 * A row a statement returned (`returning *`), as drizzle's select of the whole table would give it: each
 * column read by the table's own definition (its type, dates from PostgreSQL's text).
 */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  return selectedRow(getTableColumns(table), raw) as T["$inferSelect"];
}

/** A row of a select of these columns (by their names in the table), as drizzle's select would give it. */
export function selectedRow<C extends Record<string, Column>>(
  columns: C,
  raw: Record<string, unknown>,
): { [K in keyof C]: C[K]["_"]["data"] } {
  const row: Record<string, unknown> = {};
  for (const [key, column, name] of columnEntries(columns)) {
    const value = raw[name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as { [K in keyof C]: C[K]["_"]["data"] };
}

/** Each column under its key with its name in the table, listed once per set of columns (a table's are one object). */
const entriesOf = new WeakMap<Record<string, Column>, [string, Column, string][]>();

function columnEntries(columns: Record<string, Column>) {
  let entries = entriesOf.get(columns);
  if (!entries) {
    entries = Object.entries(columns).map(([key, column]) => [key, column, column.name]);
    entriesOf.set(columns, entries);
  }
  return entries;
}
