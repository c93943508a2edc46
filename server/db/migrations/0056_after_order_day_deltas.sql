CREATE TABLE "after_order_day_deltas" (
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"other_count" integer DEFAULT 0 NOT NULL,
	"amount_paise" bigint DEFAULT 0 NOT NULL,
	"other_paise" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "after_order_day_deltas_day_idx" ON "after_order_day_deltas" USING btree ("day","dimension");--> statement-breakpoint
-- Hand-written (issue 44): "After the order" per day, kept by statement triggers in the same statement as the
-- change it sums, like sales_day_deltas (migration 0053): only ever inserted, readers sum them. One order's
-- rows: its parcel by the day shipped, by state and by PIN prefix, with its return to origin and what that
-- cost; its COD confirmation by the day placed, by how the first move out of "placed" ended; its cash by the
-- day delivered, with the cash recorded collected.
CREATE FUNCTION "cod_confirm_outcome"(to_status text, actor text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN to_status IS NULL THEN 'waiting'
    WHEN to_status = 'cancelled' AND actor = 'customer' THEN 'refused'
    WHEN to_status = 'cancelled' AND actor = 'system' THEN 'lapsed'
    WHEN to_status = 'cancelled' THEN 'cancelledByStaff'
    ELSE 'confirmed'
  END
$$;--> statement-breakpoint
CREATE FUNCTION "after_order_rows"(o orders)
  RETURNS TABLE (day date, dimension text, key text, count integer, other_count integer, amount_paise bigint,
    other_paise bigint)
  LANGUAGE sql STABLE AS $$
  SELECT order_indian_day(o.shipped_at), d.dimension, d.key, 1, (r.order_id IS NOT NULL)::int,
    coalesce(r.forward_paise + r.return_paise, 0)::bigint, 0::bigint
  FROM (VALUES ('state', o.ship_state), ('pin', left(o.ship_pin, 3))) AS d(dimension, key)
    LEFT JOIN order_rto r ON r.order_id = o.id
  WHERE o.shipped_at IS NOT NULL
  UNION ALL
  SELECT order_indian_day(o.created_at), 'confirm', cod_confirm_outcome(e.to_status, e.actor), 1, 0, 0::bigint,
    0::bigint
  FROM (SELECT 1) AS one LEFT JOIN LATERAL (
    SELECT ev.to_status, ev.actor FROM order_events ev
    WHERE ev.order_id = o.id AND ev.from_status = 'placed' AND ev.to_status <> 'placed'
    ORDER BY ev.created_at, ev.id LIMIT 1
  ) AS e ON true
  WHERE o.payment_method = 'cod' AND o.cod_confirm_by IS NOT NULL
  UNION ALL
  SELECT order_indian_day(o.delivered_at), 'cash', '', 1, (c.order_id IS NOT NULL)::int, o.total_paise::bigint,
    coalesce(c.amount_paise, 0)::bigint
  FROM (SELECT 1) AS one LEFT JOIN cod_remittances c ON c.order_id = o.id
  WHERE o.payment_method = 'cod' AND o.delivered_at IS NOT NULL
$$;--> statement-breakpoint
CREATE FUNCTION "after_order_deltas_on_orders_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
  SELECT r.day, r.dimension, r.key, sum(r.count), sum(r.other_count), sum(r.amount_paise), sum(r.other_paise)
  FROM new_rows n CROSS JOIN LATERAL after_order_rows(n) AS r GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only orders whose shipping, place, payment, confirmation, days or total changed write anything; the rows
-- beside them (returns, cash, events) are as the statement found them, so old and new rows differ only by
-- the order's own change.
CREATE FUNCTION "after_order_deltas_on_orders_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
  SELECT c.day, c.dimension, c.key, sum(c.count), sum(c.other_count), sum(c.amount_paise), sum(c.other_paise)
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  CROSS JOIN LATERAL (
    SELECT r.day, r.dimension, r.key, r.count, r.other_count, r.amount_paise, r.other_paise
    FROM after_order_rows(n) AS r
    UNION ALL
    SELECT r.day, r.dimension, r.key, -r.count, -r.other_count, -r.amount_paise, -r.other_paise
    FROM after_order_rows(o) AS r
  ) AS c
  WHERE (n.shipped_at, n.ship_state, left(n.ship_pin, 3), n.payment_method, n.cod_confirm_by IS NULL,
      order_indian_day(n.created_at), n.delivered_at, n.total_paise)
    IS DISTINCT FROM (o.shipped_at, o.ship_state, left(o.ship_pin, 3), o.payment_method, o.cod_confirm_by IS NULL,
      order_indian_day(o.created_at), o.delivered_at, o.total_paise)
  GROUP BY 1, 2, 3
  HAVING sum(c.count) <> 0 OR sum(c.other_count) <> 0 OR sum(c.amount_paise) <> 0 OR sum(c.other_paise) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A deleted order's rows leave with it, counted out before the cascade removes its return, cash and events
-- (whose own triggers then find no order and count nothing).
CREATE FUNCTION "after_order_deltas_on_order_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
  SELECT r.day, r.dimension, r.key, -r.count, -r.other_count, -r.amount_paise, -r.other_paise
  FROM after_order_rows(OLD) AS r;
  RETURN OLD;
END $$;--> statement-breakpoint
-- A return to origin recorded, costed again or removed: the shipped order's state and PIN prefix.
CREATE FUNCTION "after_order_deltas_on_rto_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
    SELECT order_indian_day(o.shipped_at), d.dimension, d.key, 0, sum(c.sign),
      sum(c.sign * (c.forward_paise + c.return_paise)::bigint), 0
    FROM (
      SELECT 1 AS sign, order_id, forward_paise, return_paise FROM %s
      UNION ALL
      SELECT -1, order_id, forward_paise, return_paise FROM %s
    ) AS c JOIN orders o ON o.id = c.order_id
    CROSS JOIN LATERAL (VALUES ('state', o.ship_state), ('pin', left(o.ship_pin, 3))) AS d(dimension, key)
    WHERE o.shipped_at IS NOT NULL
    GROUP BY 1, 2, 3
    HAVING sum(c.sign) <> 0 OR sum(c.sign * (c.forward_paise + c.return_paise)::bigint) <> 0$q$,
    CASE WHEN TG_OP = 'DELETE' THEN '(SELECT * FROM order_rto WHERE false) AS none' ELSE 'new_rto' END,
    CASE WHEN TG_OP = 'INSERT' THEN '(SELECT * FROM order_rto WHERE false) AS none' ELSE 'old_rto' END);
  RETURN NULL;
END $$;--> statement-breakpoint
-- Cash recorded collected, corrected or removed: the delivered COD order's day.
CREATE FUNCTION "after_order_deltas_on_cash_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
    SELECT order_indian_day(o.delivered_at), 'cash', '', 0, sum(c.sign), 0, sum(c.sign * c.amount_paise::bigint)
    FROM (
      SELECT 1 AS sign, order_id, amount_paise FROM %s
      UNION ALL
      SELECT -1, order_id, amount_paise FROM %s
    ) AS c JOIN orders o ON o.id = c.order_id
    WHERE o.payment_method = 'cod' AND o.delivered_at IS NOT NULL
    GROUP BY 1
    HAVING sum(c.sign) <> 0 OR sum(c.sign * c.amount_paise::bigint) <> 0$q$,
    CASE WHEN TG_OP = 'DELETE' THEN '(SELECT * FROM cod_remittances WHERE false) AS none' ELSE 'new_cash' END,
    CASE WHEN TG_OP = 'INSERT' THEN '(SELECT * FROM cod_remittances WHERE false) AS none' ELSE 'old_cash' END);
  RETURN NULL;
