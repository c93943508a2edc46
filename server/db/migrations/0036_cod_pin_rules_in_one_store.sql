-- Decision 043's "no cash on delivery" delivery rules become COD place rules for the same PIN or prefix, so the
-- COD rules have one store (docs/decisions/062). What each PIN was allowed stays as it was:
-- 1. A "served as usual" exception inside a no-COD range gave cash back to those PINs; it becomes a PIN rule
--    capped at the most a cap may be, which as the longest prefix lets the shop-wide cap decide again.
INSERT INTO "cod_place_rules" ("kind", "value", "max_paise", "note")
  SELECT 'pin', "served"."prefix", 100000000, 'Cash on delivery as usual (an exception in the delivery rules)'
  FROM "delivery_rules" "served"
  WHERE "served"."rule" = 'served'
    AND (
      SELECT "shorter"."rule" FROM "delivery_rules" "shorter"
      WHERE "served"."prefix" LIKE "shorter"."prefix" || '%' AND length("shorter"."prefix") < length("served"."prefix")
      ORDER BY length("shorter"."prefix") DESC LIMIT 1
    ) = 'no_cod'
  ON CONFLICT ("kind", lower("value")) DO NOTHING;--> statement-breakpoint
-- 2. Each no-COD prefix turns COD off for it; it used to win over a COD cap for the same prefix, so it still does.
INSERT INTO "cod_place_rules" ("kind", "value", "max_paise", "note")
  SELECT 'pin', "prefix", NULL, "note" FROM "delivery_rules" WHERE "rule" = 'no_cod'
  ON CONFLICT ("kind", lower("value")) DO UPDATE SET
    "max_paise" = NULL,
    "note" = CASE WHEN "cod_place_rules"."note" = '' THEN excluded."note" ELSE "cod_place_rules"."note" END,
    "updated_at" = now();--> statement-breakpoint
-- 3. For delivery a no-COD prefix meant "served": kept as that where it is an exception to a range not served.
UPDATE "delivery_rules" SET "rule" = 'served', "updated_at" = now()
  WHERE "rule" = 'no_cod'
    AND EXISTS (
      SELECT 1 FROM "delivery_rules" "shorter"
      WHERE "shorter"."rule" = 'not_served'
        AND "delivery_rules"."prefix" LIKE "shorter"."prefix" || '%'
        AND length("shorter"."prefix") < length("delivery_rules"."prefix")
    );--> statement-breakpoint
DELETE FROM "delivery_rules" WHERE "rule" = 'no_cod';--> statement-breakpoint
ALTER TABLE "delivery_rules" DROP CONSTRAINT "delivery_rules_rule";--> statement-breakpoint
ALTER TABLE "delivery_rules" ADD CONSTRAINT "delivery_rules_rule" CHECK ("delivery_rules"."rule" in ('not_served', 'served'));