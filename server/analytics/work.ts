import { sql } from "drizzle-orm";
import type { WorkToDo } from "../../common/analytics.ts";
import { COD_OVERDUE_DAYS } from "../../common/cod.ts";
import type { Db } from "../db/client.ts";

type Counts = {
  to_confirm: number;
  to_pack: number;
  to_book: number;
  failed_deliveries: number;
  coming_back: number;
  to_receive: number;
  cash_expected: number;
  cash_expected_paise: number;
  cash_overdue: number;
  cash_overdue_paise: number;
  questions: number;
  reviews: number;
  messages: number;
};

/**
 * What waits for the shop today, counted in one statement, each count by the rule of the screen it links to
 * (so the number on the home and the list behind it agree): COD orders waiting for the shopper's "yes" (the
 * To confirm list), confirmed orders to pack, packed orders without a live parcel (the Shipping desk's "ready"),
 * failed deliveries nobody has answered yet, parcels on their way back and back but not yet received, cash of
 * delivered COD orders not yet recorded (and of those, delivered more than COD_OVERDUE_DAYS ago, as the Cash on
 * delivery page says), unanswered questions, reviews to moderate and unread messages. Each count reads a
 * partial index of the rows it counts, or the cash still expected as cod_cash_awaited keeps it (delivered COD
 * orders without a remittance, docs/decisions/097), so it costs what waits, not what the shop has sold.
 */
export async function workToDo(db: Db, now = new Date()): Promise<WorkToDo> {
  const overdueBefore = new Date(now.getTime() - COD_OVERDUE_DAYS * 24 * 3600 * 1000);
  const { rows } = await db.execute<Counts>(sql`
    with cash as (
      select count(*)::int as expected, coalesce(sum(total_paise), 0)::bigint as expected_paise,
        count(*) filter (where delivered_at <= ${overdueBefore.toISOString()}::timestamptz)::int as overdue,
        coalesce(sum(total_paise) filter (where delivered_at <= ${overdueBefore.toISOString()}::timestamptz),
          0)::bigint as overdue_paise
      from cod_cash_awaited
    )
    select
      (select count(*)::int from orders where status = 'placed' and cod_confirm_by is not null) as to_confirm,
      (select count(*)::int from orders where status = 'confirmed') as to_pack,
      (select count(*)::int from orders o where o.status = 'packed'
        and not exists (select 1 from shipments s where s.order_id = o.id and s.status <> 'cancelled')) as to_book,
      -- Waiting for a choice, or a shopper's choice the courier's aggregator did not take (docs/decisions/082).
      (select count(*)::int from shipments where status <> 'cancelled' and (ndr_state = 'open'
        or (ndr_state = 'reattempt_requested' and request_outcome in ('asking', 'refused')))) as failed_deliveries,
      (select count(*)::int from order_rto r where r.received_at is null
        and not exists (select 1 from shipments s where s.order_id = r.order_id
          and s.status = 'rto_delivered')) as coming_back,
      (select count(*)::int from shipments where status = 'rto_delivered' and received_back_at is null) as to_receive,
      cash.expected as cash_expected,
      cash.expected_paise as cash_expected_paise,
      cash.overdue as cash_overdue,
      cash.overdue_paise as cash_overdue_paise,
      (select count(*)::int from questions where answer is null and not hidden) as questions,
      (select count(*)::int from reviews where status = 'pending') as reviews,
      (select count(*)::int from contact_messages where read_at is null) as messages
    from cash
  `);
  const row = rows[0] as Counts;
  return {
    codOverdueDays: COD_OVERDUE_DAYS,
    items: [
      { key: "toConfirm", count: row.to_confirm },
      { key: "toPack", count: row.to_pack },
      { key: "toBook", count: row.to_book },
      { key: "failedDeliveries", count: row.failed_deliveries },
      { key: "comingBack", count: row.coming_back },
      { key: "toReceive", count: row.to_receive },
      { key: "cashExpected", count: row.cash_expected, amountPaise: Number(row.cash_expected_paise) },
      { key: "cashOverdue", count: row.cash_overdue, amountPaise: Number(row.cash_overdue_paise) },
      { key: "questions", count: row.questions },
      { key: "reviews", count: row.reviews },
      { key: "messages", count: row.messages },
    ],
  };
}
