-- The owner's confirmation hours join the other COD settings in cod_settings (one place for cash on delivery,
-- docs/decisions/062 and 065); an hours value already saved is carried over before its table goes.
ALTER TABLE "cod_settings" ADD COLUMN "confirm_hours" integer;--> statement-breakpoint
ALTER TABLE "cod_settings" ADD CONSTRAINT "cod_settings_confirm_hours" CHECK (coalesce("cod_settings"."confirm_hours", 1) between 1 and 720);--> statement-breakpoint
INSERT INTO "cod_settings" ("id", "confirm_hours")
  SELECT 1, "confirm_hours" FROM "cod_confirmation_settings" WHERE "id" = 1
  ON CONFLICT ("id") DO UPDATE SET "confirm_hours" = excluded."confirm_hours";--> statement-breakpoint
UPDATE "audit_log" SET "entity_type" = 'cod_rule' WHERE "entity_type" = 'cod_settings';--> statement-breakpoint
DROP TABLE "cod_confirmation_settings" CASCADE;
