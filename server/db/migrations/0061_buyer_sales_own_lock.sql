-- Hand-written (issue 43, docs/decisions/097): a buyer's sales are worked out one transaction at a time under a
-- lock of that buyer alone (the full hash of the buyer in the second key of a two-key advisory lock), no longer
-- under one of 256 shares of all buyers. The lock is held to the commit, and an order's transaction waits on its
-- product's row after the trigger: with shares, a burst of first orders from different buyers queued behind one
-- another's stock waits; now only orders of one buyer (or of buyers whose hashes are equal) wait on each other.
-- An order appended as its buyer's latest sale adds its row without ON CONFLICT DO UPDATE, which fired
-- buyer_sales' update trigger a second time for each order; a row already there leaves that buyer to be worked
-- out again below, as every other case is.
CREATE OR REPLACE FUNCTION "buyer_sales_on_orders_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
  appended text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM buyer_sales;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT order_buyer(n.user_id, n.guest_email, n.ship_phone)) INTO touched
    FROM new_rows n WHERE order_is_sale(n.status);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT order_buyer(o.user_id, o.guest_email, o.ship_phone)) INTO touched
    FROM old_rows o WHERE order_is_sale(o.status);
  ELSE
    SELECT array_agg(DISTINCT k.buyer) INTO touched
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES (order_buyer(n.user_id, n.guest_email, n.ship_phone)),
      (order_buyer(o.user_id, o.guest_email, o.ship_phone))) AS k(buyer)
    WHERE (order_is_sale(n.status) OR order_is_sale(o.status))
      AND (order_is_sale(n.status), order_buyer(n.user_id, n.guest_email, n.ship_phone), n.created_at)
        IS DISTINCT FROM (order_is_sale(o.status), order_buyer(o.user_id, o.guest_email, o.ship_phone), o.created_at);
  END IF;
  IF touched IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('buyer_sales'), key)
  FROM (SELECT DISTINCT hashtext(buyer) AS key FROM unnest(touched) AS t(buyer)) AS keys
  ORDER BY key;
  IF TG_OP = 'INSERT' THEN
    -- The buyers whose one sale in this statement comes after every other sale of theirs: appended.
    WITH placed AS (
      SELECT n.id, order_buyer(n.user_id, n.guest_email, n.ship_phone) AS buyer, n.created_at,
        count(*) OVER (PARTITION BY order_buyer(n.user_id, n.guest_email, n.ship_phone)) AS sales_of_buyer
      FROM new_rows n WHERE order_is_sale(n.status)
    ), added AS (
      INSERT INTO buyer_sales (order_id, buyer, day, previous_day, rank)
      SELECT p.id, p.buyer, order_indian_day(p.created_at), s.day, coalesce(s.rank, 0) + 1
      FROM placed p
      LEFT JOIN LATERAL (
        SELECT o.id FROM orders o
        WHERE order_buyer(o.user_id, o.guest_email, o.ship_phone) = p.buyer AND order_is_sale(o.status)
          AND (o.created_at, o.id) < (p.created_at, p.id)
        ORDER BY o.created_at DESC, o.id DESC LIMIT 1
      ) AS before ON true
      LEFT JOIN buyer_sales s ON s.order_id = before.id
      LEFT JOIN LATERAL (
        SELECT o.id FROM orders o
        WHERE order_buyer(o.user_id, o.guest_email, o.ship_phone) = p.buyer AND order_is_sale(o.status)
          AND (o.created_at, o.id) > (p.created_at, p.id)
        ORDER BY o.created_at, o.id LIMIT 1
      ) AS later ON true
      WHERE p.sales_of_buyer = 1 AND (before.id IS NULL OR s.order_id IS NOT NULL) AND later.id IS NULL
      ON CONFLICT (order_id) DO NOTHING
      RETURNING buyer
    )
    SELECT array_agg(buyer) INTO appended FROM added;
    IF appended IS NOT NULL THEN
      touched := ARRAY(SELECT t.buyer FROM unnest(touched) AS t(buyer) WHERE t.buyer <> ALL (appended));
      IF cardinality(touched) = 0 THEN
        RETURN NULL;
      END IF;
    END IF;
  END IF;
  DELETE FROM buyer_sales WHERE buyer = ANY (touched);
  INSERT INTO buyer_sales (order_id, buyer, day, previous_day, rank)
  SELECT id, buyer, day, lag(day) OVER w, row_number() OVER w
  FROM (
    SELECT o.id, order_buyer(o.user_id, o.guest_email, o.ship_phone) AS buyer,
      order_indian_day(o.created_at) AS day, o.created_at
    FROM orders o
    WHERE order_buyer(o.user_id, o.guest_email, o.ship_phone) = ANY (touched) AND order_is_sale(o.status)
  ) AS sales
  WINDOW w AS (PARTITION BY buyer ORDER BY created_at, id)
  ON CONFLICT (order_id) DO UPDATE SET buyer = excluded.buyer, day = excluded.day,
    previous_day = excluded.previous_day, rank = excluded.rank;
  RETURN NULL;
