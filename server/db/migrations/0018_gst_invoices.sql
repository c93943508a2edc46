CREATE TABLE "document_counters" (
	"kind" text NOT NULL,
	"financial_year" text NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "document_counters_kind_financial_year_pk" PRIMARY KEY("kind","financial_year")
);
--> statement-breakpoint
CREATE TABLE "gst_rates" (
	"rate_bp" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gst_rates_range" CHECK ("gst_rates"."rate_bp" between 0 and 10000)
);
--> statement-breakpoint
-- The rates after September 2025 (nil, 5 %, 18 %, 40 %); the owner keeps the list from here on.
INSERT INTO "gst_rates" ("rate_bp") VALUES (0), (500), (1800), (4000);
--> statement-breakpoint
CREATE TABLE "tax_document_lines" (
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"hsn" text,
	"quantity" integer NOT NULL,
	"unit" text NOT NULL,
	"gross_paise" integer NOT NULL,
	"discount_paise" integer NOT NULL,
	"rate_bp" integer NOT NULL,
	"taxable_paise" integer NOT NULL,
	"cgst_paise" integer NOT NULL,
	"sgst_paise" integer NOT NULL,
	"igst_paise" integer NOT NULL,
	"total_paise" integer NOT NULL,
	CONSTRAINT "tax_document_lines_document_id_position_pk" PRIMARY KEY("document_id","position"),
	CONSTRAINT "tax_document_lines_not_negative" CHECK ("tax_document_lines"."taxable_paise" >= 0 and "tax_document_lines"."cgst_paise" >= 0 and "tax_document_lines"."sgst_paise" >= 0 and "tax_document_lines"."igst_paise" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tax_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"financial_year" text NOT NULL,
	"sequence" integer NOT NULL,
	"order_id" text NOT NULL,
	"invoice_id" uuid,
	"reason" text,
	"issued_at" timestamp with time zone NOT NULL,
	"supplier" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"place_of_supply" text NOT NULL,
	"intra_state" boolean NOT NULL,
	"taxable_paise" integer NOT NULL,
	"cgst_paise" integer NOT NULL,
	"sgst_paise" integer NOT NULL,
	"igst_paise" integer NOT NULL,
	"total_paise" integer NOT NULL,
	CONSTRAINT "tax_documents_number_unique" UNIQUE("number"),
	CONSTRAINT "tax_documents_number_length" CHECK (char_length("tax_documents"."number") <= 16),
	CONSTRAINT "tax_documents_credit_names_invoice" CHECK (("tax_documents"."kind" = 'credit_note') = ("tax_documents"."invoice_id" is not null)),
	CONSTRAINT "tax_documents_total_adds_up" CHECK ("tax_documents"."total_paise" = "tax_documents"."taxable_paise" + "tax_documents"."cgst_paise" + "tax_documents"."sgst_paise" + "tax_documents"."igst_paise")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hsn_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "gst_rate_bp" integer DEFAULT 1800 NOT NULL;--> statement-breakpoint
ALTER TABLE "tax_document_lines" ADD CONSTRAINT "tax_document_lines_document_id_tax_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."tax_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_documents" ADD CONSTRAINT "tax_documents_invoice_id_tax_documents_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."tax_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_one_per_order" ON "tax_documents" USING btree ("kind","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_series" ON "tax_documents" USING btree ("kind","financial_year","sequence");--> statement-breakpoint
CREATE INDEX "tax_documents_issued_at" ON "tax_documents" USING btree ("issued_at");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_gst_rate_bp_gst_rates_rate_bp_fk" FOREIGN KEY ("gst_rate_bp") REFERENCES "public"."gst_rates"("rate_bp") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_hsn_code_digits" CHECK ("products"."hsn_code" is null or "products"."hsn_code" ~ '^([0-9]{4}|[0-9]{6}|[0-9]{8})$');