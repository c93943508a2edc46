CREATE TABLE "whatsapp_messages" (
	"message_id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"error_code" integer,
	"error_title" text,
	"status_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "rto_charges_paise" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "cod_amount_paise" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "manifest_url" text;--> statement-breakpoint
ALTER TABLE "whatsapp_messages" ADD CONSTRAINT "whatsapp_messages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_messages_order_idx" ON "whatsapp_messages" USING btree ("order_id");