ALTER TABLE "discount_codes" ADD COLUMN "uses_per_customer" integer DEFAULT 1;--> statement-breakpoint
ALTER TABLE "discount_uses" ADD COLUMN "use_number" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "guest_discount_uses" ADD COLUMN "use_number" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_uses" DROP CONSTRAINT "discount_uses_user_id_code_pk";--> statement-breakpoint
ALTER TABLE "guest_discount_uses" DROP CONSTRAINT "guest_discount_uses_code_contact_pk";--> statement-breakpoint
ALTER TABLE "discount_uses" ADD CONSTRAINT "discount_uses_user_id_code_use_number_pk" PRIMARY KEY("user_id","code","use_number");--> statement-breakpoint
ALTER TABLE "guest_discount_uses" ADD CONSTRAINT "guest_discount_uses_code_contact_use_number_pk" PRIMARY KEY("code","contact","use_number");--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_uses_per_customer" CHECK ("discount_codes"."uses_per_customer" is null or "discount_codes"."uses_per_customer" >= 1);

--> statement-breakpoint
ALTER TABLE "combos" ADD COLUMN "picture" text;