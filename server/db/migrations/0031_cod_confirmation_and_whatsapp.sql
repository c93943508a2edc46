CREATE TABLE "cod_confirmation_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"confirm_hours" integer NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_replies" (
	"message_id" text PRIMARY KEY NOT NULL,
	"order_id" text,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cod_confirm_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "whatsapp_updates" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cod_confirmation_settings" ADD CONSTRAINT "cod_confirmation_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_replies" ADD CONSTRAINT "whatsapp_replies_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_cod_confirm_by_idx" ON "orders" USING btree ("cod_confirm_by") WHERE "orders"."status" = 'placed' and "orders"."cod_confirm_by" is not null;