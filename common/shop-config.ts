import type { ShippingRule } from "./cart.ts";
import type { BrandPalette } from "./contrast.ts";
import type { HeroSlide } from "./schemas/hero-slides.ts";
import type { ShopSettings } from "./schemas/settings.ts";
import type { PromoBanner, ShopDetails } from "./schemas/shop.ts";

/**
 * The shop's public details (GET /api/config): its name, the helpdesk and seller details the owner keeps
 * (phone and e-mail repeat details' for the pages that only need those), the shipping rule, and PUBLIC_URL,
 * the address canonical links and link previews must name whatever host a request came in on.
 */
export type ShopConfig = {
  shopName: string;
  /**
   * The owner's brand colour (null: the shop's own green), the shades the pages draw with it (worked out
   * here on the server, so no page carries the colour arithmetic), and the logo (server/settings).
   */
  brand: { colour: string | null; palette: BrandPalette | null; logo: ShopSettings["logo"] };
  phone: string;
  email: string;
  details: ShopDetails;
  /** The promo banner's offer, as the owner last set it. */
  banner: PromoBanner;
  /** The home page's slides the owner shows, in order. */
  heroSlides: HeroSlide[];
  shipping: ShippingRule;
  publicUrl: string;
  /** WhatsApp is configured: checkout offers "Send order updates on WhatsApp" (docs/decisions/065). */
  whatsapp: boolean;
  /** WhatsApp has a cart reminder template: checkout offers "Remind me on WhatsApp" (docs/decisions/096). */
  whatsappReminders: boolean;
};

/** A tel: link wants only the digits and a leading plus: "+91 98765 43210" -> "tel:+919876543210". */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
