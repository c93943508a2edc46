CREATE TABLE "buyer_sales" (
	"order_id" text PRIMARY KEY NOT NULL,
	"buyer" text NOT NULL,
	"day" date NOT NULL,
	"previous_day" date,
	"rank" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cod_cash_awaited" (
	"order_id" text PRIMARY KEY NOT NULL,
	"delivered_at" timestamp with time zone NOT NULL,
	"total_paise" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders_awaiting_invoice" (
	"order_id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cod_cash_awaited" ADD CONSTRAINT "cod_cash_awaited_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders_awaiting_invoice" ADD CONSTRAINT "orders_awaiting_invoice_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipments_failed_deliveries_idx" ON "shipments" USING btree ("order_id") WHERE "shipments"."status" <> 'cancelled' and ("shipments"."ndr_state" = 'open' or ("shipments"."ndr_state" = 'reattempt_requested' and "shipments"."request_outcome" in ('asking', 'refused')));--> statement-breakpoint
CREATE INDEX "shipments_to_receive_idx" ON "shipments" USING btree ("order_id") WHERE "shipments"."status" = 'rto_delivered' and "shipments"."received_back_at" is null;--> statement-breakpoint
-- Hand-written (issue 44, docs/decisions/097): the invoices not issued and the cash still expected, kept by
-- statement triggers in the statement that changes what they depend on. The due statuses must stay
-- INVOICE_DUE_STATUSES in common/schemas/missed-invoices.ts.
CREATE FUNCTION "order_invoice_due"(status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status IN ('confirmed', 'packed', 'shipped', 'delivered', 'return_requested')
$$;--> statement-breakpoint
CREATE FUNCTION "work_sets_on_orders_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
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
END $$;--> statement-breakpoint
-- An invoice takes its order out of the set, and one taken away puts a due order back. The orders are locked
-- first (as an update of them would be), so an order changed at the same moment by another transaction is
-- seen as that transaction left it, whichever of the two commits first.
CREATE FUNCTION "work_sets_on_documents_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO orders_awaiting_invoice (order_id) SELECT id FROM orders WHERE order_invoice_due(status)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM 1 FROM orders o WHERE o.id IN (SELECT order_id FROM new_documents WHERE kind = 'invoice')
      ORDER BY o.id FOR NO KEY UPDATE;
    DELETE FROM orders_awaiting_invoice w USING new_documents d
    WHERE w.order_id = d.order_id AND d.kind = 'invoice';
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM 1 FROM orders o WHERE o.id IN (SELECT order_id FROM old_documents WHERE kind = 'invoice')
      ORDER BY o.id FOR NO KEY UPDATE;
    INSERT INTO orders_awaiting_invoice (order_id)
    SELECT o.id FROM orders o
    WHERE o.id IN (SELECT order_id FROM old_documents WHERE kind = 'invoice') AND order_invoice_due(o.status)
      AND NOT EXISTS (SELECT 1 FROM tax_documents d WHERE d.order_id = o.id AND d.kind = 'invoice')
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "work_sets_on_remittances_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO cod_cash_awaited (order_id, delivered_at, total_paise)
    SELECT id, delivered_at, total_paise FROM orders WHERE payment_method = 'cod' AND delivered_at IS NOT NULL
    ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM 1 FROM orders o WHERE o.id IN (SELECT order_id FROM new_remittances)
      ORDER BY o.id FOR NO KEY UPDATE;
    DELETE FROM cod_cash_awaited c USING new_remittances r WHERE c.order_id = r.order_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM 1 FROM orders o WHERE o.id IN (SELECT order_id FROM old_remittances)
      ORDER BY o.id FOR NO KEY UPDATE;
    INSERT INTO cod_cash_awaited (order_id, delivered_at, total_paise)
    SELECT o.id, o.delivered_at, o.total_paise FROM orders o
    WHERE o.id IN (SELECT order_id FROM old_remittances) AND o.payment_method = 'cod'
      AND o.delivered_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM cod_remittances r WHERE r.order_id = o.id)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_work_sets_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_orders_change();--> statement-breakpoint
CREATE TRIGGER "orders_work_sets_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_orders_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_work_sets_insert" AFTER INSERT ON "tax_documents" REFERENCING NEW TABLE AS new_documents FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_work_sets_update" AFTER UPDATE ON "tax_documents" REFERENCING OLD TABLE AS old_documents NEW TABLE AS new_documents FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_work_sets_delete" AFTER DELETE ON "tax_documents" REFERENCING OLD TABLE AS old_documents FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "tax_documents_work_sets_truncate" AFTER TRUNCATE ON "tax_documents" FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_documents_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_work_sets_insert" AFTER INSERT ON "cod_remittances" REFERENCING NEW TABLE AS new_remittances FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_remittances_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_work_sets_update" AFTER UPDATE ON "cod_remittances" REFERENCING OLD TABLE AS old_remittances NEW TABLE AS new_remittances FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_remittances_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_work_sets_delete" AFTER DELETE ON "cod_remittances" REFERENCING OLD TABLE AS old_remittances FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_remittances_change();--> statement-breakpoint
CREATE TRIGGER "cod_remittances_work_sets_truncate" AFTER TRUNCATE ON "cod_remittances" FOR EACH STATEMENT EXECUTE FUNCTION work_sets_on_remittances_change();--> statement-breakpoint
-- Backfill: what waits now.
INSERT INTO "orders_awaiting_invoice" ("order_id")
SELECT o.id FROM "orders" o WHERE order_invoice_due(o.status)
  AND NOT EXISTS (SELECT 1 FROM "tax_documents" d WHERE d.order_id = o.id AND d.kind = 'invoice');--> statement-breakpoint
INSERT INTO "cod_cash_awaited" ("order_id", "delivered_at", "total_paise")
SELECT o.id, o.delivered_at, o.total_paise FROM "orders" o WHERE o.payment_method = 'cod' AND o.delivered_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "cod_remittances" r WHERE r.order_id = o.id);
--> statement-breakpoint
-- New against returning customers (issue 44, docs/decisions/097): each sale order with its buyer's previous
-- sale, so a period's customers are read from its own rows. A buyer is the dashboard's: the account, else the
-- guest's e-mail, else the mobile (a guest's order carries no account, an account's order no guest e-mail).
CREATE FUNCTION "order_buyer"(user_id text, guest_email text, ship_phone text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(user_id, guest_email, ship_phone)
$$;--> statement-breakpoint
-- A buyer's sale orders, to work their sales out again when one changes.
CREATE INDEX "orders_buyer_sales_idx" ON "orders" USING btree (order_buyer("user_id", "guest_email", "ship_phone"), "created_at", "id") WHERE order_is_sale("status");--> statement-breakpoint
-- The buyers a statement touches (an order placed or deleted while a sale, one that starts or stops being a
-- sale, changes buyer or moves in time) have their sales worked out again from the orders. A buyer's changes
-- are taken one transaction at a time (an advisory lock per share of the buyers, held to the commit), so two
-- orders of one buyer placed at once each see the other once it is committed.
CREATE FUNCTION "buyer_sales_on_orders_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
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
CREATE TRIGGER "orders_buyer_sales_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION buyer_sales_on_orders_change();--> statement-breakpoint
CREATE TRIGGER "orders_buyer_sales_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION buyer_sales_on_orders_change();--> statement-breakpoint
CREATE TRIGGER "orders_buyer_sales_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION buyer_sales_on_orders_change();--> statement-breakpoint
CREATE TRIGGER "orders_buyer_sales_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION buyer_sales_on_orders_change();--> statement-breakpoint
-- Backfill: every sale so far, with its buyer's sale before it.
INSERT INTO "buyer_sales" ("order_id", "buyer", "day", "previous_day", "rank")
SELECT id, buyer, day, lag(day) OVER w, row_number() OVER w
FROM (
  SELECT o.id, order_buyer(o.user_id, o.guest_email, o.ship_phone) AS buyer,
    order_indian_day(o.created_at) AS day, o.created_at
  FROM "orders" o WHERE order_is_sale(o.status)
) AS sales
WINDOW w AS (PARTITION BY buyer ORDER BY created_at, id);
--> statement-breakpoint
-- The indexes after the backfill, each built in one sort. A period's rows, read from the index alone:
CREATE INDEX "buyer_sales_day_idx" ON "buyer_sales" USING btree ("day") INCLUDE ("previous_day", "rank");--> statement-breakpoint
CREATE INDEX "buyer_sales_buyer_idx" ON "buyer_sales" USING btree ("buyer");
