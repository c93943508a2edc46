ALTER TABLE "discount_codes" DROP CONSTRAINT "discount_codes_percent_range";--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "amount_off_paise" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "max_uses" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "times_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "discount_codes_created_at_code" ON "discount_codes" USING btree ("created_at","code");--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_kind" CHECK (("discount_codes"."percent" between 1 and 90 and "discount_codes"."amount_off_paise" = 0) or ("discount_codes"."percent" = 0 and "discount_codes"."amount_off_paise" > 0));--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_min_amount" CHECK ("discount_codes"."min_amount_paise" >= 0);--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_window" CHECK ("discount_codes"."starts_at" is null or "discount_codes"."ends_at" is null or "discount_codes"."ends_at" > "discount_codes"."starts_at");--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_uses" CHECK ("discount_codes"."times_used" >= 0 and ("discount_codes"."max_uses" is null or ("discount_codes"."max_uses" >= 1 and "discount_codes"."times_used" <= "discount_codes"."max_uses")));--> statement-breakpoint
UPDATE "discount_codes" SET "times_used" = (SELECT count(*) FROM "orders" WHERE "orders"."discount_code" = "discount_codes"."code");