END $$;--> statement-breakpoint
-- An order's events written, changed or removed: for each asked COD order with a move out of "placed" among
-- them, how it ended before (its events less those written, plus those removed) against how it ends now.
CREATE FUNCTION "after_order_deltas_on_events_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Most events added (every order placed writes one) are no first answer to a confirmation: they end here,
  -- before the statement below, which is planned again at every call.
  -- (Two IFs: the inner one names new_events, which a delete's call does not have.)
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_events WHERE from_status = 'placed' AND to_status <> 'placed') THEN
      RETURN NULL;
    END IF;
  END IF;
  EXECUTE format($q$
    WITH added AS (SELECT id, order_id, from_status, to_status, actor, created_at FROM %s),
    removed AS (SELECT id, order_id, from_status, to_status, actor, created_at FROM %s),
    touched AS (
      SELECT DISTINCT t.order_id FROM (SELECT * FROM added UNION ALL SELECT * FROM removed) AS t
      JOIN orders o ON o.id = t.order_id
      WHERE t.from_status = 'placed' AND t.to_status <> 'placed'
        AND o.payment_method = 'cod' AND o.cod_confirm_by IS NOT NULL
    ),
    now_first AS (
      SELECT DISTINCT ON (e.order_id) e.order_id, e.to_status, e.actor
      FROM order_events e JOIN touched USING (order_id)
      WHERE e.from_status = 'placed' AND e.to_status <> 'placed'
      ORDER BY e.order_id, e.created_at, e.id
    ),
    was_first AS (
      SELECT DISTINCT ON (e.order_id) e.order_id, e.to_status, e.actor FROM (
        SELECT e.id, e.order_id, e.from_status, e.to_status, e.actor, e.created_at
        FROM order_events e JOIN touched USING (order_id)
        WHERE NOT EXISTS (SELECT 1 FROM added a WHERE a.id = e.id)
        UNION ALL
        SELECT r.id, r.order_id, r.from_status, r.to_status, r.actor, r.created_at
        FROM removed r JOIN touched USING (order_id)
      ) AS e
      WHERE e.from_status = 'placed' AND e.to_status <> 'placed'
      ORDER BY e.order_id, e.created_at, e.id
    )
    INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
    SELECT order_indian_day(o.created_at), 'confirm', c.outcome, sum(c.sign), 0, 0, 0
    FROM (
      SELECT t.order_id, 1 AS sign, cod_confirm_outcome(n.to_status, n.actor) AS outcome
      FROM touched t LEFT JOIN now_first n USING (order_id)
      UNION ALL
      SELECT t.order_id, -1, cod_confirm_outcome(w.to_status, w.actor)
      FROM touched t LEFT JOIN was_first w USING (order_id)
    ) AS c JOIN orders o ON o.id = c.order_id
    GROUP BY 1, 3 HAVING sum(c.sign) <> 0$q$,
    CASE WHEN TG_OP = 'DELETE' THEN '(SELECT * FROM order_events WHERE false) AS none' ELSE 'new_events' END,
    CASE WHEN TG_OP = 'INSERT' THEN '(SELECT * FROM order_events WHERE false) AS none' ELSE 'old_events' END);
  RETURN NULL;
