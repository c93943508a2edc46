CREATE TABLE "sales_day_deltas" (
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"count" integer NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"amount_paise" bigint NOT NULL,
	"other_paise" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sales_day_deltas_day_idx" ON "sales_day_deltas" USING btree ("day","dimension");--> statement-breakpoint
-- Hand-written (issue 44, docs/decisions/094): "Sales at a glance" per day, kept by statement triggers in the
-- same statement as the change it sums, like order_day_deltas (migration 0009); only ever inserted, so no
-- counter row for concurrent orders to queue on; readers sum them. Sale statuses are order_is_sale's.
CREATE FUNCTION "sales_deltas_on_orders_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sales_day_deltas (day, dimension, key, count, amount_paise, other_paise)
  SELECT order_indian_day(n.created_at), d.dimension, d.key, count(*), sum(n.total_paise), sum(d.other)
  FROM new_rows n CROSS JOIN LATERAL (VALUES ('state', n.ship_state, 0), ('payment', n.payment_method, 0),
    ('code', n.discount_code, n.discount_paise)) AS d(dimension, key, other)
  WHERE order_is_sale(n.status) AND d.key IS NOT NULL GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "sales_deltas_on_orders_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sales_day_deltas (day, dimension, key, count, amount_paise, other_paise)
  SELECT day, dimension, key, sum(count), sum(amount), sum(other) FROM (
    SELECT order_indian_day(n.created_at) AS day, d.dimension, d.key, 1 AS count, n.total_paise::bigint AS amount,
      d.other::bigint AS other
    FROM new_rows n CROSS JOIN LATERAL (VALUES ('state', n.ship_state, 0), ('payment', n.payment_method, 0),
      ('code', n.discount_code, n.discount_paise)) AS d(dimension, key, other)
    WHERE order_is_sale(n.status) AND d.key IS NOT NULL
    UNION ALL
    SELECT order_indian_day(o.created_at), d.dimension, d.key, -1, -o.total_paise, -d.other
    FROM old_rows o CROSS JOIN LATERAL (VALUES ('state', o.ship_state, 0), ('payment', o.payment_method, 0),
      ('code', o.discount_code, o.discount_paise)) AS d(dimension, key, other)
    WHERE order_is_sale(o.status) AND d.key IS NOT NULL
  ) AS changes GROUP BY 1, 2, 3 HAVING sum(count) <> 0 OR sum(amount) <> 0 OR sum(other) <> 0;
  -- An order that becomes a sale brings its lines in, one that stops being one takes them out, and one whose
  -- day changes moves them.
  INSERT INTO sales_day_deltas (day, dimension, key, name, count, units, amount_paise)
  SELECT c.day, l.kind, l.item_id, l.name, sum(c.sign), sum(c.sign * l.quantity), sum(c.sign * l.line_total_paise)
  FROM (
    SELECT n.id, order_indian_day(n.created_at) AS day, 1 AS sign FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE order_is_sale(n.status)
      AND NOT (order_is_sale(o.status) AND order_indian_day(o.created_at) = order_indian_day(n.created_at))
    UNION ALL
    SELECT o.id, order_indian_day(o.created_at), -1 FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE order_is_sale(o.status)
      AND NOT (order_is_sale(n.status) AND order_indian_day(o.created_at) = order_indian_day(n.created_at))
  ) AS c JOIN order_lines l ON l.order_id = c.id
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "sales_deltas_on_orders_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sales_day_deltas (day, dimension, key, count, amount_paise, other_paise)
  SELECT order_indian_day(o.created_at), d.dimension, d.key, -count(*), -sum(o.total_paise), -sum(d.other)
  FROM old_rows o CROSS JOIN LATERAL (VALUES ('state', o.ship_state, 0), ('payment', o.payment_method, 0),
    ('code', o.discount_code, o.discount_paise)) AS d(dimension, key, other)
  WHERE order_is_sale(o.status) AND d.key IS NOT NULL GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A deleted sale order's lines leave with it: counted out before the cascade removes them (the lines' own
-- trigger then finds no order and counts nothing).
CREATE FUNCTION "sales_deltas_on_order_delete_lines"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF order_is_sale(OLD.status) THEN
    INSERT INTO sales_day_deltas (day, dimension, key, name, count, units, amount_paise)
    SELECT order_indian_day(OLD.created_at), l.kind, l.item_id, l.name, -count(*), -sum(l.quantity),
      -sum(l.line_total_paise)
    FROM order_lines l WHERE l.order_id = OLD.id GROUP BY 1, 2, 3, 4;
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE FUNCTION "sales_deltas_on_lines_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO sales_day_deltas (day, dimension, key, name, count, units, amount_paise)
    SELECT order_indian_day(o.created_at), l.kind, l.item_id, l.name, -count(*), -sum(l.quantity),
      -sum(l.line_total_paise)
    FROM old_lines l JOIN orders o ON o.id = l.order_id WHERE order_is_sale(o.status) GROUP BY 1, 2, 3, 4;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO sales_day_deltas (day, dimension, key, name, count, units, amount_paise)
    SELECT order_indian_day(o.created_at), l.kind, l.item_id, l.name, count(*), sum(l.quantity),
      sum(l.line_total_paise)
    FROM new_lines l JOIN orders o ON o.id = l.order_id WHERE order_is_sale(o.status) GROUP BY 1, 2, 3, 4;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "sales_deltas_on_documents_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO sales_day_deltas (day, dimension, key, count, amount_paise, other_paise)
    SELECT order_indian_day(issued_at), kind, '', -count(*), -sum(taxable_paise), -sum(total_paise)
    FROM old_documents GROUP BY 1, 2;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO sales_day_deltas (day, dimension, key, count, amount_paise, other_paise)
    SELECT order_indian_day(issued_at), kind, '', count(*), sum(taxable_paise), sum(total_paise)
    FROM new_documents GROUP BY 1, 2;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "sales_deltas_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'tax_documents' THEN
    DELETE FROM sales_day_deltas WHERE dimension IN ('invoice', 'credit_note');
  ELSE
    DELETE FROM sales_day_deltas WHERE dimension NOT IN ('invoice', 'credit_note');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_sales_deltas_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_orders_insert();--> statement-breakpoint
