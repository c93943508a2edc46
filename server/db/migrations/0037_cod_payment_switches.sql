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
ALTER TABLE "cod_payment_switches" ADD CONSTRAINT "cod_payment_switches_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;