END $$;--> statement-breakpoint
-- The same rows summed over the whole shop at once (the backfill, and again after a table is emptied): set-based,
-- each order's first move out of "placed" from one pass over the events.
CREATE FUNCTION "after_order_sums"()
  RETURNS TABLE (day date, dimension text, key text, count bigint, other_count bigint, amount_paise numeric,
    other_paise numeric)
  LANGUAGE sql STABLE AS $$
  SELECT t.day, t.dimension, t.key, sum(t.count), sum(t.other_count), sum(t.amount_paise), sum(t.other_paise)
  FROM (
    SELECT order_indian_day(o.shipped_at) AS day, d.dimension, d.key, 1 AS count,
      (r.order_id IS NOT NULL)::int AS other_count,
      coalesce(r.forward_paise + r.return_paise, 0)::bigint AS amount_paise, 0::bigint AS other_paise
    FROM orders o LEFT JOIN order_rto r ON r.order_id = o.id
    CROSS JOIN LATERAL (VALUES ('state', o.ship_state), ('pin', left(o.ship_pin, 3))) AS d(dimension, key)
    WHERE o.shipped_at IS NOT NULL
    UNION ALL
    SELECT order_indian_day(o.created_at), 'confirm', cod_confirm_outcome(e.to_status, e.actor), 1, 0, 0, 0
    FROM orders o LEFT JOIN (
      SELECT DISTINCT ON (order_id) order_id, to_status, actor FROM order_events
      WHERE from_status = 'placed' AND to_status <> 'placed' ORDER BY order_id, created_at, id
    ) AS e ON e.order_id = o.id
    WHERE o.payment_method = 'cod' AND o.cod_confirm_by IS NOT NULL
    UNION ALL
    SELECT order_indian_day(o.delivered_at), 'cash', '', 1, (c.order_id IS NOT NULL)::int, o.total_paise,
      coalesce(c.amount_paise, 0)
    FROM orders o LEFT JOIN cod_remittances c ON c.order_id = o.id
    WHERE o.payment_method = 'cod' AND o.delivered_at IS NOT NULL
  ) AS t GROUP BY 1, 2, 3
