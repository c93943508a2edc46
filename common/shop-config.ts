/** The shop's public details, served by GET /api/config so the web bundle never hard-codes them. */
export type ShopConfig = { shopName: string; shopPhone: string; shopEmail: string };

/** A tel: link wants only the digits and a leading plus: "+91 98765 43210" -> "tel:+919876543210". */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
