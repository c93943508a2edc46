-- Hand-written (issue 43, docs/decisions/097): the summaries' triggers on orders cost an order placed only what
-- its placement changes. Every statement here is static (planned once per connection, not at each call), reads
-- the statement's rows once, and ends at once when none of them matters.
--
-- buyer_sales: a sale placed now is its buyer's latest, so it follows the buyer's sale before it (whose row is
-- kept) instead of the buyer's sales being worked out again from all their orders. A statement that writes
-- several sales of one buyer, or one that is not the buyer's latest (a back-dated row), and every update and
-- delete, still work the buyer out again. Either way under the buyer's share of the advisory locks, so the sale
-- before it, and any later one, is read as the transactions before it left them.
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
  PERFORM pg_advisory_xact_lock(hashtext('buyer_sales'), share)
  FROM (SELECT DISTINCT hashtext(buyer) & 255 AS share FROM unnest(touched) AS t(buyer)) AS shares
  ORDER BY share;
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
      ON CONFLICT (order_id) DO UPDATE SET buyer = excluded.buyer, day = excluded.day,
        previous_day = excluded.previous_day, rank = excluded.rank
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
-- After the order: an order inserted has no return to origin, cash recorded or event yet (each references the
-- order), so its rows are after_order_rows' with those empty: its parcel if already shipped, its COD
-- confirmation "waiting", its cash expected if already delivered. One pass, no per-row function call.
CREATE OR REPLACE FUNCTION "after_order_deltas_on_orders_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO after_order_day_deltas (day, dimension, key, count, amount_paise)
  SELECT r.day, r.dimension, r.key, count(*), sum(r.amount_paise)
  FROM new_rows n CROSS JOIN LATERAL (VALUES
    (n.shipped_at IS NOT NULL, order_indian_day(n.shipped_at), 'state', n.ship_state, 0::bigint),
    (n.shipped_at IS NOT NULL, order_indian_day(n.shipped_at), 'pin', left(n.ship_pin, 3), 0::bigint),
    (n.payment_method = 'cod' AND n.cod_confirm_by IS NOT NULL, order_indian_day(n.created_at), 'confirm',
      'waiting', 0::bigint),
    (n.payment_method = 'cod' AND n.delivered_at IS NOT NULL, order_indian_day(n.delivered_at), 'cash', '',
      n.total_paise::bigint)
  ) AS r(counts, day, dimension, key, amount_paise)
  WHERE r.counts
  GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The work sets: an order placed is neither due an invoice nor delivered, and one changed without a move in or
-- out of either set changes neither: both end after one look at the statement's rows.
CREATE OR REPLACE FUNCTION "work_sets_on_orders_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE order_invoice_due(n.status) <> order_invoice_due(o.status)
        OR (n.payment_method, n.delivered_at, n.total_paise)
          IS DISTINCT FROM (o.payment_method, o.delivered_at, o.total_paise)
    ) THEN
      RETURN NULL;
    END IF;
    DELETE FROM orders_awaiting_invoice w USING new_rows n JOIN old_rows o ON o.id = n.id
    WHERE w.order_id = n.id AND order_invoice_due(o.status) AND NOT order_invoice_due(n.status);
    INSERT INTO orders_awaiting_invoice (order_id)
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE order_invoice_due(n.status) AND NOT order_invoice_due(o.status)
      AND NOT EXISTS (SELECT 1 FROM tax_documents d WHERE d.order_id = n.id AND d.kind = 'invoice')
    ON CONFLICT DO NOTHING;
    DELETE FROM cod_cash_awaited c USING new_rows n JOIN old_rows o ON o.id = n.id
    WHERE c.order_id = n.id AND (n.payment_method, n.delivered_at, n.total_paise)
      IS DISTINCT FROM (o.payment_method, o.delivered_at, o.total_paise);
    INSERT INTO cod_cash_awaited (order_id, delivered_at, total_paise)
    SELECT n.id, n.delivered_at, n.total_paise FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.payment_method = 'cod' AND n.delivered_at IS NOT NULL
      AND (n.payment_method, n.delivered_at, n.total_paise)
        IS DISTINCT FROM (o.payment_method, o.delivered_at, o.total_paise)
      AND NOT EXISTS (SELECT 1 FROM cod_remittances r WHERE r.order_id = n.id)
    ON CONFLICT DO NOTHING;
  ELSE
    IF NOT EXISTS (
      SELECT 1 FROM new_rows n
      WHERE order_invoice_due(n.status) OR (n.payment_method = 'cod' AND n.delivered_at IS NOT NULL)
    ) THEN
      RETURN NULL;
    END IF;
    INSERT INTO orders_awaiting_invoice (order_id)
    SELECT n.id FROM new_rows n WHERE order_invoice_due(n.status)
      AND NOT EXISTS (SELECT 1 FROM tax_documents d WHERE d.order_id = n.id AND d.kind = 'invoice')
    ON CONFLICT DO NOTHING;
    INSERT INTO cod_cash_awaited (order_id, delivered_at, total_paise)
    SELECT n.id, n.delivered_at, n.total_paise FROM new_rows n
    WHERE n.payment_method = 'cod' AND n.delivered_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM cod_remittances r WHERE r.order_id = n.id)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