$$;--> statement-breakpoint
-- Emptying any of the tables it sums (tests, a restore) sums the orders again.
CREATE FUNCTION "after_order_deltas_rebuild"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM after_order_day_deltas;
  INSERT INTO after_order_day_deltas (day, dimension, key, count, other_count, amount_paise, other_paise)
  SELECT day, dimension, key, count, other_count, amount_paise, other_paise FROM after_order_sums();
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_after_order_deltas_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_orders_insert();--> statement-breakpoint
CREATE TRIGGER "orders_after_order_deltas_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_orders_update();--> statement-breakpoint
CREATE TRIGGER "orders_after_order_deltas_delete" BEFORE DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION after_order_deltas_on_order_delete();--> statement-breakpoint
CREATE TRIGGER "order_rto_after_order_deltas_insert" AFTER INSERT ON "order_rto" REFERENCING NEW TABLE AS new_rto FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_rto_change();--> statement-breakpoint
CREATE TRIGGER "order_rto_after_order_deltas_update" AFTER UPDATE ON "order_rto" REFERENCING OLD TABLE AS old_rto NEW TABLE AS new_rto FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_rto_change();--> statement-breakpoint
CREATE TRIGGER "order_rto_after_order_deltas_delete" AFTER DELETE ON "order_rto" REFERENCING OLD TABLE AS old_rto FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_rto_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_after_order_deltas_insert" AFTER INSERT ON "cod_remittances" REFERENCING NEW TABLE AS new_cash FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_cash_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_after_order_deltas_update" AFTER UPDATE ON "cod_remittances" REFERENCING OLD TABLE AS old_cash NEW TABLE AS new_cash FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_cash_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_after_order_deltas_delete" AFTER DELETE ON "cod_remittances" REFERENCING OLD TABLE AS old_cash FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_cash_change();--> statement-breakpoint
CREATE TRIGGER "order_events_after_order_deltas_insert" AFTER INSERT ON "order_events" REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_events_change();--> statement-breakpoint
CREATE TRIGGER "order_events_after_order_deltas_update" AFTER UPDATE ON "order_events" REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_events_change();--> statement-breakpoint
CREATE TRIGGER "order_events_after_order_deltas_delete" AFTER DELETE ON "order_events" REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_on_events_change();--> statement-breakpoint
CREATE TRIGGER "orders_after_order_deltas_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_rebuild();--> statement-breakpoint
CREATE TRIGGER "order_rto_after_order_deltas_truncate" AFTER TRUNCATE ON "order_rto" FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_rebuild();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_after_order_deltas_truncate" AFTER TRUNCATE ON "cod_remittances" FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_rebuild();--> statement-breakpoint
CREATE TRIGGER "order_events_after_order_deltas_truncate" AFTER TRUNCATE ON "order_events" FOR EACH STATEMENT EXECUTE FUNCTION after_order_deltas_rebuild();--> statement-breakpoint
-- Backfill: the shop's orders so far, one row per day and key (some 70,000 groups at a million orders: hashed in
-- memory rather than spilled to disk in 16 parts).
SET LOCAL work_mem = '64MB';--> statement-breakpoint
INSERT INTO "after_order_day_deltas" ("day", "dimension", "key", "count", "other_count", "amount_paise", "other_paise")
SELECT day, dimension, key, count, other_count, amount_paise, other_paise FROM after_order_sums();--> statement-breakpoint
RESET work_mem;