END $$;--> statement-breakpoint
-- buyer_sales' and sales_day_deltas' rows counted into their summaries by one statement each: the rows a
-- statement adds count for and those it removes against, whichever of insert, update and delete it is (an
-- update has both). Each trigger sees only the transition tables it declares, so the rows are gathered first.
CREATE OR REPLACE FUNCTION "buyer_sale_day_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added buyer_sales[];
  removed buyer_sales[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM buyer_sale_day_deltas;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    added := ARRAY(SELECT n::buyer_sales FROM new_rows n);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    removed := ARRAY(SELECT o::buyer_sales FROM old_rows o);
  END IF;
  INSERT INTO buyer_sale_day_deltas (day, firsts, later, seconds, nexts, second_nexts)
  WITH changed AS (
    SELECT day, previous_day, rank, 1 AS sign FROM unnest(added)
    UNION ALL
    SELECT day, previous_day, rank, -1 AS sign FROM unnest(removed)
  )
  SELECT day, sum(firsts), sum(later), sum(seconds), sum(nexts), sum(second_nexts)
  FROM (
    SELECT c.day, c.sign * (c.previous_day IS NULL)::int AS firsts,
      c.sign * (c.previous_day IS NOT NULL)::int AS later, c.sign * (c.rank = 2)::int AS seconds,
      0 AS nexts, 0 AS second_nexts
    FROM changed c
    UNION ALL
    SELECT c.previous_day, 0, 0, 0, c.sign, c.sign * (c.rank = 2)::int
    FROM changed c WHERE c.previous_day IS NOT NULL
  ) AS counted
  GROUP BY day
  HAVING sum(firsts) <> 0 OR sum(later) <> 0 OR sum(seconds) <> 0 OR sum(nexts) <> 0
    OR sum(second_nexts) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "sales_month_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added sales_day_deltas[];
  removed sales_day_deltas[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM sales_month_deltas;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    added := ARRAY(SELECT n::sales_day_deltas FROM new_rows n);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    removed := ARRAY(SELECT o::sales_day_deltas FROM old_rows o);
  END IF;
  INSERT INTO sales_month_deltas (month, dimension, key, name, count, units, amount_paise, other_paise)
  SELECT date_trunc('month', c.day)::date, c.dimension, c.key, c.name, sum(c.sign * c.count),
    sum(c.sign * c.units), sum(c.sign * c.amount_paise), sum(c.sign * c.other_paise)
  FROM (
    SELECT day, dimension, key, name, count, units, amount_paise, other_paise, 1 AS sign FROM unnest(added)
    UNION ALL
    SELECT day, dimension, key, name, count, units, amount_paise, other_paise, -1 AS sign FROM unnest(removed)
  ) AS c
  GROUP BY 1, 2, 3, 4
  HAVING sum(c.sign * c.count) <> 0 OR sum(c.sign * c.units) <> 0 OR sum(c.sign * c.amount_paise) <> 0
    OR sum(c.sign * c.other_paise) <> 0;
  RETURN NULL;
END $$;
