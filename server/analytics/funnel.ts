import { format } from "date-fns/format";
import { subDays } from "date-fns/subDays";
import { eq, sql } from "drizzle-orm";
import type { SalesQuery } from "../../common/analytics.ts";
import { FUNNEL_STEPS, type FunnelCounts, type FunnelFigures, type FunnelStep } from "../../common/funnel.ts";
import { indianDate } from "../../common/india-time.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { funnelSettings } from "../db/schema.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import { periodOf } from "./sales.ts";

export const ROLL_UP_FUNNEL_JOB = "roll-up-funnel";

/** A day `days` before or after, by the calendar. */
const shift = (day: string, days: number) =>
  format(subDays(new Date(`${day}T12:00:00`), -days), "yyyy-MM-dd");

/**
 * An order placed in a session is "paid" (docs/decisions/090) when its online payment was captured and applied
 * to it, or, paid in cash on delivery, when it was confirmed (by the shopper's link or WhatsApp answer, or by
 * staff): the shop then ships it, and the cash itself comes days later, counted under "After the order".
 */
const PAID = sql`(
  (o.payment_method = 'razorpay' and exists (
     select 1 from money_ledger l where l.order_id = o.id and l.kind = 'online_payment' and l.applied))
  or (o.payment_method = 'cod' and (
     o.status in ('confirmed', 'packed', 'shipped', 'delivered', 'return_requested', 'returned',
                  'returned_to_origin', 'refunded')
     or exists (select 1 from order_events e where e.order_id = o.id and e.to_status = 'confirmed'))))`;

const zero = (): FunnelCounts => ({ viewed: 0, added: 0, checkout: 0, ordered: 0, paid: 0 });

/**
 * Sessions at each step for each day of the period: the rolled-up days' counts, and for the days still held
 * visitor by visitor (today and yesterday) their rows' counts kept beside them (funnel_visit_counts), "paid"
 * read from their orders now.
 */
export async function funnelFigures(
  db: Db,
  query: SalesQuery,
  now = new Date(),
): Promise<Omit<FunnelFigures, "canSwitch">> {
  const { period } = periodOf(query, now);
  const { key, from, to } = period;
  const [counts, settings] = await Promise.all([
    db.execute<{ day: string; step: FunnelStep; sessions: number }>(sql`
      select day::text as day, step, sum(sessions)::int as sessions from (
        select day, step, sessions from funnel_days where day between ${from}::date and ${to}::date
        union all
        select day, step, sessions from funnel_visit_counts where day between ${from}::date and ${to}::date
        union all
        select g.day, 'paid', count(distinct g.visitor)::int
          from funnel_orders g join orders o on o.id = g.order_id
         where g.day between ${from}::date and ${to}::date and ${PAID}
         group by g.day
      ) counted
      group by day, step`),
    countingNow(db),
  ]);
  const byDate = new Map<string, FunnelCounts>();
  for (let day = from; day <= to; day = shift(day, 1)) byDate.set(day, zero());
  const totals = zero();
  for (const row of counts.rows) {
    const day = byDate.get(row.day);
    if (!day || !FUNNEL_STEPS.includes(row.step)) continue;
    day[row.step] += row.sessions;
    totals[row.step] += row.sessions;
  }
  return {
    period: { key, from, to, days: period.days },
    totals,
    byDay: [...byDate].map(([date, figures]) => ({ date, ...figures })),
    counting: settings,
  };
}

/**
 * Moves the days before yesterday (India's) from visitor rows to counts, and deletes the salts of days that are
 * over. One transaction: each row is counted into funnel_days exactly once, however many instances run it, and
 * a count that lands is never taken twice (the additive ON CONFLICT only meets rows deleted in the same go).
 */
export async function rollUpFunnel(db: Db, now = new Date()): Promise<number> {
  const today = indianDate(now);
  const yesterday = shift(today, -1);
  return db.transaction(async (tx) => {
    const moved = await tx.execute<{ day: string }>(sql`
      with visits as (
        delete from funnel_visits where day < ${yesterday}::date returning day, step
      ),
      placed as (
        delete from funnel_orders where day < ${yesterday}::date returning order_id, day, visitor
      ),
      counted as (
        select day, step, count(*)::int as sessions from visits group by day, step
        union all
        select g.day, 'paid', count(distinct g.visitor)::int
          from placed g join orders o on o.id = g.order_id
         where ${PAID}
         group by g.day
      )
      insert into funnel_days (day, step, sessions)
      select day, step, sum(sessions)::int from counted group by day, step
      on conflict (day, step) do update set sessions = funnel_days.sessions + excluded.sessions
      returning day::text as day`);
    await tx.execute(sql`delete from funnel_salts where day < ${today}::date`);
    return new Set(moved.rows.map((row) => row.day)).size;
  });
}

/**
 * Offers the roll-up once an hour while the shop runs, under one key per hour, so it runs once across
 * instances; the first run after midnight in India also deletes the day's salt. Returns the stop function.
 */
export function scheduleFunnelRollUp(db: Db): () => void {
  const offer = () => {
    const hour = new Date().toISOString().slice(0, 13);
    enqueueJob(db, { kind: ROLL_UP_FUNNEL_JOB, payload: {}, key: `${ROLL_UP_FUNNEL_JOB}:${hour}` }).catch(
      (error) => log.warn({ err: serializeError(error) }, "could not queue the funnel's roll-up"),
    );
  };
  offer();
  const timer = setInterval(offer, 60 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether the shop counts the funnel now: yes until the owner turns it off. */
export async function countingNow(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ counting: funnelSettings.counting })
    .from(funnelSettings)
    .where(eq(funnelSettings.id, 1));
  return row?.counting ?? true;
}

/** The owner turns counting on or off, audited in the same transaction; visits held from before do not count. */
export async function saveFunnelCounting(db: Db, counting: boolean, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ counting: funnelSettings.counting })
      .from(funnelSettings)
      .where(eq(funnelSettings.id, 1))
      .for("update");
    const was = before?.counting ?? true;
    await tx
      .insert(funnelSettings)
      .values({ id: 1, counting, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: funnelSettings.id,
        set: {
          counting,
          updatedBy: actor.id,
          ...(was === counting ? {} : { changedAt: sql`now()` }),
        },
      });
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "funnel-counting",
      action: "update",
      before: { counting: was },
      after: { counting },
    });
    return counting;
  });
}
