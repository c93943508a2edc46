CREATE TABLE "refund_day_deltas" (
	"day" date NOT NULL,
	"way" text NOT NULL,
	"previous_day" date,
	"refunds" integer NOT NULL,
	"amount_paise" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "refund_day_deltas_day_idx" ON "refund_day_deltas" USING btree ("day");--> statement-breakpoint
-- Hand-written (issue 44, docs/decisions/094 "The refunds per day"). Each refund in `rows`, under its way and
-- under "all" (online and by hand), with the Indian day of the same order's refund of that way just before it
-- (by time, then id; null for the first): an order refunded on two days of a period has one refund there whose
-- previous refund is before the period or none, so a period counts it once.
CREATE FUNCTION "refund_day_rows"("rows" money_ledger[])
RETURNS TABLE ("day" date, "way" text, "previous_day" date, "amount_paise" bigint) LANGUAGE sql STABLE AS $$
  WITH refunds AS (
    SELECT l.id, l.order_id, l.created_at, l.amount_paise,
      CASE WHEN l.kind = 'cash_refund' THEN 'byHand' WHEN l.applied THEN 'online' ELSE 'latePayments' END AS way
    FROM unnest("rows") AS l WHERE l.kind IN ('online_refund', 'cash_refund')
  ), ways AS (
    SELECT id, order_id, created_at, amount_paise, way FROM refunds
    UNION ALL
    SELECT id, order_id, created_at, amount_paise, 'all' FROM refunds WHERE way <> 'latePayments'
  )
  SELECT order_indian_day(created_at), way,
    order_indian_day(lag(created_at) OVER (PARTITION BY order_id, way ORDER BY created_at, id)),
    amount_paise::bigint
  FROM ways
$$;--> statement-breakpoint
-- The refunds of the orders whose refunds a statement wrote, changed or removed: their rows now count for, their
-- rows before the statement (now's, less those it wrote, plus those it removed or changed) against. The orders
-- are locked first, in the order of their ids (as an update of them would lock them), so a refund written at the
-- same moment by another transaction is seen once it has committed, and each sees the other's rows.
CREATE FUNCTION "refund_day_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  order_ids text[];
  before money_ledger[];
  after money_ledger[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM refund_day_deltas;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT order_id) INTO order_ids FROM new_rows
     WHERE kind IN ('online_refund', 'cash_refund');
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT order_id) INTO order_ids FROM old_rows
     WHERE kind IN ('online_refund', 'cash_refund');
  ELSE
    SELECT array_agg(DISTINCT s.order_id) INTO order_ids
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      CROSS JOIN LATERAL (VALUES (n.order_id, n.kind), (o.order_id, o.kind)) AS s(order_id, kind)
     WHERE s.kind IN ('online_refund', 'cash_refund')
       AND (n.order_id, n.kind, n.applied, n.amount_paise, n.created_at)
           IS DISTINCT FROM (o.order_id, o.kind, o.applied, o.amount_paise, o.created_at);
  END IF;
  IF order_ids IS NULL THEN RETURN NULL; END IF;
  PERFORM 1 FROM orders WHERE id = ANY (order_ids) ORDER BY id FOR NO KEY UPDATE;
  after := ARRAY(SELECT l FROM money_ledger l
    WHERE l.order_id = ANY (order_ids) AND l.kind IN ('online_refund', 'cash_refund'));
  IF TG_OP = 'INSERT' THEN
    before := ARRAY(SELECT l FROM unnest(after) AS l WHERE l.id NOT IN (SELECT id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    before := after || ARRAY(SELECT o::money_ledger FROM old_rows o);
  ELSE
    before := ARRAY(SELECT l FROM unnest(after) AS l WHERE l.id NOT IN (SELECT id FROM new_rows))
      || ARRAY(SELECT o::money_ledger FROM old_rows o WHERE o.order_id = ANY (order_ids));
  END IF;
  INSERT INTO refund_day_deltas (day, way, previous_day, refunds, amount_paise)
  SELECT r.day, r.way, r.previous_day, sum(r.sign), sum(r.sign * r.amount_paise)
  FROM (
    SELECT 1 AS sign, * FROM refund_day_rows(after)
    UNION ALL
    SELECT -1, * FROM refund_day_rows(before)
  ) AS r
  GROUP BY r.day, r.way, r.previous_day
  HAVING sum(r.sign) <> 0 OR sum(r.sign * r.amount_paise) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "money_ledger_refund_deltas_insert" AFTER INSERT ON "money_ledger" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refund_day_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "money_ledger_refund_deltas_update" AFTER UPDATE ON "money_ledger" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION refund_day_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "money_ledger_refund_deltas_delete" AFTER DELETE ON "money_ledger" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION refund_day_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "money_ledger_refund_deltas_truncate" AFTER TRUNCATE ON "money_ledger" FOR EACH STATEMENT EXECUTE FUNCTION refund_day_deltas_on_change();--> statement-breakpoint
-- Backfill: every refund so far, one row per day, way and previous day.
INSERT INTO "refund_day_deltas" ("day", "way", "previous_day", "refunds", "amount_paise")
SELECT r.day, r.way, r.previous_day, count(*), sum(r.amount_paise)
FROM refund_day_rows(ARRAY(SELECT l FROM "money_ledger" l WHERE l.kind IN ('online_refund', 'cash_refund'))) AS r
GROUP BY r.day, r.way, r.previous_day;
