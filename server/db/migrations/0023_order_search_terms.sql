CREATE TABLE "order_search_terms" (
	"field" text NOT NULL,
	"term" text NOT NULL,
	CONSTRAINT "order_search_terms_field_term_pk" PRIMARY KEY("field","term")
);
--> statement-breakpoint
CREATE INDEX "orders_ship_name_created_at_id_idx" ON "orders" USING btree ("ship_name","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_ship_city_created_at_id_idx" ON "orders" USING btree ("ship_city","created_at","id");--> statement-breakpoint
-- Hand-written (docs/decisions/047): the terms' trigram index, the terms of the orders already placed, and the
-- triggers that add a new order's name and city. Inserting an existing term does nothing and takes no lock
-- another order waits on; a statement-level trigger adds a bulk insert's terms in one pass.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "order_search_terms_trgm_idx" ON "order_search_terms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
INSERT INTO "order_search_terms" ("field", "term")
SELECT 'name', "ship_name" FROM "orders" UNION SELECT 'city', "ship_city" FROM "orders"
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "order_search_terms_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_search_terms (field, term)
  SELECT 'name', ship_name FROM new_rows UNION SELECT 'city', ship_city FROM new_rows
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "order_search_terms_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_search_terms (field, term) VALUES ('name', NEW.ship_name), ('city', NEW.ship_city)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "orders_search_terms_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_search_terms_on_insert();--> statement-breakpoint
CREATE TRIGGER "orders_search_terms_update" AFTER UPDATE OF "ship_name", "ship_city" ON "orders"
  FOR EACH ROW WHEN (OLD.ship_name IS DISTINCT FROM NEW.ship_name OR OLD.ship_city IS DISTINCT FROM NEW.ship_city)
  EXECUTE FUNCTION order_search_terms_on_update();
