import { and, eq, isNull } from "drizzle-orm";
import type { IndianState } from "../../common/india.ts";
import { type ShopDetails, type ShopDetailsInput, stateCodeOf } from "../../common/schemas/shop.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { shopDetails } from "../db/schema.ts";
import type { Env } from "../env.ts";

type DetailsRow = typeof shopDetails.$inferSelect;

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
