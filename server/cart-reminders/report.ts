import { sql } from "drizzle-orm";
import type { SalesQuery } from "../../common/analytics.ts";
import type { CartReminderReport } from "../../common/cart-reminders.ts";
import { periodOf } from "../analytics/sales.ts";
import type { Db } from "../db/client.ts";
import { foldDeltaRows } from "../db/fold-deltas.ts";
import { readReminderSettings } from "./reminder-settings.ts";

/** Delta rows beyond one per day at which reading a period folds its days. */
const DELTA_ROWS_TO_FOLD = 1_000;

/**
 * Replaces a period's rows of left_cart_day_deltas by their sums, one row per day; a day whose carts left
 * behind sum to 0 goes.
 */
const foldLeftCartDeltas = (db: Db, from: string, to: string) =>
  foldDeltaRows(db, {
    table: "left_cart_day_deltas",
    keys: ["day"],
    sums: [
      "left_behind",
      "reminded",
      "reminders_sent",
      "whatsapp_sent",
      "won_back",
      "revenue_paise",
      "no_consent",
      "unsubscribed",
    ],
    within: { column: "day", from, to },
    keptWhile: ["left_behind"],
  });

/**
 * Whether the reminders pay (docs/decisions/089), for the dashboard's period, by the day the cart was left:
 * the carts left behind (rested past the delay without an order, reminded or not), those reminded and the
 * reminders sent by channel (e-mail, WhatsApp; docs/decisions/096), and the carts won back: an order by the
 * shopper reminded (the account, an order placed with the e-mail, or for a guest reached only by mobile an order
 * delivered to that mobile) within WON_BACK_DAYS of the first reminder, not cancelled, with its total as revenue.
 *
 * Read from left_cart_day_deltas (docs/decisions/099), which triggers keep in the statement that changes a left
 * cart, its shopper's orders or the account's e-mail: a few rows a day, whatever the shop's size.
 */
export async function cartReminderReport(
  db: Db,
  query: SalesQuery,
  now = new Date(),
): Promise<CartReminderReport> {
  const { period } = periodOf(query, now);
  const result = await db.execute<{
    day: string;
    left_behind: number;
    reminded: number;
    reminders_sent: number;
    whatsapp_sent: number;
    won_back: number;
    revenue_paise: string;
    no_consent: number;
    unsubscribed: number;
    extra: number;
  }>(sql`
    select day::text as day, sum(left_behind)::int as left_behind, sum(reminded)::int as reminded,
           sum(reminders_sent)::int as reminders_sent, sum(whatsapp_sent)::int as whatsapp_sent,
           sum(won_back)::int as won_back, sum(revenue_paise)::bigint as revenue_paise,
           sum(no_consent)::int as no_consent, sum(unsubscribed)::int as unsubscribed, (count(*) - 1)::int as extra
      from left_cart_day_deltas
     where day between ${period.from}::date and ${period.to}::date
     group by day
    having sum(left_behind) <> 0
     order by day`);
  if (result.rows.reduce((total, row) => total + row.extra, 0) > DELTA_ROWS_TO_FOLD) {
    await foldLeftCartDeltas(db, period.from, period.to);
  }
  const days = result.rows.map((row) => ({
    date: row.day,
    leftBehind: row.left_behind,
    reminded: row.reminded,
    remindersSent: row.reminders_sent,
    whatsappSent: row.whatsapp_sent,
    wonBack: row.won_back,
    revenuePaise: Number(row.revenue_paise),
  }));
  const sum = (pick: (row: (typeof result.rows)[number]) => number) =>
    result.rows.reduce((total, row) => total + pick(row), 0);
  const totals = {
    leftBehind: sum((row) => row.left_behind),
    reminded: sum((row) => row.reminded),
    remindersSent: sum((row) => row.reminders_sent),
    whatsappSent: sum((row) => row.whatsapp_sent),
    wonBack: sum((row) => row.won_back),
    revenuePaise: sum((row) => Number(row.revenue_paise)),
  };
  const noConsent = sum((row) => row.no_consent);
  const unsubscribed = sum((row) => row.unsubscribed);
  return {
    period: { from: period.from, to: period.to },
    totals,
    notReminded: {
      noConsent,
      unsubscribed,
      other: totals.leftBehind - totals.reminded - noConsent - unsubscribed,
    },
    days,
    settings: await readReminderSettings(db),
  };
}
