import { sql } from "drizzle-orm";
import { GST_STATE_CODES } from "../common/gstin.ts";
import type { Db, Tx } from "../server/db/client.ts";

/**
 * A shop after five years, written by bulk SQL (generate_series, INSERT ... SELECT) inside one transaction:
 * customers, orders spread over five years with festive-season peaks and growth, 1-4 lines each, discount
 * codes, cash on delivery and online payment, a status that fits the order's age and the events that led
 * there, reviews, questions and contact messages. Every row passes the schema's constraints and the shop's
 * own rules (PIN matches state, totals add up, one use of a code per account, shipping and COD limits).
 * Deterministic for a given size, `now` and what the database held before.
 */
export type BigShopOptions = {
  orders: number;
  /** The end of the five years; the last orders are placed today. */
  now?: Date;
  /** Defaults to one per ten orders. */
  customers?: number;
  log?: (line: string) => void;
};

export type BigShopCounts = {
  customers: number;
  orders: number;
  orderLines: number;
  orderEvents: number;
  reviews: number;
  questions: number;
  messages: number;
};

const YEARS_DAYS = 1826;

/** A non-negative pseudo-random integer from a number and a salt, in SQL. */
const h = (expression: string, salt: number) =>
  `(hashint8extended((${expression})::bigint, ${salt}) & 2147483647)`;

const FIRST_NAMES = [
  "Aarav",
  "Aditi",
  "Akash",
  "Ananya",
  "Arjun",
  "Bhavna",
  "Deepak",
  "Divya",
  "Farhan",
  "Gauri",
  "Harsh",
  "Ishita",
  "Karan",
  "Kavya",
  "Lakshmi",
  "Manish",
  "Meera",
  "Neha",
  "Nikhil",
  "Pooja",
  "Priya",
  "Rahul",
  "Riya",
  "Rohan",
  "Sakshi",
  "Sanjay",
  "Shreya",
  "Simran",
  "Sneha",
  "Suresh",
  "Tanvi",
  "Varun",
  "Vikram",
  "Zoya",
  "Aisha",
  "Gurpreet",
];
const LAST_NAMES = [
  "Agarwal",
  "Banerjee",
  "Bhat",
  "Chatterjee",
  "Das",
  "Desai",
  "Gill",
  "Gupta",
  "Iyer",
  "Jain",
  "Joshi",
  "Kapoor",
  "Khan",
  "Kulkarni",
  "Kumar",
  "Menon",
  "Mehta",
  "Mishra",
  "Nair",
  "Patel",
  "Pillai",
  "Rao",
  "Reddy",
  "Shah",
  "Sharma",
  "Singh",
  "Sinha",
  "Verma",
  "Yadav",
  "Fernandes",
];
/** City, state as common/india.ts names it, and a PIN prefix of that state. */
const CITIES: [string, string, string][] = [
  ["Mumbai", "Maharashtra", "400"],
  ["Pune", "Maharashtra", "411"],
  ["New Delhi", "Delhi", "110"],
  ["Bengaluru", "Karnataka", "560"],
  ["Chennai", "Tamil Nadu", "600"],
  ["Hyderabad", "Telangana", "500"],
  ["Kolkata", "West Bengal", "700"],
  ["Ahmedabad", "Gujarat", "380"],
  ["Jaipur", "Rajasthan", "302"],
  ["Lucknow", "Uttar Pradesh", "226"],
  ["Kochi", "Kerala", "682"],
  ["Bhopal", "Madhya Pradesh", "462"],
  ["Chandigarh", "Chandigarh", "160"],
  ["Patna", "Bihar", "800"],
  ["Guwahati", "Assam", "781"],
  ["Bhubaneswar", "Odisha", "751"],
  ["Indore", "Madhya Pradesh", "452"],
  ["Surat", "Gujarat", "395"],
];
const COURIERS = ["Delhivery", "Blue Dart", "DTDC", "Ekart", "India Post"];

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const textArray = (items: string[]) => `array[${items.map(literal).join(",")}]::text[]`;

