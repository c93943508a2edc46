import type { ShopDetails } from "../common/schemas/shop.ts";

/** The shop's details before the owner has saved any: the environment's name, phone and e-mail, nothing made up. */
export const detailsFromEnvironment = (shop: {
  name: string;
  phone: string;
  email: string;
}): ShopDetails => ({
  legalName: shop.name,
  address: null,
  phone: shop.phone,
  email: shop.email,
  gstin: null,
  fssaiLicence: null,
  grievanceOfficer: { name: null, email: shop.email },
  updatedAt: null,
});
