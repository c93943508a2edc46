ALTER TABLE "order_events" ADD COLUMN "kind" text DEFAULT 'status' NOT NULL;--> statement-breakpoint
-- The entries written before kinds were kept, told apart by the words each kind's note always began with.
UPDATE "order_events" SET "kind" = CASE
  WHEN "note" LIKE 'Delivery address changed:%' THEN 'address'
  WHEN "note" LIKE 'Items changed:%' THEN 'items'
  WHEN "note" LIKE 'Tax invoice % issued' THEN 'invoice'
  WHEN "note" LIKE 'Courier details corrected:%' THEN 'courier'
  WHEN "note" LIKE 'Booked with %' THEN 'parcel_booked'
  WHEN "note" LIKE 'Parcel received back%' THEN 'parcel_back'
  WHEN "note" LIKE 'Payment %' THEN 'payment'
  WHEN "note" LIKE 'Return to us asked by%' OR "note" LIKE 'Another attempt asked by%' THEN 'delivery_attempt'
  ELSE 'status' END
WHERE "from_status" = "to_status";
