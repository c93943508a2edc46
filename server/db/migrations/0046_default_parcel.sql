ALTER TABLE "shop_settings" ADD COLUMN "default_item_weight_grams" integer;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "default_item_length_cm" integer;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "default_item_breadth_cm" integer;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD COLUMN "default_item_height_cm" integer;--> statement-breakpoint
ALTER TABLE "shop_settings" ADD CONSTRAINT "shop_settings_default_item_size" CHECK (coalesce("shop_settings"."default_item_weight_grams", 1) > 0 and coalesce("shop_settings"."default_item_length_cm", 1) > 0 and coalesce("shop_settings"."default_item_breadth_cm", 1) > 0 and coalesce("shop_settings"."default_item_height_cm", 1) > 0);