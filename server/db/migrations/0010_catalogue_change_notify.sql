-- Every change to what the public catalogue shows is announced on the channel catalogue_changed, from inside
-- the transaction that makes it, so it is delivered to every instance's listener exactly when it commits
-- (and not at all when it rolls back). Triggers catch every writer: the API, the seed, scripts and psql alike.
CREATE FUNCTION notify_catalogue_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Shoppers only learn whether an item is in stock, so an order taking one of forty leaves every cached answer
-- right: an update notifies only when the item runs out, comes back, or a column other than stock changes.
-- This also keeps pg_notify (which serialises committing transactions on a queue lock) off most orders.
CREATE FUNCTION notify_catalogue_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.stock > 0) = (NEW.stock > 0)
     AND (to_jsonb(OLD) - 'stock' - 'updated_at') = (to_jsonb(NEW) - 'stock' - 'updated_at') THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('catalogue_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_catalogue_rows AFTER INSERT OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER products_catalogue_update AFTER UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION notify_catalogue_row_change();
--> statement-breakpoint
CREATE TRIGGER combos_catalogue_rows AFTER INSERT OR DELETE OR TRUNCATE ON combos
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER combos_catalogue_update AFTER UPDATE ON combos
  FOR EACH ROW EXECUTE FUNCTION notify_catalogue_row_change();
--> statement-breakpoint
-- A product's rating and review count include its approved reviews: only those change the catalogue.
CREATE TRIGGER reviews_catalogue_insert AFTER INSERT ON reviews
  FOR EACH ROW WHEN (NEW.status = 'approved') EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER reviews_catalogue_delete AFTER DELETE ON reviews
  FOR EACH ROW WHEN (OLD.status = 'approved') EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER reviews_catalogue_update AFTER UPDATE ON reviews
  FOR EACH ROW WHEN ((OLD.status = 'approved' OR NEW.status = 'approved')
    AND (OLD.status, OLD.rating, OLD.product_slug) IS DISTINCT FROM (NEW.status, NEW.rating, NEW.product_slug))
  EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER reviews_catalogue_truncate AFTER TRUNCATE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
