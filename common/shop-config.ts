import type { ShippingRule } from "./order-pricing.ts";

/** The shop's public details (GET /api/config): SHOP_NAME, SHOP_PHONE, SHOP_EMAIL and the shipping rule. */
export type ShopConfig = { shopName: string; phone: string; email: string; shipping: ShippingRule };

/** A tel: link wants only the digits and a leading plus: "+91 98765 43210" -> "tel:+919876543210". */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
