ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_not_negative";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_total_adds_up";--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_incentive" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_percent" integer;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_cap_paise" integer;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD COLUMN "prepaid_amount_paise" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prepaid_discount_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "prepaid_shipping_waived_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD CONSTRAINT "cod_settings_prepaid_incentive" CHECK (("cod_settings"."prepaid_incentive" = 'none' or "cod_settings"."prepaid_incentive" = 'free_shipping') or ("cod_settings"."prepaid_incentive" = 'percent' and "cod_settings"."prepaid_percent" between 1 and 50 and coalesce("cod_settings"."prepaid_cap_paise", 1) > 0) or ("cod_settings"."prepaid_incentive" = 'flat' and "cod_settings"."prepaid_amount_paise" > 0));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_not_negative" CHECK ("orders"."subtotal_paise" >= 0 and "orders"."discount_paise" >= 0 and "orders"."shipping_paise" >= 0 and "orders"."prepaid_discount_paise" >= 0 and "orders"."prepaid_shipping_waived_paise" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_total_adds_up" CHECK ("orders"."total_paise" = "orders"."subtotal_paise" - "orders"."discount_paise" - "orders"."prepaid_discount_paise" + "orders"."shipping_paise");