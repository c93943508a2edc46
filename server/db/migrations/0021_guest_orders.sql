CREATE TABLE "guest_discount_uses" (
	"code" text NOT NULL,
	"contact" text NOT NULL,
	"order_id" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guest_discount_uses_code_contact_pk" PRIMARY KEY("code","contact")
);
--> statement-breakpoint
CREATE TABLE "guest_order_requests" (
	"key" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "guest_email" text;--> statement-breakpoint
ALTER TABLE "guest_discount_uses" ADD CONSTRAINT "guest_discount_uses_code_discount_codes_code_fk" FOREIGN KEY ("code") REFERENCES "public"."discount_codes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_discount_uses" ADD CONSTRAINT "guest_discount_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guest_order_requests" ADD CONSTRAINT "guest_order_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_guest_email_idx" ON "orders" USING btree ("guest_email") WHERE "orders"."guest_email" is not null;