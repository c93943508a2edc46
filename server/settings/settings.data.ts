import { and, eq, isNull } from "drizzle-orm";
import type { ShippingRule } from "../../common/cart.ts";
import { imageFor } from "../../common/catalogue.ts";
import type { ShopSettings, ShopSettingsInput } from "../../common/schemas/settings.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { CatalogueCache } from "../catalogue/catalogue-cache.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { fromTemplate } from "../db/message-transaction.ts";
import { build, type Read, readAs, readNow, tableRowsRead } from "../db/reads.ts";
import { shopDetails, shopSettings } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { httpError } from "../errors.ts";
import { attachUploads } from "../products/product-images.ts";

/** The environment's first values, which stand until the owner saves (docs/decisions/068). */
export type SettingsEnv = Pick<Env, "SHOP_NAME" | "SHIPPING_FEE_PAISE" | "FREE_SHIPPING_MIN_PAISE">;

type SettingsRow = typeof shopSettings.$inferSelect;

function presentSettings(row: SettingsRow, env: SettingsEnv): ShopSettings {
  return {
    shopName: row.shopName ?? env.SHOP_NAME,
    brandColour: row.brandColour,
    logo: row.logo ? { ...imageFor(row.logo), key: row.logo } : null,
    shipping: {
      shippingFeePaise: row.shippingFeePaise ?? env.SHIPPING_FEE_PAISE,
      freeShippingMinPaise: row.freeShippingMinPaise ?? env.FREE_SHIPPING_MIN_PAISE,
      freeShippingBasis: row.freeShippingBasis,
    },
    updatedAt: row.updatedBy ? row.updatedAt.toISOString() : null,
  };
}

const missingRow = () => new Error("The shop_settings row is missing: run the migrations.");

/**
 * The settings as they stand, from the database. `db` may be a transaction: an order reads its shipping
 * rule with the change that uses it. Pages and /api/config use rememberSettings instead.
 */
export function readSettings(db: DbOrTx, env: SettingsEnv): Promise<ShopSettings> {
  return readNow(db, settingsRead(env));
}

/** readSettings' read; placing an order sends it with its other statements. */
export function settingsRead(env: SettingsEnv): Read<ShopSettings> {
  const statement = fromTemplate(
    "shop settings",
    () => build.select().from(shopSettings).where(eq(shopSettings.id, 1)),
    {},
  );
  return readAs(tableRowsRead(statement, shopSettings), ([row]) => {
    if (!row) throw missingRow();
    return presentSettings(row, env);
  });
}

/** The shipping rule orders, the cart and the delivery check are priced with. */
export async function readShippingRule(db: DbOrTx, env: SettingsEnv): Promise<ShippingRule> {
  return (await readSettings(db, env)).shipping;
}

/**
 * The settings, remembered with the catalogue: the table's trigger announces a change on the catalogue's
 * channel, so every instance forgets them when the change commits (migration 0033).
 */
export function rememberSettings(deps: {
  db: Db;
  env: SettingsEnv;
  catalogue: CatalogueCache;
}): Promise<ShopSettings> {
  return deps.catalogue.remember("settings", () => readSettings(deps.db, deps.env));
}

/**
 * The environment as mails and SMS are composed with: SHOP_NAME is the owner's name as it stands when the
 * message is written (in the job worker), so a message queued before a rename still says the new name.
 */
export async function withOwnersShopName<E extends SettingsEnv>(db: DbOrTx, env: E): Promise<E> {
  return { ...env, SHOP_NAME: (await readSettings(db, env)).shopName };
}

/** Saves the owner's settings under the row's lock, with their audit entry; returns what now stands. */
export async function updateSettings(
  db: Db,
  env: SettingsEnv,
  input: ShopSettingsInput,
  actor: AuditActor,
): Promise<ShopSettings> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(shopSettings).where(eq(shopSettings.id, 1)).for("update");
    if (!current) throw missingRow();
    if (input.logo && input.logo !== current.logo) {
      // Locks the upload and renews its time, so the sweep of unused uploads cannot take it meanwhile.
      const found = await attachUploads(tx, [input.logo.slice("uploads/".length)]);
      if (found.size === 0) {
        const problem = "is not an uploaded image, or was uploaded over a day ago: upload it again";
        throw httpError(400, "invalid_request", `logo: ${problem}`, { logo: problem });
      }
    }
    const [row] = await tx
      .update(shopSettings)
      .set({
        shopName: input.shopName,
        brandColour: input.brandColour,
        logo: input.logo,
        shippingFeePaise: input.shippingFeePaise,
        freeShippingMinPaise: input.freeShippingMinPaise,
        freeShippingBasis: input.freeShippingBasis,
        updatedBy: actor.id,
      })
      .where(eq(shopSettings.id, 1))
      .returning();
    if (!row) throw missingRow();
    // The legal name the owner never set is a copy of the shop's name (decision 036's first value): it follows
    // a rename, so invoices and mails do not name the old brand. One the owner saved is a legal fact and stays.
    await tx
      .update(shopDetails)
      .set({ legalName: input.shopName })
      .where(and(eq(shopDetails.id, 1), isNull(shopDetails.updatedBy)));
    const before = presentSettings(current, env);
    const after = presentSettings(row, env);
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "shop",
      action: "update",
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}

/** What a reader of the audit log needs: the values, with the logo by its key, not its addresses. */
const auditView = (settings: ShopSettings) => ({
  shopName: settings.shopName,
  brandColour: settings.brandColour,
  logo: settings.logo?.key ?? null,
  ...settings.shipping,
});

/** Whether guests are texted their parcel's news (server/orders/order-sms.ts). */
export async function readGuestDeliverySms(db: Pick<Db, "select">): Promise<boolean> {
  const [row] = await db
    .select({ on: shopSettings.guestDeliverySms })
    .from(shopSettings)
    .where(eq(shopSettings.id, 1));
  if (!row) throw missingRow();
  return row.on;
}

/** Saves the owner's choice to text guests their parcel's news, with its audit entry. */
export async function saveGuestDeliverySms(db: Db, on: boolean, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ on: shopSettings.guestDeliverySms })
      .from(shopSettings)
      .where(eq(shopSettings.id, 1))
      .for("update");
    if (!before) throw missingRow();
    await tx.update(shopSettings).set({ guestDeliverySms: on }).where(eq(shopSettings.id, 1));
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "guest-delivery-sms",
      action: "update",
      before: { on: before.on },
      after: { on },
    });
    return on;
  });
}
