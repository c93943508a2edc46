import { sql } from "drizzle-orm";
import type { AfterTheOrder, RtoRow, SalesQuery } from "../../common/analytics.ts";
import type { Db } from "../db/client.ts";
import { foldDeltaRows } from "../db/fold-deltas.ts";
import type { AFTER_ORDER_DIMENSIONS } from "../db/schema.ts";
import { periodOf } from "./sales.ts";

const GROUP_LIMIT = 15;
/** Rows a period may hold beyond one per day and key of it before reading folds them. */
const DELTA_ROWS_TO_FOLD = 1_000;

type Dimension = (typeof AFTER_ORDER_DIMENSIONS)[number];
type SummedRow = {
  dimension: Dimension;
  key: string;
  count: number;
  other_count: number;
  amount: string;
  other: string;
  rows: number;
};

const rate = (returned: number, shipped: number) => (shipped ? Math.round((returned * 1000) / shipped) : 0);

/**
 * The period's sums per dimension and key from the per-day deltas (after_order_day_deltas, kept by triggers in
 * the statement of each change): the rows of the period's days, whatever its orders. Places come with those
 * that had the most parcels back first, then the costliest, then by name, as PostgreSQL orders names. One
 * pass, no grouping by day: the period is folded once its rows pass one per day and key (as if every key had
 * rows every day) by more than DELTA_ROWS_TO_FOLD, so what a read costs stays bounded by that.
 */
async function summed(db: Db, from: string, to: string, days: number, dimensions: Dimension[]) {
  const { rows } = await db.execute<SummedRow>(sql`
    select dimension, key, sum(count)::int as count, sum(other_count)::int as other_count,
      sum(amount_paise)::bigint as amount, sum(other_paise)::bigint as other, count(*)::int as rows
    from after_order_day_deltas
    where day between ${from}::date and ${to}::date
      and dimension in (${sql.join(
        dimensions.map((dimension) => sql`${dimension}`),
        sql`, `,
      )})
    group by dimension, key
    order by dimension, sum(other_count) desc, sum(amount_paise) desc, key`);
  const read = rows.reduce((total, row) => total + row.rows, 0);
  if (read - rows.length * days > DELTA_ROWS_TO_FOLD) await foldAfterOrderDeltas(db, from, to);
  return rows;
}

/** Replaces a period's rows of after_order_day_deltas by their sums, one row per day and key. */
const foldAfterOrderDeltas = (db: Db, from: string, to: string) =>
  foldDeltaRows(db, {
    table: "after_order_day_deltas",
    keys: ["day", "dimension", "key"],
    sums: ["count", "other_count", "amount_paise", "other_paise"],
    within: { column: "day", from, to },
  });

/** The places with parcels back (of those shipped in the period), most first, at most GROUP_LIMIT. */
const placesOf = (rows: SummedRow[], dimension: "state" | "pin"): RtoRow[] =>
  rows
    .filter((row) => row.dimension === dimension && row.other_count > 0)
    .slice(0, GROUP_LIMIT)
    .map((row) => ({
      key: row.key,
      shipped: row.count,
      returned: row.other_count,
      ratePerMille: rate(row.other_count, row.count),
      costPaise: Number(row.amount),
    }));

/**
 * What happens after the order, for the same period as the sales (docs/decisions/080): returns to origin by
 * state and by PIN prefix (the first three digits, a sorting district) over the parcels shipped in the period,
 * with what they cost both ways as recorded on each return; the COD confirmations asked for orders placed in
 * the period and how each ended (confirmed, refused by the shopper, lapsed unanswered, cancelled by staff,
 * still waiting); and the cash of COD orders delivered in the period against what is recorded as collected.
 * Every figure is a sum of the period's days in after_order_day_deltas (migration after_order_day_deltas), so
 * a year costs its days, not its orders.
 */
export async function afterTheOrder(db: Db, query: SalesQuery, now = new Date()): Promise<AfterTheOrder> {
  const { period } = periodOf(query, now);
  const rows = await summed(db, period.from, period.to, period.days, ["state", "pin", "confirm", "cash"]);
  // Every parcel shipped has a state: the states' sums are the period's.
  const states = rows.filter((row) => row.dimension === "state");
  const shipped = states.reduce((total, row) => total + row.count, 0);
  const returned = states.reduce((total, row) => total + row.other_count, 0);
  const outcome = (name: string) =>
    rows.find((row) => row.dimension === "confirm" && row.key === name)?.count ?? 0;
  const cash = rows.find((row) => row.dimension === "cash");
  return {
    period,
    rto: {
      shipped,
      returned,
      ratePerMille: rate(returned, shipped),
      costPaise: states.reduce((total, row) => total + Number(row.amount), 0),
      byState: placesOf(rows, "state"),
      byPinPrefix: placesOf(rows, "pin"),
    },
    confirmations: {
      confirmed: outcome("confirmed"),
      refused: outcome("refused"),
      lapsed: outcome("lapsed"),
      cancelledByStaff: outcome("cancelledByStaff"),
      waiting: outcome("waiting"),
    },
    cash: {
      deliveredOrders: cash?.count ?? 0,
      expectedPaise: Number(cash?.amount ?? 0),
      collectedOrders: cash?.other_count ?? 0,
      collectedPaise: Number(cash?.other ?? 0),
    },
  };
}

/** The returns to origin of one CSV (by state or by PIN prefix): that table's rows alone, as the page shows them. */
export async function cameBackBy(db: Db, query: SalesQuery, by: "state" | "pin", now = new Date()) {
  const { period } = periodOf(query, now);
  return { period, rows: placesOf(await summed(db, period.from, period.to, period.days, [by]), by) };
}
