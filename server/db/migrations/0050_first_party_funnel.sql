CREATE TABLE "funnel_days" (
	"day" date NOT NULL,
	"step" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "funnel_days_day_step_pk" PRIMARY KEY("day","step"),
	CONSTRAINT "funnel_days_sessions" CHECK ("funnel_days"."sessions" >= 0)
);
--> statement-breakpoint
CREATE TABLE "funnel_orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"visitor" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funnel_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funnel_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"counting" boolean DEFAULT true NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "funnel_settings_one_row" CHECK ("funnel_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "funnel_visits" (
	"day" date NOT NULL,
	"step" text NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "funnel_visits_day_step_visitor_pk" PRIMARY KEY("day","step","visitor"),
	CONSTRAINT "funnel_visits_step" CHECK ("funnel_visits"."step" in ('viewed', 'added', 'checkout', 'ordered'))
);
--> statement-breakpoint
ALTER TABLE "funnel_settings" ADD CONSTRAINT "funnel_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnel_orders_day_idx" ON "funnel_orders" USING btree ("day");