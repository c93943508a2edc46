CREATE TABLE "shop_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"shop_name" text,
	"brand_colour" text,
	"logo" text,
	"shipping_fee_paise" integer,
	"free_shipping_min_paise" integer,
	"free_shipping_basis" text DEFAULT 'after_discount' NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_settings_one_row" CHECK ("shop_settings"."id" = 1),
	CONSTRAINT "shop_settings_brand_colour" CHECK ("shop_settings"."brand_colour" ~ '^#[0-9a-f]{6}$'),
	CONSTRAINT "shop_settings_shipping_fee" CHECK ("shop_settings"."shipping_fee_paise" >= 0),
	CONSTRAINT "shop_settings_free_shipping_min" CHECK ("shop_settings"."free_shipping_min_paise" >= 0),
	CONSTRAINT "shop_settings_free_shipping_basis" CHECK ("shop_settings"."free_shipping_basis" in ('after_discount', 'before_discount'))
);
--> statement-breakpoint
-- Every column null: the environment's values until the owner first saves (server/settings/settings.data.ts).
INSERT INTO shop_settings (id) VALUES (1) ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
-- GET /api/config and the pages are remembered with the catalogue: a change is announced on its channel
-- (migration 0010's function), so every instance forgets what it held when the change commits.
CREATE TRIGGER shop_settings_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shop_settings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
