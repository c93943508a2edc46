import { sql } from "drizzle-orm";
import type { AfterTheOrder, SalesQuery } from "../../common/analytics.ts";
import { startOfIndianDay } from "../../common/india-time.ts";
import type { Db } from "../db/client.ts";
import { periodOf } from "./sales.ts";

const DAY_MS = 24 * 3600 * 1000;
const GROUP_LIMIT = 15;

const rate = (returned: number, shipped: number) => (shipped ? Math.round((returned * 1000) / shipped) : 0);

/**
 * What happens after the order, for the same period as the sales (docs/decisions/080): returns to origin by
 * state and by PIN prefix (the first three digits, a sorting district) over the parcels shipped in the period,
 * with what they cost both ways as recorded on each return; the COD confirmations asked for orders placed in
 * the period and how each ended (confirmed, refused by the shopper, lapsed unanswered, cancelled by staff,
 * still waiting); and the cash of COD orders delivered in the period against what is recorded as collected.
 */
export async function afterTheOrder(db: Db, query: SalesQuery, now = new Date()): Promise<AfterTheOrder> {
  const { period } = periodOf(query, now);
  const start = startOfIndianDay(period.from).toISOString();
  const end = new Date(startOfIndianDay(period.to).getTime() + DAY_MS).toISOString();
  const shipped = sql`o.shipped_at >= ${start}::timestamptz and o.shipped_at < ${end}::timestamptz`;

  const rtoBy = (key: ReturnType<typeof sql>) =>
    db.execute<{ key: string; shipped: number; returned: number; cost: string }>(sql`
      select ${key} as key, count(*)::int as shipped, count(r.order_id)::int as returned,
        coalesce(sum(r.forward_paise + r.return_paise), 0)::bigint as cost
      from orders o left join order_rto r on r.order_id = o.id
      where ${shipped}
      group by 1 having count(r.order_id) > 0
      order by returned desc, cost desc, key
      limit ${GROUP_LIMIT}`);

  const [totals, states, prefixes, confirmations, cash] = await Promise.all([
    db.execute<{ shipped: number; returned: number; cost: string }>(sql`
      select count(*)::int as shipped, count(r.order_id)::int as returned,
        coalesce(sum(r.forward_paise + r.return_paise), 0)::bigint as cost
      from orders o left join order_rto r on r.order_id = o.id
      where ${shipped}`),
    rtoBy(sql`o.ship_state`),
    rtoBy(sql`left(o.ship_pin, 3)`),
    // How each asked order ended: its first move out of "placed", if any, by whom.
    db.execute<{ outcome: string; orders: number }>(sql`
      select case
          when e.to_status = 'confirmed' then 'confirmed'
          when e.to_status = 'cancelled' and e.actor = 'customer' then 'refused'
          when e.to_status = 'cancelled' and e.actor = 'system' then 'lapsed'
          when e.to_status = 'cancelled' then 'cancelledByStaff'
          when e.to_status is null then 'waiting'
          else 'confirmed'
        end as outcome, count(*)::int as orders
      from orders o
      left join lateral (
        select to_status, actor from order_events
        where order_id = o.id and from_status = 'placed' and to_status <> 'placed'
        order by created_at, id limit 1
      ) e on true
      where o.payment_method = 'cod' and o.cod_confirm_by is not null
        and o.created_at >= ${start}::timestamptz and o.created_at < ${end}::timestamptz
      group by 1`),
    db.execute<{ delivered: number; expected: string; collected_orders: number; collected: string }>(sql`
      select count(*)::int as delivered, coalesce(sum(o.total_paise), 0)::bigint as expected,
        count(c.id)::int as collected_orders, coalesce(sum(c.amount_paise), 0)::bigint as collected
      from orders o left join cod_remittances c on c.order_id = o.id
      where o.payment_method = 'cod'
        and o.delivered_at >= ${start}::timestamptz and o.delivered_at < ${end}::timestamptz`),
  ]);

  const group = (rows: typeof states.rows) =>
    rows.map((row) => ({
      key: row.key,
      shipped: row.shipped,
      returned: row.returned,
      ratePerMille: rate(row.returned, row.shipped),
      costPaise: Number(row.cost),
    }));
  const total = totals.rows[0] ?? { shipped: 0, returned: 0, cost: "0" };
  const outcome = (name: string) => confirmations.rows.find((row) => row.outcome === name)?.orders ?? 0;
  const money = cash.rows[0] ?? { delivered: 0, expected: "0", collected_orders: 0, collected: "0" };
  return {
    period,
    rto: {
      shipped: total.shipped,
      returned: total.returned,
      ratePerMille: rate(total.returned, total.shipped),
      costPaise: Number(total.cost),
      byState: group(states.rows),
      byPinPrefix: group(prefixes.rows),
    },
    confirmations: {
      confirmed: outcome("confirmed"),
      refused: outcome("refused"),
      lapsed: outcome("lapsed"),
      cancelledByStaff: outcome("cancelledByStaff"),
      waiting: outcome("waiting"),
    },
    cash: {
      deliveredOrders: money.delivered,
      expectedPaise: Number(money.expected),
      collectedOrders: money.collected_orders,
      collectedPaise: Number(money.collected),
    },
  };
}
