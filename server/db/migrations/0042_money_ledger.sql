CREATE TABLE "money_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "money_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"applied" boolean DEFAULT true NOT NULL,
	"razorpay_order_id" text,
	"razorpay_payment_id" text,
	"razorpay_refund_id" text,
	"reference" text,
	"recorded_by" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "money_ledger_razorpay_refund_id_unique" UNIQUE("razorpay_refund_id"),
	CONSTRAINT "money_ledger_amount_positive" CHECK ("money_ledger"."amount_paise" > 0),
	CONSTRAINT "money_ledger_online_ids" CHECK (("money_ledger"."kind" not in ('online_payment', 'online_refund')) or "money_ledger"."razorpay_payment_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "razorpay_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"purpose" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_reason" text,
	CONSTRAINT "razorpay_orders_amount_positive" CHECK ("razorpay_orders"."amount_paise" > 0)
);
--> statement-breakpoint
ALTER TABLE "money_ledger" ADD CONSTRAINT "money_ledger_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_ledger" ADD CONSTRAINT "money_ledger_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "razorpay_orders" ADD CONSTRAINT "razorpay_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_ledger_order_id_idx" ON "money_ledger" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "money_ledger_created_at_idx" ON "money_ledger" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "money_ledger_one_capture" ON "money_ledger" USING btree ("razorpay_payment_id") WHERE "money_ledger"."kind" = 'online_payment';--> statement-breakpoint
CREATE UNIQUE INDEX "money_ledger_one_unapplied_refund" ON "money_ledger" USING btree ("razorpay_payment_id") WHERE "money_ledger"."kind" = 'online_refund' and not "money_ledger"."applied";--> statement-breakpoint
CREATE INDEX "razorpay_orders_order_id_idx" ON "razorpay_orders" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "money_ledger" ADD CONSTRAINT "money_ledger_kind" CHECK ("kind" in ('online_payment', 'online_refund', 'cash_collected', 'cash_refund', 'cod_remittance', 'courier_charge'));--> statement-breakpoint
ALTER TABLE "razorpay_orders" ADD CONSTRAINT "razorpay_orders_purpose" CHECK ("purpose" in ('checkout', 'switch'));--> statement-breakpoint
-- The Razorpay orders made before this migration: a switch's from its row, Checkout's at the order's total.
INSERT INTO "razorpay_orders" ("id", "order_id", "purpose", "amount_paise", "created_at")
  SELECT "razorpay_order_id", "order_id", 'switch', "total_paise", "created_at" FROM "cod_payment_switches" WHERE "total_paise" > 0;--> statement-breakpoint
INSERT INTO "razorpay_orders" ("id", "order_id", "purpose", "amount_paise", "created_at")
  SELECT o."razorpay_order_id", o."id", 'checkout', o."total_paise", o."created_at" FROM "orders" o
  WHERE o."razorpay_order_id" IS NOT NULL AND o."total_paise" > 0
    AND NOT EXISTS (SELECT 1 FROM "razorpay_orders" r WHERE r."id" = o."razorpay_order_id");--> statement-breakpoint
-- The money already moved, as the orders recorded it: a payment at the order's total (applied when the order is
-- paid online, else a payment still to refund), refunds, cash collected at delivery, remittances, RTO charges.
INSERT INTO "money_ledger" ("order_id", "kind", "amount_paise", "applied", "razorpay_order_id", "razorpay_payment_id", "note", "created_at")
  SELECT "id", 'online_payment', "total_paise", "payment_method" = 'razorpay', "razorpay_order_id", "razorpay_payment_id",
    'Recorded from the order when the ledger began', coalesce("paid_at", "created_at")
  FROM "orders" WHERE "razorpay_payment_id" IS NOT NULL AND "total_paise" > 0;--> statement-breakpoint
INSERT INTO "money_ledger" ("order_id", "kind", "amount_paise", "applied", "razorpay_payment_id", "razorpay_refund_id", "note", "created_at")
  SELECT "id", 'online_refund', "total_paise", true, "razorpay_payment_id", "refund_reference",
    'Recorded from the order when the ledger began', "updated_at"
  FROM "orders" WHERE "status" = 'refunded' AND "payment_method" = 'razorpay' AND "razorpay_payment_id" IS NOT NULL AND "total_paise" > 0;--> statement-breakpoint
INSERT INTO "money_ledger" ("order_id", "kind", "amount_paise", "note", "created_at")
  SELECT "id", 'cash_collected', "total_paise", 'Recorded from the order when the ledger began', "delivered_at"
  FROM "orders" WHERE "payment_method" = 'cod' AND "delivered_at" IS NOT NULL AND "total_paise" > 0;--> statement-breakpoint
INSERT INTO "money_ledger" ("order_id", "kind", "amount_paise", "reference", "note", "created_at")
  SELECT "id", 'cash_refund', "total_paise", "refund_reference", 'Recorded from the order when the ledger began', "updated_at"
  FROM "orders" WHERE "payment_method" = 'cod' AND "status" = 'refunded' AND "total_paise" > 0;--> statement-breakpoint
INSERT INTO "money_ledger" ("order_id", "kind", "amount_paise", "reference", "recorded_by", "note", "created_at")
  SELECT "order_id", 'cod_remittance', "amount_paise", "reference", "recorded_by", 'Recorded from the remittance when the ledger began', "created_at"
  FROM "cod_remittances";--> statement-breakpoint
INSERT INTO "money_ledger" ("order_id", "kind", "amount_paise", "recorded_by", "note", "created_at")
  SELECT "order_id", 'courier_charge', "forward_paise" + "return_paise", "recorded_by", 'Return to origin, both ways', "recorded_at"
  FROM "order_rto" WHERE "forward_paise" + "return_paise" > 0;--> statement-breakpoint
-- The invariant, checked at every commit that touches an order's money (docs/decisions/075): what was paid online
-- and not refunded is the order's total while it stands paid online, and nothing otherwise; no payment is refunded
-- beyond what it captured; cash collected is none or the whole amount the courier was to collect.
CREATE FUNCTION "money_adds_up"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text;
  o record;
  net_online bigint;
  cash bigint;
  expected bigint;
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    target := NEW.id;
  ELSE
    target := NEW.order_id;
  END IF;
  SELECT "number", "status", "payment_method", "paid_at", "total_paise" INTO o FROM "orders" WHERE "id" = target;
  SELECT
    coalesce(sum(CASE "kind" WHEN 'online_payment' THEN "amount_paise" WHEN 'online_refund' THEN -"amount_paise" END) FILTER (WHERE "applied"), 0),
    coalesce(sum("amount_paise") FILTER (WHERE "kind" = 'cash_collected'), 0)
  INTO net_online, cash
  FROM "money_ledger" WHERE "order_id" = target;
  expected := CASE WHEN o."payment_method" = 'razorpay' AND o."paid_at" IS NOT NULL AND o."status" <> 'refunded' THEN o."total_paise" ELSE 0 END;
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
CREATE CONSTRAINT TRIGGER "orders_money_adds_up" AFTER UPDATE OF "status", "payment_method", "paid_at", "total_paise" ON "orders"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "money_adds_up"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "money_ledger_adds_up" AFTER INSERT OR UPDATE ON "money_ledger"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "money_adds_up"();
