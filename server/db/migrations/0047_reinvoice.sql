DROP INDEX "tax_documents_one_per_order";--> statement-breakpoint
CREATE INDEX "tax_documents_of_order" ON "tax_documents" USING btree ("order_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_documents_one_credit_note_per_invoice" ON "tax_documents" USING btree ("invoice_id") WHERE "tax_documents"."invoice_id" is not null;