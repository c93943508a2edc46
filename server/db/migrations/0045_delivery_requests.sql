ALTER TABLE "shipments" ADD COLUMN "request_day" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "request_line1" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "request_line2" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "request_phone" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "request_outcome" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "request_courier_said" text;