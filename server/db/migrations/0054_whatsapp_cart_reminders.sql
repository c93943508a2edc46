ALTER TABLE "marketing_consents" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "left_carts" ADD COLUMN "whatsapp_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "left_carts" ADD COLUMN "whatsapp_message_id" text;--> statement-breakpoint
ALTER TABLE "left_carts" ADD COLUMN "whatsapp_refused" text;--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD COLUMN "mobile" text;--> statement-breakpoint
CREATE INDEX "marketing_consents_mobile_created_at" ON "marketing_consents" USING btree ("mobile","created_at");--> statement-breakpoint
CREATE INDEX "marketing_consents_user_channel" ON "marketing_consents" USING btree ("user_id","channel","created_at");--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD CONSTRAINT "marketing_consents_address" CHECK (("marketing_consents"."channel" = 'email' and "marketing_consents"."email" is not null) or ("marketing_consents"."channel" = 'whatsapp' and "marketing_consents"."mobile" ~ '^[6-9][0-9]{9}$'));