CREATE TABLE "order_day_deltas" (
	"day" date NOT NULL,
	"orders" integer NOT NULL,
	"revenue_paise" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_status_deltas" (
	"status" text NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_created_at_idx";--> statement-breakpoint
CREATE INDEX "order_day_deltas_day_idx" ON "order_day_deltas" USING btree ("day");--> statement-breakpoint
CREATE INDEX "orders_created_at_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_status_created_at_id_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_ship_phone_idx" ON "orders" USING btree ("ship_phone","created_at","id");--> statement-breakpoint
-- Hand-written: what drizzle-kit cannot express. Trusted extension since PostgreSQL 13, shipped with embedded-postgres.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- Partial search (part of a number, name, mobile, PIN or city): one trigram index over the searched fields.
-- The expression must stay identical to searchText in server/orders/admin-orders.data.ts.
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin (("number" || ' ' || "ship_name" || ' ' || "ship_phone" || ' ' || "ship_pin" || ' ' || "ship_city") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- Status counts and daily sales kept as deltas by statement triggers: a few rows per statement, whatever its
-- size, only ever inserted (no counter row for concurrent orders to queue on); readers sum them. The sale
-- statuses must stay those of SALE_STATUSES in common/order-lifecycle.ts.
CREATE FUNCTION "order_is_sale"(status text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT status IN ('placed', 'confirmed', 'packed', 'shipped', 'delivered', 'return_requested')
$$;--> statement-breakpoint
CREATE FUNCTION "order_indian_day"(placed timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (placed AT TIME ZONE 'Asia/Kolkata')::date
$$;--> statement-breakpoint
CREATE FUNCTION "order_deltas_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_status_deltas (status, delta) SELECT status, count(*) FROM new_rows GROUP BY status;
  INSERT INTO order_day_deltas (day, orders, revenue_paise)
  SELECT order_indian_day(created_at), count(*), sum(total_paise) FROM new_rows
  WHERE order_is_sale(status) GROUP BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_deltas_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_status_deltas (status, delta)
  SELECT status, sum(delta) FROM (
    SELECT n.status, 1 AS delta FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status <> o.status
    UNION ALL
    SELECT o.status, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status <> o.status
  ) AS changes GROUP BY status;
  INSERT INTO order_day_deltas (day, orders, revenue_paise)
  SELECT day, sum(orders), sum(revenue) FROM (
    SELECT order_indian_day(created_at) AS day, 1 AS orders, total_paise::bigint AS revenue FROM new_rows
    WHERE order_is_sale(status)
    UNION ALL
    SELECT order_indian_day(created_at), -1, -total_paise FROM old_rows WHERE order_is_sale(status)
  ) AS changes GROUP BY day HAVING sum(orders) <> 0 OR sum(revenue) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_deltas_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_status_deltas (status, delta) SELECT status, -count(*) FROM old_rows GROUP BY status;
  INSERT INTO order_day_deltas (day, orders, revenue_paise)
  SELECT order_indian_day(created_at), -count(*), -sum(total_paise) FROM old_rows
  WHERE order_is_sale(status) GROUP BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_deltas_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_status_deltas;
  DELETE FROM order_day_deltas;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_deltas_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_deltas_on_insert();--> statement-breakpoint
CREATE TRIGGER "orders_deltas_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_deltas_on_update();--> statement-breakpoint
CREATE TRIGGER "orders_deltas_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_deltas_on_delete();--> statement-breakpoint
CREATE TRIGGER "orders_deltas_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION order_deltas_on_truncate();--> statement-breakpoint
INSERT INTO "order_status_deltas" ("status", "delta") SELECT "status", count(*) FROM "orders" GROUP BY "status";--> statement-breakpoint
INSERT INTO "order_day_deltas" ("day", "orders", "revenue_paise")
SELECT order_indian_day("created_at"), count(*), sum("total_paise") FROM "orders" WHERE order_is_sale("status") GROUP BY 1;