CREATE TRIGGER "orders_sales_deltas_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_orders_update();--> statement-breakpoint
CREATE TRIGGER "orders_sales_deltas_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_orders_delete();--> statement-breakpoint
CREATE TRIGGER "orders_sales_deltas_delete_lines" BEFORE DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION sales_deltas_on_order_delete_lines();--> statement-breakpoint
CREATE TRIGGER "orders_sales_deltas_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_truncate();--> statement-breakpoint
CREATE TRIGGER "order_lines_sales_deltas_insert" AFTER INSERT ON "order_lines" REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_lines_change();--> statement-breakpoint
CREATE TRIGGER "order_lines_sales_deltas_update" AFTER UPDATE ON "order_lines" REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_lines_change();--> statement-breakpoint
CREATE TRIGGER "order_lines_sales_deltas_delete" AFTER DELETE ON "order_lines" REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_lines_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_sales_deltas_insert" AFTER INSERT ON "tax_documents" REFERENCING NEW TABLE AS new_documents FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_sales_deltas_update" AFTER UPDATE ON "tax_documents" REFERENCING OLD TABLE AS old_documents NEW TABLE AS new_documents FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_sales_deltas_delete" AFTER DELETE ON "tax_documents" REFERENCING OLD TABLE AS old_documents FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_sales_deltas_truncate" AFTER TRUNCATE ON "tax_documents" FOR EACH STATEMENT EXECUTE FUNCTION sales_deltas_on_truncate();--> statement-breakpoint
-- Backfill: the shop's sales so far, one row per day and key.
INSERT INTO "sales_day_deltas" ("day", "dimension", "key", "count", "amount_paise", "other_paise")
SELECT order_indian_day(o.created_at), d.dimension, d.key, count(*), sum(o.total_paise), sum(d.other)
FROM "orders" o CROSS JOIN LATERAL (VALUES ('state', o.ship_state, 0), ('payment', o.payment_method, 0),
  ('code', o.discount_code, o.discount_paise)) AS d(dimension, key, other)
WHERE order_is_sale(o.status) AND d.key IS NOT NULL GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "sales_day_deltas" ("day", "dimension", "key", "name", "count", "units", "amount_paise")
SELECT order_indian_day(o.created_at), l.kind, l.item_id, l.name, count(*), sum(l.quantity), sum(l.line_total_paise)
FROM "order_lines" l JOIN "orders" o ON o.id = l.order_id WHERE order_is_sale(o.status) GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "sales_day_deltas" ("day", "dimension", "key", "count", "amount_paise", "other_paise")
SELECT order_indian_day(issued_at), kind, '', count(*), sum(taxable_paise), sum(total_paise)
FROM "tax_documents" GROUP BY 1, 2;
--> statement-breakpoint
-- After the order (issue 44): the parcels shipped in a period, with the state and PIN their returns to origin
-- are grouped by, read from the index rather than from every order.
CREATE INDEX "orders_shipped_at_idx" ON "orders" USING btree ("shipped_at") INCLUDE ("ship_state", "ship_pin") WHERE "shipped_at" IS NOT NULL;--> statement-breakpoint
-- Carts won back: a reminded guest's orders by the e-mail as the report compares it (lower-cased), so the
-- account's index and this one answer each cart instead of a walk through the orders.
CREATE INDEX "orders_guest_email_lower_idx" ON "orders" USING btree (lower("guest_email"), "created_at") WHERE "guest_email" IS NOT NULL;
--> statement-breakpoint
-- The ledger's check (money_adds_up, decision 091) sums each payment's refunds by payment id; only unapplied
-- refunds had an index, so every check walked the whole ledger (at a million orders, filling the five-year shop
-- never finished its commit). The refunds by payment id, from this index.
CREATE INDEX "money_ledger_refunds_payment_idx" ON "money_ledger" USING btree ("razorpay_payment_id") WHERE "kind" = 'online_refund';
