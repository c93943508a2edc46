CREATE TABLE "cod_place_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cod_place_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"max_paise" integer,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cod_place_rules_kind" CHECK ("cod_place_rules"."kind" in ('pin', 'district', 'state')),
	CONSTRAINT "cod_place_rules_max" CHECK (coalesce("cod_place_rules"."max_paise", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "cod_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"max_order_paise" integer DEFAULT 500000 NOT NULL,
	"first_order_max_paise" integer,
	"prepaid_only_after_rtos" integer,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cod_settings_one_row" CHECK ("cod_settings"."id" = 1),
	CONSTRAINT "cod_settings_amounts" CHECK ("cod_settings"."max_order_paise" >= 0 and coalesce("cod_settings"."first_order_max_paise", 0) >= 0 and coalesce("cod_settings"."prepaid_only_after_rtos", 1) >= 1)
);
--> statement-breakpoint
CREATE TABLE "order_rto" (
	"order_id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"forward_paise" integer NOT NULL,
	"return_paise" integer NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" text,
	"received_at" timestamp with time zone,
	"received_by" text,
	CONSTRAINT "order_rto_costs" CHECK ("order_rto"."forward_paise" >= 0 and "order_rto"."return_paise" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cod_settings" ADD CONSTRAINT "cod_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_rto" ADD CONSTRAINT "order_rto_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_rto" ADD CONSTRAINT "order_rto_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_rto" ADD CONSTRAINT "order_rto_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cod_place_rules_kind_value" ON "cod_place_rules" USING btree ("kind",lower("value"));--> statement-breakpoint
CREATE INDEX "order_rto_recorded_at_idx" ON "order_rto" USING btree ("recorded_at");--> statement-breakpoint
INSERT INTO "cod_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Checkout reads the COD rules from the catalogue's memory: a change is announced like the catalogue's
-- (migration 0010), so every instance forgets its copy when the owner's change commits.
CREATE TRIGGER cod_settings_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cod_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER cod_place_rules_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cod_place_rules
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
