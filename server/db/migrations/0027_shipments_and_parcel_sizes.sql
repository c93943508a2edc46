CREATE TABLE "shipment_scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"shipment_id" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"activity" text NOT NULL,
	"location" text NOT NULL,
	"status" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"service" text NOT NULL,
	"status" text NOT NULL,
	"aggregator_order_id" text,
	"aggregator_shipment_id" text,
	"awb" text,
	"courier_id" text,
	"courier_name" text,
	"label_url" text,
	"charges_paise" integer,
	"weight_grams" integer NOT NULL,
	"pickup_scheduled_for" text,
	"last_scan_at" timestamp with time zone,
	"last_heard_at" timestamp with time zone,
	"ndr_state" text,
	"ndr_reason" text,
	"ndr_note" text,
	"received_back_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_awb_unique" UNIQUE("awb")
);
--> statement-breakpoint
ALTER TABLE "combos" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "combos" ADD COLUMN "length_cm" integer;--> statement-breakpoint
ALTER TABLE "combos" ADD COLUMN "breadth_cm" integer;--> statement-breakpoint
ALTER TABLE "combos" ADD COLUMN "height_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight_grams" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "length_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "breadth_cm" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height_cm" integer;--> statement-breakpoint
ALTER TABLE "shipment_scans" ADD CONSTRAINT "shipment_scans_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_scans_once" ON "shipment_scans" USING btree ("shipment_id","scanned_at","code","label");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_one_live_per_order" ON "shipments" USING btree ("order_id") WHERE "shipments"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "shipments_status_last_heard_idx" ON "shipments" USING btree ("status","last_heard_at");--> statement-breakpoint
CREATE INDEX "shipments_ndr_state_idx" ON "shipments" USING btree ("ndr_state") WHERE "shipments"."ndr_state" is not null;--> statement-breakpoint
ALTER TABLE "combos" ADD CONSTRAINT "combos_parcel_size_positive" CHECK (coalesce("combos"."weight_grams", 1) > 0 and coalesce("combos"."length_cm", 1) > 0 and coalesce("combos"."breadth_cm", 1) > 0 and coalesce("combos"."height_cm", 1) > 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_parcel_size_positive" CHECK (coalesce("products"."weight_grams", 1) > 0 and coalesce("products"."length_cm", 1) > 0 and coalesce("products"."breadth_cm", 1) > 0 and coalesce("products"."height_cm", 1) > 0);