export async function fillBigShop(db: Db, options: BigShopOptions): Promise<BigShopCounts> {
  const n = options.orders;
  if (!Number.isInteger(n) || n < 0) throw new Error("orders must be a whole number, 0 or more");
  const customers = options.customers ?? Math.ceil(n / 10);
  if (!Number.isInteger(customers) || customers < 0) throw new Error("customers must be a whole number");
  if (n > 0 && customers === 0) throw new Error("orders need at least one customer");
  const now = options.now ?? new Date();
  const log = options.log ?? (() => {});
  const reviewCount = Math.min(customers, Math.floor(n / 20));
  const questionCount = Math.floor(n / 100);
  const messageCount = Math.floor(n / 200);
  const counts: BigShopCounts = {
    customers,
    orders: n,
    orderLines: 0,
    orderEvents: 0,
    reviews: reviewCount,
    questions: questionCount,
    messages: messageCount,
  };

  await db.transaction(async (tx) => {
    const run = async (label: string, statement: string) => {
      const started = performance.now();
      const result = await tx.execute(sql.raw(statement));
      log(`  ${label}: ${result.rowCount ?? 0} rows, ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return result.rowCount ?? 0;
    };
    await run("settings", "set local synchronous_commit = off; set local work_mem = '256MB'");
    // The ledger's check (money_adds_up, decision 091) is a deferred trigger per row: at a million orders its
    // 1.3 million checks at the commit took over an hour. The fill checks the same rules once, set-based
    // (checkMoneyAddsUp), before its commit; the ALTERs are part of this transaction, so the shop's own
    // writes are checked row by row again once it commits, and a failed fill leaves the triggers as they were.
    await run(
      "ledger check per row off",
      "alter table orders disable trigger orders_money_adds_up; alter table money_ledger disable trigger money_ledger_adds_up",
    );
    counts.orderLines = await planOrders(run, n, customers, now);
    counts.orderEvents = await planOrderPaths(run);
    await planCustomers(run);
    await insertCustomersAndOrders(tx, run, n, log);
    await insertAroundTheOrders(run, { n, reviewCount, questionCount, messageCount });
    await insertMoneyLedger(run);
    await fillAfterTheOrders(run);
    await checkMoneyAddsUp(run);
    await run(
      "ledger check per row on",
      "alter table orders enable trigger orders_money_adds_up; alter table money_ledger enable trigger money_ledger_adds_up",
    );
  });
  // Fresh statistics and visibility maps, so plans and index-only scans are what a settled shop gets.
  const started = performance.now();
  await db.execute(sql`vacuum analyze`);
  log(`  vacuum analyze: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return counts;
}
/** The plan of every order, in temp tables: the parameters, the items, orders per day, each order and its lines. */
async function planOrders(run: Run, n: number, customers: number, now: Date): Promise<number> {
  // Numbers follow on from the shop's own sequence, and the sequence moves past them, so orders placed
  // later never collide with generated ones; customer ids and e-mails likewise follow earlier runs.
  await run(
    "parameters",
    `create temp table big_params on commit drop as select
      ${n}::int as n, ${customers}::int as c,
      ${literal(now.toISOString())}::timestamptz as now,
      ${literal(now.toISOString())}::timestamptz - interval '${YEARS_DAYS} days' as t0,
      (select case when is_called then last_value else 0 end from order_number_seq) as number_base,
      (select count(*) from users where id like 'big-%')::int as user_base`,
  );
  await run(
    "items",
    `create temp table big_items on commit drop as
     select row_number() over (order by kind, item_id)::int as idx, * from (
       select slug as item_id, 'product' as kind, name, images->>0 as image, price_paise as price,
         category = 'nutrition' as perishable from products where active
       union all
       select c.id, 'combo', c.title, c.image, c.sale_price_paise,
         exists (select 1 from products p where p.slug in (select jsonb_array_elements_text(c.product_slugs))
           and p.category = 'nutrition')
       from combos c where c.active) as items`,
  );
  // Orders per day: the shop grows over the five years; Diwali season, the year-end and Independence Day
  // sales peak. Cumulative rounding makes the days add up to exactly n.
  await run(
    "days",
    `create temp table big_days on commit drop as
     with d as (
       select day, p.t0 + day * interval '1 day' as start,
         (0.15 + 0.85 * day / ${YEARS_DAYS}.0)
         * case
             when to_char(p.t0 + day * interval '1 day', 'MMDD') between '1010' and '1115' then 2.5
             when to_char(p.t0 + day * interval '1 day', 'MMDD') between '1220' and '1231' then 1.5
             when to_char(p.t0 + day * interval '1 day', 'MMDD') between '0808' and '0815' then 1.6
             else 1 end
         * case when extract(isodow from p.t0 + day * interval '1 day') >= 6 then 1.15 else 1 end as weight
       from big_params p, generate_series(0, ${YEARS_DAYS - 1}) as day),
     c as (select *, sum(weight) over (order by day) as upto, sum(weight) over () as total from d)
     select day, start, (floor(${n} * upto / total) - floor(${n} * (upto - weight) / total))::int as count,
       (floor(${n} * (upto - weight) / total))::int as before
     from c`,
  );
  // One row per order: when, who, how many lines, from which item on. A customer exists before ordering:
  // order k picks among the customers who had signed up by then.
  await run(
    "orders (plan)",
    `create temp table big_plan on commit drop as
     select o.i,
       -- UUID-shaped and in placing order, so the primary keys fill their b-trees from the right.
       (lpad(to_hex(p.number_base + o.i), 12, '0') || substr(md5(o.i::text || p.number_base), 13, 20))::uuid::text as id,
       d.start + ((k - 1 + ${h("o.i", 1)} / 2147483648.0) / d.count) * interval '1 day' as created_at,
       1 + ${h("o.i", 2)} % greatest(1, ceil(p.c * o.i::numeric / p.n))::int as user_idx,
       case when ${h("o.i", 3)} % 100 < 50 then 1 when ${h("o.i", 3)} % 100 < 80 then 2
            when ${h("o.i", 3)} % 100 < 95 then 3 else 4 end as line_count,
       ${h("o.i", 4)} % (select count(*) from big_items) as first_item,
       ${h("o.i", 5)} % 100 as r
     from big_days d cross join big_params p, generate_series(1, d.count) as k,
       lateral (select d.before + k as i) as o
     where d.count > 0`,
  );
  return run(
    "lines (plan)",
    `create temp table big_lines on commit drop as
     select b.i, b.id, k as position, it.item_id, it.kind, it.name, it.image, it.price, it.perishable,
       case when ${h("b.i * 4 + k", 6)} % 100 < 70 then 1 when ${h("b.i * 4 + k", 6)} % 100 < 92 then 2 else 3 end
         as quantity
     from big_plan b, generate_series(0, b.line_count - 1) as k,
       lateral (select * from big_items where idx = 1 + (b.first_item + k) % (select count(*) from big_items)) as it`,
  );
}

/** Each order's amounts, the path it took by its age, and the events along that path. */
async function planOrderPaths(run: Run): Promise<number> {
  // Amounts as the shop computes them: a code at most once per account (each customer's first orders may
  // use GLOW20, WELCOME10, SAVE15 in turn), its minimum, whole-rupee rounding, free shipping from ₹499,
  // cash on delivery up to ₹5,000.
  await run(
    "orders (amounts)",
    `create temp table big_orders on commit drop as
     with sums as (select i, sum(price * quantity)::int as subtotal, bool_or(perishable) as perishable
                   from big_lines group by i),
     ranked as (select b.*, s.subtotal, s.perishable,
                  row_number() over (partition by b.user_idx order by b.i) as user_rank
                from big_plan b join sums s using (i)),
     coded as (select r2.*, dc.code, coalesce(dc.percent, 0) as percent
               from ranked r2
               left join discount_codes dc
                 on r2.user_rank <= 3 and ${h("r2.i", 7)} % 4 = 0
                 and dc.code = (array['GLOW20','WELCOME10','SAVE15'])[r2.user_rank]
                 and dc.active and r2.subtotal >= dc.min_amount_paise),
     priced as (select *, (round(subtotal * percent / 100.0 / 100.0) * 100)::int as discount from coded)
     select *, (case when subtotal - discount >= 49900 then 0 else 4900 end) as shipping,
       subtotal - discount + (case when subtotal - discount >= 49900 then 0 else 4900 end) as total,
       case when subtotal - discount + (case when subtotal - discount >= 49900 then 0 else 4900 end) > 500000
              or ${h("i", 8)} % 100 < 45 then 'razorpay' else 'cod' end as payment,
       extract(epoch from ((select now from big_params) - created_at)) / 86400 as age
     from priced`,
  );
  // The path each order took, by its age: the newest still being packed, most delivered, some cancelled
  // (online ones paid and then cancelled are refunded), a few returned and refunded.
  await run(
    "orders (lifecycle)",
    `create temp table big_paths on commit drop as
     select i, id, created_at, age, payment, user_idx,
       case
         when r < 6 then case
           when payment = 'cod' then array['placed','cancelled']
           when r % 2 = 0 and age >= 3 then array['awaiting_payment','confirmed','cancelled','refunded']
           else array['awaiting_payment','cancelled'] end
         -- A few cash-on-delivery parcels are refused at the door and come back (returned to origin).
         when payment = 'cod' and r between 9 and 11 and age >= 15
           then array['placed','confirmed','packed','shipped','returned_to_origin']
         else (case when payment = 'cod'
                 then array['placed','confirmed','packed','shipped','delivered','return_requested','returned','refunded']
                 else array['awaiting_payment','confirmed','packed','shipped','delivered','return_requested','returned','refunded'] end)
              [1:case
                   when age >= 15 then case when r < 9 then 8 else 5 end
                   when age >= 8 then case when r < 10 then 7 when r < 13 then 6 else 5 end
                   when age >= 3 then case when r < 40 then 4 else 5 end
                   when age >= 1 then case when r < 40 then 3 when r < 80 then 4 else 2 end
                   else case when r < 25 then 1 when r < 70 then 2 else 3 end end]
       end as path
     from big_orders`,
  );
  return run(
    "events (plan)",
    `create temp table big_events on commit drop as
     select b.i, b.id, b.user_idx, s.status, s.step, array_length(b.path, 1) as steps,
       case when s.step > 1 then b.path[s.step - 1] end as from_status,
       b.created_at + least(
         case s.status
           when 'confirmed' then case when b.payment = 'cod' then interval '3 hours' else interval '4 minutes' end
           when 'packed' then interval '20 hours' when 'shipped' then interval '36 hours'
           when 'delivered' then interval '4 days' when 'return_requested' then interval '6 days'
           when 'returned' then interval '10 days' when 'returned_to_origin' then interval '5 days'
           when 'cancelled' then case when s.step = 2 then interval '2 hours' else interval '5 hours' end
           when 'refunded' then case when b.path[s.step - 1] = 'cancelled' then interval '2 days' else interval '12 days' end
           else interval '0' end,
         ((select now from big_params) - b.created_at) * (s.step - 1) / array_length(b.path, 1)) as at
     from big_paths b, unnest(b.path) with ordinality as s(status, step)`,
  );
}

/** The customers who placed the planned orders, and when each order was shipped, delivered or cancelled. */
async function planCustomers(run: Run) {
  const firstNames = textArray(FIRST_NAMES);
  const lastNames = textArray(LAST_NAMES);
  await run(
    "customers (plan)",
    `create temp table big_users on commit drop as
     select u, 'big-' || (p.user_base + u) as id,
       (${firstNames})[1 + ${h("u", 11)} % ${FIRST_NAMES.length}] as first,
       (${lastNames})[1 + ${h("u", 12)} % ${LAST_NAMES.length}] as last,
       (array['9','8','7','6'])[1 + ${h("u", 13)} % 4] || lpad((${h("u", 14)} % 1000000000)::text, 9, '0') as phone,
       1 + ${h("u", 15)} % ${CITIES.length} as city,
       lpad((${h("u", 16)} % 1000)::text, 3, '0') as pin_tail,
       coalesce(f.first_order - interval '1 hour', p.t0 + (u::numeric / p.c) * interval '${YEARS_DAYS} days')
         as created_at,
       p.user_base + u as serial
     from big_params p cross join generate_series(1, p.c) as u
       left join (select user_idx, min(created_at) as first_order from big_plan group by user_idx) as f
         on f.user_idx = u`,
  );
  await run("customers (index)", "create index on big_users (u)");
  await run(
    "event times",
    `create temp table big_times on commit drop as
     select i, max(at) filter (where status = 'shipped') as shipped_at,
       max(at) filter (where status = 'delivered') as delivered_at,
       max(at) filter (where status = 'cancelled') as cancelled_at, max(at) as last_at
     from big_events group by i`,
  );
}

/** The customers and orders written, the orders' indexes and foreign keys set aside meanwhile in a large fill. */
async function insertCustomersAndOrders(tx: Tx, run: Run, n: number, log: (line: string) => void) {
  await run(
    "users",
    `insert into users (id, name, email, email_verified, role, created_at, updated_at)
     select id, first || ' ' || last,
       lower(first || '.' || last || '.' || serial || '@' || (array['example.com','example.in','example.org'])[1 + u % 3]),
       true, 'customer', created_at, created_at
     from big_users`,
  );
  // Bulk loading is many times faster with the secondary indexes and foreign keys set aside and put back
  // after: PostgreSQL builds each index in one sort and checks each foreign key in one join, and re-adding
  // a foreign key validates every row, so nothing unchecked gets in.
  const { rows: setAside } = await tx.execute<{ drop: string; restore: string }>(
    sql.raw(
      `select format('drop index %s', i.indexrelid::regclass) as drop, pg_get_indexdef(i.indexrelid) as restore
     from pg_index i
     where i.indrelid in ('orders'::regclass, 'order_lines'::regclass, 'order_events'::regclass)
       and not i.indisprimary and not i.indisunique
     union all
     select format('alter table %s drop constraint %I', c.conrelid::regclass, c.conname),
       format('alter table %s add constraint %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
     from pg_constraint c
     where c.contype = 'f'
       and c.conrelid in ('orders'::regclass, 'order_lines'::regclass, 'order_events'::regclass)`,
    ),
  );
  if (n >= 10_000) {
    for (const each of setAside) await tx.execute(sql.raw(each.drop));
    log(`  set aside ${setAside.length} indexes and foreign keys`);
    // buyer_sales' insert trigger finds each sale's previous one through orders_buyer_sales_idx, set aside
    // here: without it, every sale would scan all the orders. It is worked out once, from every sale, after.
    await run("buyer sales trigger off", "alter table orders disable trigger orders_buyer_sales_insert");
  }
  await insertOrderRows(run);
  if (n >= 10_000) {
    await run("settings", "set local maintenance_work_mem = '512MB'");
    for (const each of setAside) await run(each.restore.slice(0, 60), each.restore);
    await run("buyer sales trigger on", "alter table orders enable trigger orders_buyer_sales_insert");
    await rebuildBuyerSales(run);
  }
}

/** Every sale with its buyer's sale before it, as migration 0055 backfilled them (docs/decisions/097). */
async function rebuildBuyerSales(run: Run) {
  await run("buyer sales cleared", "truncate buyer_sales");
  await run(
    "buyer sales",
    `insert into buyer_sales (order_id, buyer, day, previous_day, rank)
     select id, buyer, day, lag(day) over w, row_number() over w
     from (
       select o.id, order_buyer(o.user_id, o.guest_email, o.ship_phone) as buyer,
         order_indian_day(o.created_at) as day, o.created_at
       from orders o where order_is_sale(o.status)
     ) as sales
     window w as (partition by buyer order by created_at, id)`,
  );
}

/** The planned orders, their lines and their events. */
async function insertOrderRows(run: Run) {
  const cities = textArray(CITIES.map(([city]) => city));
  const states = textArray(CITIES.map(([, state]) => state));
  const pins = textArray(CITIES.map(([, , pin]) => pin));
  await run(
    "orders",
    `insert into orders (id, number, user_id, status, payment_method, subtotal_paise, discount_code, discount_paise,
       shipping_paise, total_paise, ship_name, ship_phone, ship_line1, ship_line2, ship_city, ship_state, ship_pin,
       estimated_delivery_from, estimated_delivery_to, has_perishables, razorpay_order_id,
       refund_reference, courier, tracking_number, shipped_at, delivered_at, cancelled_at, cod_confirm_by,
       created_at, updated_at)
     select o.id,
       'PN-' || to_char(o.created_at at time zone 'Asia/Kolkata', 'YYYY') || '-' || lpad((p.number_base + o.i)::text, 6, '0'),
       u.id, b.path[array_length(b.path, 1)], o.payment, o.subtotal, o.code, o.discount, o.shipping, o.total,
       u.first || ' ' || u.last, u.phone,
       (1 + ${h("u.u", 17)} % 400) || ', ' || (array['MG Road','Station Road','Gandhi Nagar','Park Street','Lake View','Civil Lines'])[1 + ${h("u.u", 18)} % 6],
       case when ${h("u.u", 19)} % 3 = 0 then 'Near the temple' else '' end,
       (${cities})[u.city], (${states})[u.city], (${pins})[u.city] || u.pin_tail,
       ((o.created_at at time zone 'Asia/Kolkata')::date + 3), ((o.created_at at time zone 'Asia/Kolkata')::date + 6),
       o.perishable,
       case when o.payment = 'razorpay' then 'order_big' || replace(o.id, '-', '') end,
       case when 'refunded' = any(b.path) then case when o.payment = 'razorpay' then 'rfnd_big' || o.i else 'UPI' || lpad(o.i::text, 10, '0') end end,
       case when 'shipped' = any(b.path) then (array[${COURIERS.map(literal).join(",")}])[1 + o.i % ${COURIERS.length}] end,
       case when 'shipped' = any(b.path) then 'TRK' || lpad(o.i::text, 10, '0') end,
       t.shipped_at, t.delivered_at, t.cancelled_at,
       -- Every cash-on-delivery order is asked to be confirmed within a day (docs/decisions/065).
       case when o.payment = 'cod' then o.created_at + interval '1 day' end,
       o.created_at, t.last_at
     from big_orders o join big_paths b using (i) join big_users u on u.u = o.user_idx
       join big_times t using (i) cross join big_params p
     order by o.i`,
  );
  await run(
    "order lines",
    `insert into order_lines (order_id, position, item_id, kind, name, image, unit_price_paise, quantity,
       line_total_paise, perishable)
     select id, position, item_id, kind, name, image, price, quantity, price * quantity, perishable
     from big_lines order by i, position`,
  );
  await run(
    "order events",
    `insert into order_events (order_id, from_status, to_status, actor, actor_user_id, note, created_at)
     select e.id, e.from_status, e.status,
       case when e.step = 1 then 'customer'
            when e.status = 'confirmed' and e.from_status = 'awaiting_payment' then 'payment'
            when e.status = 'cancelled' and e.from_status = 'awaiting_payment' and e.steps = 2 then 'system'
            -- Some cash-on-delivery orders lapse unanswered; the others are refused by the shopper.
            when e.status = 'cancelled' and e.from_status = 'placed' and e.i % 3 = 0 then 'system'
            when e.status in ('cancelled', 'return_requested') then 'customer'
            else 'admin' end,
       case when e.step = 1 or e.status in ('cancelled', 'return_requested') then u.id end,
       case when e.step = 1 then case when e.status = 'placed' then 'Cash on delivery' else 'Waiting for online payment' end
            when e.status = 'return_requested' then 'The product did not suit me' end,
       e.at
     from big_events e join big_users u on u.u = e.user_idx order by e.i, e.step`,
  );
}

/** The codes' uses, the order number sequence moved past the orders, and the reviews, questions and messages. */
async function insertAroundTheOrders(
  run: Run,
  {
    n,
    reviewCount,
    questionCount,
    messageCount,
  }: { n: number; reviewCount: number; questionCount: number; messageCount: number },
) {
  await run(
    "discount uses",
    `insert into discount_uses (user_id, code, used_at, order_id)
     select u.id, o.code, o.created_at, o.id from big_orders o join big_users u on u.u = o.user_idx
     where o.code is not null`,
  );
  await run(
    "order number sequence",
    `select setval('order_number_seq', (select number_base + n from big_params), true) where ${n} > 0`,
  );
  // Reviews: one per customer and product; the best seller gathers 5,000 of them.
  await run(
    "reviews",
    `insert into reviews (product_slug, user_id, rating, title, body, status, rejection_reason, moderated_at,
       reply, replied_at, created_at, updated_at)
     select product, u.id, rating,
       (array['Lovely','Works for me','Good value','Not for me','Will buy again'])[1 + r % 5],
       'Used it for ' || (2 + r % 10) || ' weeks. ' || (array['My hair feels softer.','Skin looks brighter.',
         'The fragrance is mild.','Took a while to show results.','Packaging could be better.'])[1 + r % 5],
       status, case when status = 'rejected' then 'Mentions another brand' end,
       case when status <> 'pending' then at + interval '1 day' end,
       case when r % 10 = 0 then 'Thank you for writing to us!' end,
       case when r % 10 = 0 then at + interval '2 days' end,
       at, at
     from (
       select g.r, 1 + (g.r - 1) % p.c as u_idx,
         case when g.r <= 5000 then (select slug from products where active order by slug limit 1)
              else (select array_agg(slug order by slug) from products where active)
                   [1 + ${h("g.r", 21)} % (select count(*) from products where active)] end as product,
         case when ${h("g.r", 22)} % 10 < 6 then 5 when ${h("g.r", 22)} % 10 < 8 then 4
              when ${h("g.r", 22)} % 10 < 9 then 3 else 1 + ${h("g.r", 22)} % 2 end as rating,
         case when ${h("g.r", 23)} % 100 < 85 then 'approved' when ${h("g.r", 23)} % 100 < 95 then 'pending'
              else 'rejected' end as status,
         p.t0 + (${h("g.r", 24)} % (${YEARS_DAYS} * 86400 - 86400)) * interval '1 second' as at
       from big_params p, generate_series(1, ${reviewCount}) as g(r)) as rv
     join big_users u on u.u = rv.u_idx`,
  );
  await run(
    "questions",
    `insert into questions (product_slug, user_id, body, answer, answered_at, hidden, created_at, updated_at)
     select product, u.id, 'Is this suitable for ' || (array['oily skin','dry hair','children','daily use'])[1 + q % 4] || '?',
       case when answered then 'Yes, it is. Patch-test first if your skin is sensitive.' end,
       case when answered then at + interval '1 day' end, q % 50 = 0, at, at
     from (
       select g.q, 1 + ${h("g.q", 31)} % p.c as u_idx,
         (select array_agg(slug order by slug) from products where active)
           [1 + ${h("g.q", 32)} % (select count(*) from products where active)] as product,
         ${h("g.q", 33)} % 10 < 7 as answered,
         p.t0 + (${h("g.q", 34)} % (${YEARS_DAYS} * 86400 - 86400)) * interval '1 second' as at
       from big_params p, generate_series(1, ${questionCount}) as g(q)) as qs
     join big_users u on u.u = qs.u_idx`,
  );
  await run(
    "contact messages",
    `insert into contact_messages (name, email, message, read_at, created_at, updated_at)
     select u.first || ' ' || u.last, 'writer.' || (p.user_base + g.m) || '@example.in',
       'Where is my order? I placed it ' || (1 + g.m % 9) || ' days ago.',
       case when ${h("g.m", 41)} % 10 < 8 then at + interval '3 hours' end, at, at
     from big_params p, generate_series(1, ${messageCount}) as g(m)
       join big_users u on u.u = 1 + ${h("g.m", 42)} % (select c from big_params),
       lateral (select p.t0 + (${h("g.m", 43)} % (${YEARS_DAYS} * 86400 - 86400)) * interval '1 second' as at) as t`,
  );
}

/**
 * The money those orders moved, as migration 0042 records it (docs/decisions/075): a later refund or edit of a
 * generated order is then checked against its ledger like any other. An online order that reached
 * "confirmed" was paid four minutes after it was placed; the ledger is the only record of that payment.
 */
async function insertMoneyLedger(run: Run) {
  await run(
    "money ledger",
    `insert into money_ledger (order_id, kind, amount_paise, applied, razorpay_order_id, razorpay_payment_id,
       razorpay_refund_id, reference, note, created_at)
     select o.id, m.kind, o.total_paise, true, m.rzp_order, m.rzp_payment, m.rzp_refund, m.reference,
       'Generated with the shop', m.at
     from orders o
     join big_paths b on b.id = o.id
     cross join lateral (select 'pay_big' || replace(o.id, '-', '') as payment,
       o.payment_method = 'razorpay' and 'confirmed' = any(b.path) as paid) as p
     cross join lateral (values
       ('online_payment', o.razorpay_order_id, p.payment, null, null, o.created_at + interval '4 minutes', p.paid),
       ('online_refund', null, p.payment, o.refund_reference, null, o.updated_at, p.paid and o.status = 'refunded'),
       ('cash_collected', null, null, null, o.tracking_number, o.delivered_at,
         o.payment_method = 'cod' and o.delivered_at is not null),
       ('cash_refund', null, null, null, o.refund_reference, o.updated_at,
         o.payment_method = 'cod' and o.status = 'refunded')
     ) as m(kind, rzp_order, rzp_payment, rzp_refund, reference, at, applies)
     where m.applies and o.total_paise > 0
       and not exists (select 1 from money_ledger l where l.order_id = o.id)`,
  );
}

export type Run = (label: string, statement: string) => Promise<number>;

/**
 * money_adds_up's rules (migration 0049) for every order at once: a capture applied only to an online order;
 * what was paid online and not refunded is the total of a paid order not refunded, else nothing; cash only
 * on a COD order, and then its whole total; no payment refunded beyond what it captured. Fails the fill (and
 * so rolls it back) naming the first orders that break one.
 */
export async function checkMoneyAddsUp(run: Run) {
  await run(
    "ledger check, set-based",
    `do $$
     declare broken text;
     begin
       with per_order as (
         select o.number, o.status, o.payment_method, o.total_paise,
           coalesce(bool_or(l.kind = 'online_payment' and l.applied), false) as paid,
           coalesce(sum(case l.kind when 'online_payment' then l.amount_paise
             when 'online_refund' then -l.amount_paise end) filter (where l.applied), 0) as net_online,
           coalesce(sum(l.amount_paise) filter (where l.kind = 'cash_collected'), 0) as cash
         from orders o left join money_ledger l on l.order_id = o.id
         group by o.id),
       refunded as (
         select razorpay_payment_id, sum(amount_paise) as amount from money_ledger
         where kind = 'online_refund' group by razorpay_payment_id)
       select string_agg(number, ', ') into broken from (
         select number from per_order
         where (paid and payment_method <> 'razorpay')
           or net_online <> case when paid and status <> 'refunded' then total_paise else 0 end
           or (cash <> 0 and (payment_method <> 'cod' or cash <> total_paise))
         union all
         select o.number from money_ledger p join refunded r using (razorpay_payment_id)
           join orders o on o.id = p.order_id
         where p.kind = 'online_payment' and p.amount_paise < r.amount
         limit 5) as first;
       if broken is not null then
         raise exception 'money does not add up for orders %', broken using errcode = '23514', constraint = 'money_adds_up';
       end if;
     end $$`,
  );
}

/** The shop's registered state, as the generated invoices name it. */
const SHOP_STATE = "Maharashtra";

/**
 * What the admin home reads besides the orders (issue 44), made from the generated orders (big_* tables) in
 * the same transaction: tax invoices and credit notes as confirmation, cancellation and returns issue them
 * (GST at 18 %; their lines are not generated, the figures read only the documents' amounts), parcels
 * returned to origin with what they cost both ways (and the ledger's courier charge), the couriers'
 * remittances of delivered cash, the funnel (rolled-up days, and today's and yesterday's visitors and orders
 * still held one by one), and the carts left behind with their reminders.
 */
async function fillAfterTheOrders(run: Run) {
  await fillTaxDocuments(run);
  await fillReturnsAndRemittances(run);
  await fillFunnel(run);
  await fillLeftCarts(run);
}

/** Tax invoices and credit notes as confirmation, cancellation and returns issued them, and their counters. */
async function fillTaxDocuments(run: Run) {
  const stateCodes = Object.entries(GST_STATE_CODES)
    .map(([state, code]) => `(${literal(state)}, ${literal(String(code))})`)
    .join(", ");
  await run(
    "tax documents (plan)",
    `create temp table big_documents on commit drop as
     with issued as (
       select e.id as order_id, 'invoice' as kind, e.at, null::text as reason from big_events e
       where e.status = 'confirmed'
       union all
       select e.id, 'credit_note', e.at, case when e.status = 'cancelled' then 'Order cancelled' else 'Goods returned' end
       from big_events e
       where e.status in ('cancelled', 'returned') and exists (
         select 1 from big_events c where c.i = e.i and c.status = 'confirmed' and c.step < e.step)
     ), dated as (
       select *, to_char(at at time zone 'Asia/Kolkata' - interval '3 months', 'YY') as fy_start from issued
     )
     select gen_random_uuid() as id, order_id, kind, at, reason,
       fy_start || '-' || lpad(((fy_start::int + 1) % 100)::text, 2, '0') as financial_year,
       row_number() over (partition by kind, fy_start order by at, order_id)::int as local_sequence
     from dated`,
  );
  await run(
    "tax documents",
    `insert into tax_documents (id, kind, number, financial_year, sequence, order_id, invoice_id, reason, issued_at,
       supplier, buyer, place_of_supply, intra_state, taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise)
     select d.id, d.kind,
       (case when d.kind = 'invoice' then 'PN' else 'CN' end) || '/' || d.financial_year || '/'
         || lpad((coalesce(c.last_number, 0) + d.local_sequence)::text, 6, '0'),
       d.financial_year, coalesce(c.last_number, 0) + d.local_sequence, d.order_id,
       v.id,
       d.reason, d.at,
       jsonb_build_object('name', 'Prakriti Naturals', 'lines', jsonb_build_array('12, Linking Road', 'Mumbai 400050'),
         'state', ${literal(SHOP_STATE)}, 'stateCode', (select code from (values ${stateCodes}) s(state, code) where s.state = ${literal(SHOP_STATE)}),
         'gstin', '27AAPFU0939F1ZV'),
       jsonb_build_object('name', o.ship_name, 'lines', jsonb_build_array(o.ship_line1, o.ship_city || ' ' || o.ship_pin),
         'state', o.ship_state, 'stateCode', sc.code, 'phone', o.ship_phone),
       o.ship_state, o.ship_state = ${literal(SHOP_STATE)},
       m.taxable,
       case when o.ship_state = ${literal(SHOP_STATE)} then (o.total_paise - m.taxable) / 2 else 0 end,
       case when o.ship_state = ${literal(SHOP_STATE)} then (o.total_paise - m.taxable) - (o.total_paise - m.taxable) / 2 else 0 end,
       case when o.ship_state = ${literal(SHOP_STATE)} then 0 else o.total_paise - m.taxable end,
       o.total_paise
     from big_documents d join orders o on o.id = d.order_id
       left join big_documents v on d.kind = 'credit_note' and v.order_id = d.order_id and v.kind = 'invoice'
       left join document_counters c on c.kind = d.kind and c.financial_year = d.financial_year
       left join (values ${stateCodes}) sc(state, code) on sc.state = o.ship_state
       cross join lateral (select round(o.total_paise * 100 / 118.0)::int as taxable) m
     order by d.kind desc, d.at`,
  );
  await run(
    "document counters",
    `insert into document_counters (kind, financial_year, last_number)
     select kind, financial_year, max(sequence) from tax_documents group by kind, financial_year
     on conflict (kind, financial_year) do update set last_number = excluded.last_number`,
  );
}

/** Parcels returned to origin with what they cost, and the couriers' remittances of delivered cash. */
async function fillReturnsAndRemittances(run: Run) {
  await run(
    "returns to origin",
    `insert into order_rto (order_id, source, forward_paise, return_paise, recorded_at, received_at)
     select e.id, 'tracking', 6000 + ${h("e.i", 51)} % 4000, 5000 + ${h("e.i", 52)} % 3000, e.at,
       case when e.at + interval '6 days' < (select now from big_params) then e.at + interval '6 days' end
     from big_events e where e.status = 'returned_to_origin'`,
  );
  await run(
    "returns to origin (ledger)",
    `insert into money_ledger (order_id, kind, amount_paise, applied, reference, note, created_at)
     select r.order_id, 'courier_charge', r.forward_paise + r.return_paise, true, o.tracking_number,
       'Return to origin, both ways', r.recorded_at
     from order_rto r join big_orders b on b.id = r.order_id join orders o on o.id = r.order_id`,
  );
  // The couriers pay delivered cash over within a week or so; the last ten days' cash is still expected.
  await run(
    "cash remittances",
    `insert into cod_remittances (order_id, amount_paise, collected_on, reference, source)
     select o.id, o.total_paise, (o.delivered_at at time zone 'Asia/Kolkata')::date + 7,
       'UTR' || lpad(b.i::text, 12, '0'), 'import'
     from big_orders b join orders o on o.id = b.id
     where o.payment_method = 'cod' and o.delivered_at is not null and o.total_paise > 0
       and o.delivered_at < (select now from big_params) - interval '10 days' and ${h("b.i", 53)} % 100 < 97`,
  );
  await run(
    "cash remittances (ledger)",
    `insert into money_ledger (order_id, kind, amount_paise, applied, reference, note, created_at)
     select c.order_id, 'cod_remittance', c.amount_paise, true, c.reference,
       'Remitted by the courier, collected ' || c.collected_on, c.collected_on + interval '12 hours'
     from cod_remittances c join big_orders b on b.id = c.order_id`,
  );
}

async function fillFunnel(run: Run) {
  // The funnel: about four in a hundred who view a product order; the days before yesterday are rolled up
  // (docs/decisions/090), today's and yesterday's are still held visitor by visitor.
  await run(
    "funnel days",
    `insert into funnel_days (day, step, sessions)
     select d.day, s.step, greatest(0, round(d.count * s.factor * (0.9 + ${h("(d.day - date '2000-01-01') * 8 + s.n", 54)} % 20 / 100.0)))::int
     from (select (start at time zone 'Asia/Kolkata')::date as day, count from big_days) d,
       (values (1, 'viewed', 25.0), (2, 'added', 6.0), (3, 'checkout', 2.2), (4, 'ordered', 1.02), (5, 'paid', 0.95))
         as s(n, step, factor)
     where d.day < ((select now from big_params) at time zone 'Asia/Kolkata')::date - 1
     on conflict (day, step) do update set sessions = funnel_days.sessions + excluded.sessions`,
  );
  await run(
    "funnel visitors",
    `insert into funnel_visits (day, step, visitor)
     select d.day, s.step, md5(d.day::text || ':' || v)
     from (select (start at time zone 'Asia/Kolkata')::date as day, count from big_days) d,
       (values ('viewed', 25.0), ('added', 6.0), ('checkout', 2.2), ('ordered', 1.0)) as s(step, factor),
       generate_series(1, round(d.count * s.factor)::int) as v
     where d.day >= ((select now from big_params) at time zone 'Asia/Kolkata')::date - 1
     on conflict do nothing`,
  );
  await run(
    "funnel orders",
    `insert into funnel_orders (order_id, day, visitor)
     select b.id, (b.created_at at time zone 'Asia/Kolkata')::date,
       md5((b.created_at at time zone 'Asia/Kolkata')::date::text || ':' || row_number() over (
         partition by (b.created_at at time zone 'Asia/Kolkata')::date order by b.i))
     from big_orders b
     where (b.created_at at time zone 'Asia/Kolkata')::date >= ((select now from big_params) at time zone 'Asia/Kolkata')::date - 1`,
  );
}

async function fillLeftCarts(run: Run) {
  // Carts left behind, about one for every order: most reminded once (a few twice), the rest not reminded for
  // the reasons the sweep records; one in ten left an hour before that customer's order, so it was won back.
  await run(
    "carts left behind",
    `insert into left_carts (subject, user_id, items, touched_at, reminders_sent, first_reminded_at,
       last_reminded_at, closed_reason, created_at)
     select 'user:' || u.id, u.id,
       jsonb_build_array(jsonb_build_object('id', it.item_id, 'kind', it.kind, 'quantity', 1)),
       t.at, c.sent,
       case when c.sent > 0 then t.at + interval '1 hour' end,
       case when c.sent = 1 then t.at + interval '1 hour' when c.sent = 2 then t.at + interval '25 hours' end,
       case when c.sent = 0 then (array['ordered','emptied','no_consent','unsubscribed','no_email'])[1 + b.r % 5] end,
       t.at
     from big_orders b join big_users u on u.u = b.user_idx
       cross join lateral (select ${h("b.i", 55)} % 100 as k) as x
       cross join lateral (select case when x.k < 10 then b.created_at - interval '2 hours'
         else b.created_at - (1 + ${h("b.i", 56)} % 720) * interval '1 hour' end as at) as t
       cross join lateral (select case when x.k < 65 then 1 when x.k < 72 then 2 else 0 end as sent) as c
       join big_items it on it.idx = 1 + b.first_item
     where t.at < (select now from big_params) - interval '3 hours'`,
  );
}
