import { eq } from "drizzle-orm";
import { gstinCheckCharacter } from "../common/gstin.ts";
import type { ShopDetails } from "../common/schemas/shop.ts";
import type { Db } from "../server/db/client.ts";
import { shopDetails } from "../server/db/schema.ts";

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

/** A valid GSTIN of a shop registered in Tamil Nadu (state code 33). */
export const TEST_GSTIN = `33AABCP1234Q1Z${gstinCheckCharacter("33AABCP1234Q1Z")}`;

/** The shop's legal name and registered address in Chennai, where TEST_GSTIN is registered. */
export const REGISTERED_SHOP = {
  legalName: "Prakriti Naturals Private Limited",
  addressLine1: "14, Kamaraj Salai",
  city: "Chennai",
  pin: "600017",
  state: "Tamil Nadu",
};

/**
 * Saves what a tax invoice needs in the shop's details, as the owner would: REGISTERED_SHOP and TEST_GSTIN;
 * `changes` sets other values (`gstin: null` for an unregistered shop).
 */
export async function registerShopForGst(db: Db, changes: Partial<typeof shopDetails.$inferInsert> = {}) {
  await db
    .update(shopDetails)
    .set({ ...REGISTERED_SHOP, gstin: TEST_GSTIN, ...changes })
    .where(eq(shopDetails.id, 1));
}
