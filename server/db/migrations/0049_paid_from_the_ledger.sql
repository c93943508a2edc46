-- "Paid" is the ledger's alone (docs/decisions/091): an order is paid online when it has a capture applied to it,
-- and its payment is that capture. Migration 0042 recorded every stored payment in the ledger and its trigger has
-- held the two in step since, so the order's own copy goes, and the trigger checks the ledger against itself.
DROP TRIGGER "orders_money_adds_up" ON "orders";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "money_adds_up"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text;
  o record;
  paid boolean;
  net_online bigint;
  cash bigint;
  expected bigint;
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    target := NEW.id;
  ELSE
    target := NEW.order_id;
  END IF;
  SELECT "number", "status", "payment_method", "total_paise" INTO o FROM "orders" WHERE "id" = target;
  SELECT
    coalesce(bool_or("kind" = 'online_payment' AND "applied"), false),
    coalesce(sum(CASE "kind" WHEN 'online_payment' THEN "amount_paise" WHEN 'online_refund' THEN -"amount_paise" END) FILTER (WHERE "applied"), 0),
    coalesce(sum("amount_paise") FILTER (WHERE "kind" = 'cash_collected'), 0)
  INTO paid, net_online, cash
  FROM "money_ledger" WHERE "order_id" = target;
  -- A capture applied to an order makes it an online order (a switch from cash on delivery changes the method in
  -- the same transaction); what it paid and has not had back is then the order's total, until it is refunded.
  expected := CASE WHEN paid AND o."status" <> 'refunded' THEN o."total_paise" ELSE 0 END;
  IF paid AND o."payment_method" <> 'razorpay' THEN
    RAISE EXCEPTION 'order %: a payment is applied to an order to be paid in cash', o."number"
      USING ERRCODE = '23514', CONSTRAINT = 'money_adds_up';
  END IF;
  IF net_online <> expected THEN
    RAISE EXCEPTION 'order %: % paise paid online and not refunded, % expected', o."number", net_online, expected
      USING ERRCODE = '23514', CONSTRAINT = 'money_adds_up';
  END IF;
  IF cash <> 0 AND (o."payment_method" <> 'cod' OR cash <> o."total_paise") THEN
    RAISE EXCEPTION 'order %: % paise of cash collected on a total of %', o."number", cash, o."total_paise"
      USING ERRCODE = '23514', CONSTRAINT = 'money_adds_up';
  END IF;
  IF EXISTS (
    SELECT 1 FROM "money_ledger" p
    WHERE p."order_id" = target AND p."kind" = 'online_payment'
      AND p."amount_paise" < (SELECT coalesce(sum(r."amount_paise"), 0) FROM "money_ledger" r
        WHERE r."kind" = 'online_refund' AND r."razorpay_payment_id" = p."razorpay_payment_id")
  ) THEN
    RAISE EXCEPTION 'order %: a payment is refunded beyond what it captured', o."number"
      USING ERRCODE = '23514', CONSTRAINT = 'money_adds_up';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "razorpay_payment_id";--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "paid_at";--> statement-breakpoint
-- Checked whenever what an order asks for or how it is paid changes, and whenever money moves (0042's trigger).
CREATE CONSTRAINT TRIGGER "orders_money_adds_up" AFTER UPDATE OF "status", "payment_method", "total_paise" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "money_adds_up"();
