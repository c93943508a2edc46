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
--> statement-breakpoint
CREATE TABLE "hero_slides" (
	"position" integer PRIMARY KEY NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"eyebrow" text NOT NULL,
	"heading" text NOT NULL,
	"text" text NOT NULL,
	"button_label" text NOT NULL,
	"button_target" text NOT NULL,
	"image" text NOT NULL,
	"image_alt" text NOT NULL,
	"tone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hero_slides_position" CHECK ("hero_slides"."position" between 0 and 9)
);
--> statement-breakpoint
-- The five slides the shop shipped with (web/features/home/hero-slides.ts until now), so nothing is lost.
INSERT INTO hero_slides (position, eyebrow, heading, text, button_label, button_target, image, image_alt, tone) VALUES
(0, 'Hair care', 'Stronger roots, the way our grandmothers knew', 'Hair Growth Oil is slow-cooked in cold-pressed coconut and sesame oil with bhringraj, curry leaves, hibiscus and amla. Massage it in, leave it overnight, and let tradition do the rest.', 'Shop Now', '/#featured', 'hair-growth-oil-1', 'A bottle of Hair Growth Oil', 'green'),
(1, 'Face care', 'A saffron glow, without the chemicals', 'Face Glow Oil is a kumkumadi-style blend of saffron, manjistha, sandalwood and liquorice. Three drops at night, pressed onto damp skin, and you wake up glowing.', 'Shop Now', '/#featured', 'face-glow-oil-1', 'A dropper bottle of Face Glow Oil', 'rose'),
(2, 'Body care', 'Bath time, soap-free, for the whole family', 'Our nalangu maavu Bath Powder is stone-ground from green gram, wild turmeric, vetiver and rose petals, with a fragrance-free version gentle enough for little ones.', 'Shop Now', '/#featured', 'bath-powder-1', 'A jar of Bath Powder', 'amber'),
(3, 'Milk range', 'A glass of goodness from the Indian kitchen', 'Badam Mix blends roasted almonds, pistachios, cardamom and saffron, sweetened with palm jaggery instead of refined sugar. Stir it into hot or cold milk.', 'Shop Now', '/#featured', 'badam-mix-1', 'A pack of Badam Mix', 'yellow'),
(4, 'Combos & gifting', 'Complete routines, gift-wrapped on request', 'Four bundles that pair our favourites into a full routine, for skin, hair, nutrition and the family bath, each at a lower price than buying them apart.', 'Shop Now', '/#featured', 'skincare-combo', 'The Glow Skincare Combo: Face Glow Oil, Face Wash Powder and Skin Brightening Pack', 'pink')
ON CONFLICT (position) DO NOTHING;
--> statement-breakpoint
-- Shown through GET /api/config, remembered with the catalogue: a change is announced on its channel.
CREATE TRIGGER hero_slides_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hero_slides
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
