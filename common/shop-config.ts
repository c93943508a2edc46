/** The shop's public contact details, from SHOP_NAME, SHOP_PHONE and SHOP_EMAIL (GET /api/config). */
export type ShopConfig = { shopName: string; phone: string; email: string };

/** A tel: link wants only the digits and a leading plus: "+91 98765 43210" -> "tel:+919876543210". */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
