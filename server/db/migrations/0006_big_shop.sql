CREATE TABLE "order_status_deltas" (
	"status" text NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_status_idx";--> statement-breakpoint
DROP INDEX "orders_created_at_idx";--> statement-breakpoint
CREATE INDEX "orders_status_created_at_id_idx" ON "orders" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_ship_phone_idx" ON "orders" USING btree ("ship_phone");--> statement-breakpoint
-- Hand-written: what drizzle-kit cannot express. Trusted extension since PostgreSQL 13, shipped with embedded-postgres.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- Lists page by (created_at, id); status and total ride along so the dashboard's day sums read the index only.
CREATE INDEX "orders_created_at_id_idx" ON "orders" USING btree ("created_at","id") INCLUDE ("status","total_paise");--> statement-breakpoint
-- Partial search (part of a number, name, mobile, PIN or city): one trigram index over the searched fields.
-- The expression must stay identical to ORDER_SEARCH_TEXT in server/orders/admin-orders.data.ts.
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin (("number" || ' ' || "ship_name" || ' ' || "ship_phone" || ' ' || "ship_pin" || ' ' || "ship_city") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
-- Status counts kept as deltas by statement triggers: one row per status and statement, whatever its size.
CREATE FUNCTION "order_status_deltas_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_status_deltas (status, delta) SELECT status, count(*) FROM new_rows GROUP BY status;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_status_deltas_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_status_deltas (status, delta)
  SELECT status, sum(delta) FROM (
    SELECT n.status, 1 AS delta FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status <> o.status
    UNION ALL
    SELECT o.status, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status <> o.status
  ) AS changes GROUP BY status;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_status_deltas_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_status_deltas (status, delta) SELECT status, -count(*) FROM old_rows GROUP BY status;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_status_deltas_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_status_deltas;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_status_deltas_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_status_deltas_on_insert();--> statement-breakpoint
CREATE TRIGGER "orders_status_deltas_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_status_deltas_on_update();--> statement-breakpoint
CREATE TRIGGER "orders_status_deltas_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_status_deltas_on_delete();--> statement-breakpoint
CREATE TRIGGER "orders_status_deltas_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION order_status_deltas_on_truncate();--> statement-breakpoint
INSERT INTO "order_status_deltas" ("status", "delta") SELECT "status", count(*) FROM "orders" GROUP BY "status";
