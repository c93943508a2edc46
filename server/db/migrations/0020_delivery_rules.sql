CREATE TABLE "delivery_rules" (
	"prefix" text PRIMARY KEY NOT NULL,
	"rule" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_rules_prefix" CHECK ("delivery_rules"."prefix" ~ '^[1-9][0-9]{0,5}$'),
	CONSTRAINT "delivery_rules_rule" CHECK ("delivery_rules"."rule" in ('not_served', 'no_cod', 'served'))
);
--> statement-breakpoint
ALTER TABLE "addresses" ADD COLUMN "district" text DEFAULT '' NOT NULL;