import { sql } from "drizzle-orm";
import type { SalesQuery } from "../../common/analytics.ts";
import { type CartReminderReport, WON_BACK_DAYS } from "../../common/cart-reminders.ts";
import { startOfIndianDay } from "../../common/india-time.ts";
import { periodOf } from "../analytics/sales.ts";
import type { Db } from "../db/client.ts";
import { readReminderSettings } from "./reminder-settings.ts";

const DAY_MS = 24 * 3_600_000;

/**
 * Whether the reminders pay (docs/decisions/089), for the dashboard's period, by the day the cart was left:
 * the carts left behind (rested past the delay without an order, reminded or not), those reminded and the
 * reminders sent by channel (e-mail, WhatsApp; docs/decisions/096), and the carts won back: an order by the shopper reminded (the account, or an order placed
 * with the e-mail) within WON_BACK_DAYS of the first reminder, not cancelled, with its total as revenue.
 */
export async function cartReminderReport(
  db: Db,
  query: SalesQuery,
  now = new Date(),
): Promise<CartReminderReport> {
  const { period } = periodOf(query, now);
  const start = startOfIndianDay(period.from).toISOString();
  const end = new Date(startOfIndianDay(period.to).getTime() + DAY_MS).toISOString();
  const result = await db.execute<{
    day: string;
    left_behind: number;
    reminded: number;
    reminders_sent: number;
    whatsapp_sent: number;
    won_back: number;
    revenue_paise: number;
    no_consent: number;
    unsubscribed: number;
  }>(sql`
    with left_behind as (
      select l.id, l.user_id, l.reminders_sent, l.first_reminded_at, l.closed_reason, l.whatsapp_sent_at,
             to_char(l.touched_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD') as day,
             coalesce(l.email, lower(u.email)) as email,
             l.whatsapp_sent_at is not null and l.whatsapp_refused is null as whatsapp_delivered,
             least(l.first_reminded_at, case when l.whatsapp_refused is null then l.whatsapp_sent_at end)
               as reminded_at
        from left_carts l
        left join users u on u.id = l.user_id
       where l.touched_at >= ${start} and l.touched_at < ${end}
         and (l.reminders_sent > 0 or l.whatsapp_sent_at is not null
              or l.closed_reason in ('no_consent', 'unsubscribed', 'no_email', 'recently_reminded', 'off'))
    ),
    won as (
      select lb.id, o.total_paise
        from left_behind lb
        join lateral (
          select o.total_paise from orders o
           where (o.user_id = lb.user_id or lower(o.guest_email) = lb.email)
             and o.created_at >= lb.reminded_at
             and o.created_at < lb.reminded_at + ${`${WON_BACK_DAYS} days`}::interval
             and o.status not in ('awaiting_payment', 'cancelled')
           order by o.created_at
           limit 1) o on true
       where lb.reminded_at is not null
    )
    select lb.day,
           count(*)::int as left_behind,
           (count(*) filter (where lb.reminded_at is not null))::int as reminded,
           coalesce(sum(lb.reminders_sent), 0)::int as reminders_sent,
           (count(*) filter (where lb.whatsapp_delivered))::int as whatsapp_sent,
           count(won.id)::int as won_back,
           coalesce(sum(won.total_paise), 0)::int as revenue_paise,
           (count(*) filter (where lb.closed_reason = 'no_consent'))::int as no_consent,
           (count(*) filter (where lb.closed_reason = 'unsubscribed'))::int as unsubscribed
      from left_behind lb
      left join won on won.id = lb.id
     group by lb.day
     order by lb.day`);
  const days = result.rows.map((row) => ({
    date: row.day,
    leftBehind: row.left_behind,
    reminded: row.reminded,
    remindersSent: row.reminders_sent,
    whatsappSent: row.whatsapp_sent,
    wonBack: row.won_back,
    revenuePaise: row.revenue_paise,
  }));
  const sum = (pick: (row: (typeof result.rows)[number]) => number) =>
    result.rows.reduce((total, row) => total + pick(row), 0);
  const totals = {
    leftBehind: sum((row) => row.left_behind),
    reminded: sum((row) => row.reminded),
    remindersSent: sum((row) => row.reminders_sent),
    whatsappSent: sum((row) => row.whatsapp_sent),
    wonBack: sum((row) => row.won_back),
    revenuePaise: sum((row) => row.revenue_paise),
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
