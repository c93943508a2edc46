CREATE TABLE "cart_reminder_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"delay_minutes" integer DEFAULT 60 NOT NULL,
	"second_reminder" boolean DEFAULT false NOT NULL,
	"code_percent" integer DEFAULT 0 NOT NULL,
	"code_days" integer DEFAULT 3 NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_reminder_settings_one_row" CHECK ("cart_reminder_settings"."id" = 1),
	CONSTRAINT "cart_reminder_settings_delay" CHECK ("cart_reminder_settings"."delay_minutes" between 15 and 4320),
	CONSTRAINT "cart_reminder_settings_code" CHECK ("cart_reminder_settings"."code_percent" between 0 and 50),
	CONSTRAINT "cart_reminder_settings_days" CHECK ("cart_reminder_settings"."code_days" between 1 and 30)
);
--> statement-breakpoint
CREATE TABLE "left_carts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"user_id" text,
	"email" text,
	"mobile" text,
	"items" jsonb,
	"touched_at" timestamp with time zone NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"first_reminded_at" timestamp with time zone,
	"last_reminded_at" timestamp with time zone,
	"discount_code" text,
	"closed_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "left_carts_reminders" CHECK ("left_carts"."reminders_sent" between 0 and 2)
);
--> statement-breakpoint
CREATE TABLE "marketing_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"user_id" text,
	"consented" boolean NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "reserved_for" text;--> statement-breakpoint
ALTER TABLE "cart_reminder_settings" ADD CONSTRAINT "cart_reminder_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "left_carts" ADD CONSTRAINT "left_carts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "left_carts" ADD CONSTRAINT "left_carts_discount_code_discount_codes_code_fk" FOREIGN KEY ("discount_code") REFERENCES "public"."discount_codes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketing_consents" ADD CONSTRAINT "marketing_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "left_carts_one_waiting" ON "left_carts" USING btree ("subject") WHERE "left_carts"."reminders_sent" = 0 and "left_carts"."closed_reason" is null;--> statement-breakpoint
CREATE INDEX "left_carts_subject_touched_at" ON "left_carts" USING btree ("subject","touched_at");--> statement-breakpoint
CREATE INDEX "left_carts_touched_at" ON "left_carts" USING btree ("touched_at");--> statement-breakpoint
CREATE INDEX "marketing_consents_email_created_at" ON "marketing_consents" USING btree ("email","created_at");