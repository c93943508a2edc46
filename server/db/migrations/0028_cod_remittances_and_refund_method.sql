CREATE TABLE "cod_remittances" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cod_remittances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"collected_on" date NOT NULL,
	"reference" text NOT NULL,
	"source" text NOT NULL,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cod_remittances_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "cod_remittances_amount_positive" CHECK ("cod_remittances"."amount_paise" > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_method" text;--> statement-breakpoint
ALTER TABLE "cod_remittances" ADD CONSTRAINT "cod_remittances_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_remittances" ADD CONSTRAINT "cod_remittances_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cod_remittances_collected_on_idx" ON "cod_remittances" USING btree ("collected_on");