CREATE TABLE "cod_payment_switches" (
	"order_id" text PRIMARY KEY NOT NULL,
	"razorpay_order_id" text NOT NULL,
	"shipping_paise" integer NOT NULL,
	"prepaid_discount_paise" integer NOT NULL,
	"prepaid_shipping_waived_paise" integer NOT NULL,
	"total_paise" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cod_payment_switches_razorpay_order_id_unique" UNIQUE("razorpay_order_id"),
	CONSTRAINT "cod_payment_switches_amounts" CHECK ("cod_payment_switches"."shipping_paise" >= 0 and "cod_payment_switches"."prepaid_discount_paise" >= 0 and "cod_payment_switches"."prepaid_shipping_waived_paise" >= 0 and "cod_payment_switches"."total_paise" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_not_negative";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_adds_up";--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_incentive" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_percent" integer;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_cap_paise" integer;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_amount_paise" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prepaid_discount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prepaid_shipping_waived_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cod_payment_switches" ADD CONSTRAINT "cod_payment_switches_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD CONSTRAINT "cod_settings_prepaid_incentive" CHECK (("cod_settings"."prepaid_incentive" = 'none' or "cod_settings"."prepaid_incentive" = 'free_shipping') or ("cod_settings"."prepaid_incentive" = 'percent' and "cod_settings"."prepaid_percent" between 1 and 50 and coalesce("cod_settings"."prepaid_cap_paise", 1) > 0) or ("cod_settings"."prepaid_incentive" = 'flat' and "cod_settings"."prepaid_amount_paise" > 0));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_not_negative" CHECK ("orders"."subtotal_paise" >= 0 and "orders"."discount_paise" >= 0 and "orders"."shipping_paise" >= 0 and "orders"."prepaid_discount_paise" >= 0 and "orders"."prepaid_shipping_waived_paise" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_adds_up" CHECK ("orders"."total_paise" = "orders"."subtotal_paise" - "orders"."discount_paise" - "orders"."prepaid_discount_paise" + "orders"."shipping_paise");