import { and, eq, isNull } from "drizzle-orm";
import type { IndianState } from "../../common/india.ts";
import {
  type PromoBanner,
  type PromoBannerInput,
  type ShopDetails,
  type ShopDetailsInput,
  stateCodeOf,
} from "../../common/schemas/shop.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { discountCodes, promoBanner, shopDetails } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { httpError } from "../errors.ts";

type DetailsRow = typeof shopDetails.$inferSelect;
type BannerRow = typeof promoBanner.$inferSelect;

function presentDetails(row: DetailsRow): ShopDetails {
  const { addressLine1, city, pin, state } = row;
  return {
    legalName: row.legalName,
    address:
      addressLine1 && city && pin && state
        ? {
            line1: addressLine1,
            line2: row.addressLine2,
            city,
            pin,
            state: state as IndianState,
            stateCode: stateCodeOf(state as IndianState),
          }
        : null,
    phone: row.phone,
    email: row.email,
    gstin: row.gstin,
    fssaiLicence: row.fssaiLicence,
    grievanceOfficer: { name: row.grievanceOfficerName, email: row.grievanceOfficerEmail },
    updatedAt: row.updatedBy ? row.updatedAt.toISOString() : null,
  };
}

const presentBanner = (row: BannerRow): PromoBanner => ({
  visible: row.visible,
  headline: row.headline,
  details: row.details,
  code: row.code,
  shortLabel: row.shortLabel,
});

/**
 * The seller's details as they stand: for pages, mails and invoices. The row is written by migration 0017,
 * so it is always there; `db` may be a transaction, to read them with the change that uses them.
 */
export async function getShopDetails(db: Pick<Db, "select">): Promise<ShopDetails> {
  const [row] = await db.select().from(shopDetails).where(eq(shopDetails.id, 1));
  if (!row) throw new Error("The shop_details row is missing: run the migrations.");
  return presentDetails(row);
}

/**
 * At start: the environment's name, phone and e-mail are the defaults, so they are copied into the row for as
 * long as the owner has not saved the form; once the owner has, a restart leaves the owner's values alone.
 */
export async function seedShopDetails(db: Db, env: Pick<Env, "SHOP_NAME" | "SHOP_PHONE" | "SHOP_EMAIL">) {
  const [row] = await db.select().from(shopDetails).where(eq(shopDetails.id, 1));
  if (
    !row ||
    row.updatedBy ||
    (row.legalName === env.SHOP_NAME &&
      row.phone === env.SHOP_PHONE &&
      row.email === env.SHOP_EMAIL &&
      row.grievanceOfficerEmail === env.SHOP_EMAIL)
  ) {
    return;
  }
  await db
    .update(shopDetails)
    .set({
      legalName: env.SHOP_NAME,
      phone: env.SHOP_PHONE,
      email: env.SHOP_EMAIL,
      grievanceOfficerEmail: env.SHOP_EMAIL,
    })
    .where(and(eq(shopDetails.id, 1), isNull(shopDetails.updatedBy)));
}

/** Saves the owner's form under the row's lock, with its audit entry; returns what is now shown. */
export async function updateShopDetails(
  db: Db,
  input: ShopDetailsInput,
  actor: AuditActor,
): Promise<ShopDetails> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(shopDetails).where(eq(shopDetails.id, 1)).for("update");
    if (!current) throw new Error("The shop_details row is missing: run the migrations.");
    const [row] = await tx
      .update(shopDetails)
      .set({
        legalName: input.legalName,
        addressLine1: input.addressLine1,
        addressLine2: input.addressLine2,
        city: input.city,
        pin: input.pin,
        state: input.state,
        phone: input.phone,
        email: input.email,
        gstin: input.gstin,
        fssaiLicence: input.fssaiLicence,
        grievanceOfficerName: input.grievanceOfficerName,
        grievanceOfficerEmail: input.grievanceOfficerEmail,
        updatedBy: actor.id,
      })
      .where(eq(shopDetails.id, 1))
      .returning();
    if (!row) throw new Error("The shop_details row is missing: run the migrations.");
    const before = presentDetails(current);
    const after = presentDetails(row);
    await recordAudit(tx, {
      actor,
      entityType: "shop_details",
      entityId: "shop",
      action: "update",
      before: { ...before, updatedAt: undefined },
      after: { ...after, updatedAt: undefined },
    });
    return after;
  });
}

export async function getPromoBanner(db: Pick<Db, "select">): Promise<PromoBanner> {
  const [row] = await db.select().from(promoBanner).where(eq(promoBanner.id, 1));
  if (!row) throw new Error("The promo_banner row is missing: run the migrations.");
  return presentBanner(row);
}

/**
 * Saves the banner. A code it names must be one shoppers can use (it exists and is switched on): a banner
 * announcing a code that checkout refuses would be a broken promise.
 */
export async function updatePromoBanner(
  db: Db,
  input: PromoBannerInput,
  actor: AuditActor,
): Promise<PromoBanner> {
  return db.transaction(async (tx) => {
    if (input.code) {
      const [code] = await tx
        .select({ active: discountCodes.active })
        .from(discountCodes)
        .where(eq(discountCodes.code, input.code))
        .for("share");
      if (!code?.active) {
        const problem = code
          ? `${input.code} is switched off: switch it on under Codes first.`
          : `There is no discount code ${input.code}.`;
        throw httpError(400, "invalid_request", `code: ${problem}`, { code: problem });
      }
    }
    const [current] = await tx.select().from(promoBanner).where(eq(promoBanner.id, 1)).for("update");
    if (!current) throw new Error("The promo_banner row is missing: run the migrations.");
    const [row] = await tx
      .update(promoBanner)
      .set({
        visible: input.visible,
        headline: input.headline,
        details: input.details,
        code: input.code,
        shortLabel: input.shortLabel,
      })
      .where(eq(promoBanner.id, 1))
      .returning();
    if (!row) throw new Error("The promo_banner row is missing: run the migrations.");
    const after = presentBanner(row);
    await recordAudit(tx, {
      actor,
      entityType: "banner",
      entityId: "promo",
      action: "update",
      before: presentBanner(current),
      after,
    });
    return after;
  });
}
