/** The shop's public contact details, from SHOP_NAME, SHOP_PHONE and SHOP_EMAIL (GET /api/config). */
export type ShopConfig = { shopName: string; phone: string; email: string };
