-- The one row of each, so every reader finds it from the first start. The shop's name, phone and e-mail are
-- the brand's defaults (SHOP_NAME, SHOP_PHONE, SHOP_EMAIL in server/env.ts); the seed copies the running
-- environment's values over them until the owner first saves the form. The banner is the spec's GLOW20 offer.
INSERT INTO shop_details (id, legal_name, phone, email, grievance_officer_email)
VALUES (1, 'Prakriti Naturals', '+91 98765 43210', 'care@prakritinaturals.in', 'care@prakritinaturals.in')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
INSERT INTO promo_banner (id, visible, headline, details, code, short_label)
VALUES (1, true, 'Flat 20% off all products', 'for a limited time.', 'GLOW20', '20% OFF')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
-- GET /api/config (the footer, the contact page, the banner) is remembered with the catalogue, so a change
-- to either row is announced on the same channel (migration 0010's function) and every instance forgets it.
CREATE TRIGGER shop_details_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shop_details
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
--> statement-breakpoint
CREATE TRIGGER promo_banner_catalogue AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON promo_banner
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalogue_change();
