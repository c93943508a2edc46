CREATE TABLE "analytics_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"staff_see_sales" boolean DEFAULT false NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_settings_one_row" CHECK ("analytics_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Hand-written (drizzle-kit cannot say INCLUDE): the admin home's figures (docs/decisions/080). The sale orders
-- of a period, with what the sales figures group by, read from the index without visiting the table.
CREATE INDEX "orders_sales_created_at_idx" ON "orders" USING btree ("created_at") INCLUDE ("total_paise", "payment_method", "user_id", "guest_email", "discount_code", "discount_paise", "ship_state") WHERE order_is_sale("status");--> statement-breakpoint
-- Cash on delivery delivered and not yet counted as collected: the work list's "cash expected".
CREATE INDEX "orders_cod_delivered_idx" ON "orders" USING btree ("delivered_at") WHERE "payment_method" = 'cod' AND "delivered_at" IS NOT NULL;--> statement-breakpoint
-- Parcels returned to origin and not yet received back: "coming back" and "to receive".
CREATE INDEX "order_rto_not_received_idx" ON "order_rto" USING btree ("order_id") WHERE "received_at" IS NULL;--> statement-breakpoint
-- Refunds by day: the moves to "refunded" in a period.
CREATE INDEX "order_events_refunded_created_at_idx" ON "order_events" USING btree ("created_at") WHERE "to_status" = 'refunded' AND "kind" = 'status';
