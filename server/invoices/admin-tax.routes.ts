import { asc, eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import {
  addGstRateSchema,
  bpToRate,
  gstRateParamSchema,
  gstr1QuerySchema,
  productSlugParamSchema,
  rateToBp,
  type TaxSettings,
  updateProductTaxSchema,
} from "../../common/schemas/tax.ts";
import { recordAudit } from "../audit/audit.ts";
import { ownerOnly } from "../auth/session.ts";
import { csvResponse } from "../csv.ts";
import type { Db } from "../db/client.ts";
import { gstRates, products } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { exportGstr1, gstr1FileName } from "./gstr1.ts";

/** The rate new products start at (the column's default): kept in the list so those inserts always hold. */
const STANDARD_RATE_BP = 1800;

async function taxSettings(db: Db): Promise<TaxSettings> {
  const [rates, rows] = await Promise.all([
    db.select({ rateBp: gstRates.rateBp }).from(gstRates).orderBy(asc(gstRates.rateBp)),
    db
      .select({
        slug: products.slug,
        name: products.name,
        active: products.active,
        hsnCode: products.hsnCode,
        gstRateBp: products.gstRateBp,
      })
      .from(products)
      .orderBy(asc(products.name)),
  ]);
  return {
    rates: rates.map((rate) => bpToRate(rate.rateBp)),
    products: rows.map(({ gstRateBp, ...row }) => ({ ...row, gstRate: bpToRate(gstRateBp) })),
  };
}

const notInList = (rates: number[]) =>
  httpError(400, "invalid_request", `gstRate: must be one of the allowed rates (${rates.join(", ")} %)`, {
    gstRate: "must be one of the allowed rates",
  });

/**
 * The owner's tax settings: each product's HSN code and GST rate, and the list of rates allowed
 * (docs/decisions/037), and a month's GSTR-1 files (docs/decisions/044). Owner only (401 signed out, 403 for staff and customers); every change is audited
 * in its transaction.
 */
export function adminTaxRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", async (c) => c.json(await taxSettings(db)))
    .get("/gstr1.csv", validate("query", gstr1QuerySchema), async (c) => {
      const query = c.req.valid("query");
      // A month's sales, with buyers' names in some sections: who took it is kept, as for the orders' file.
      await recordAudit(db, {
        actor: c.get("owner"),
        entityType: "export",
        entityId: "gstr1",
        action: "export_csv",
        after: query,
      });
      return csvResponse(await exportGstr1(db, query), gstr1FileName(query));
    })
    .put(
      "/products/:slug",
      validate("param", productSlugParamSchema),
      validate("json", updateProductTaxSchema),
      async (c) => {
        const { slug } = c.req.valid("param");
        const { hsnCode, gstRate } = c.req.valid("json");
        const rateBp = rateToBp(gstRate);
        await db.transaction(async (tx) => {
          const [product] = await tx.select().from(products).where(eq(products.slug, slug)).for("update");
          if (!product) throw notFound("There is no such product.");
          // The rate row is locked with the product, so it cannot be removed while this change commits.
          const [allowed] = await tx.select().from(gstRates).where(eq(gstRates.rateBp, rateBp)).for("share");
          if (!allowed) {
            const rates = await tx
              .select({ rateBp: gstRates.rateBp })
              .from(gstRates)
              .orderBy(asc(gstRates.rateBp));
            throw notInList(rates.map((rate) => bpToRate(rate.rateBp)));
          }
          await tx.update(products).set({ hsnCode, gstRateBp: rateBp }).where(eq(products.slug, slug));
          await recordAudit(tx, {
            actor: c.get("owner"),
            entityType: "tax",
            entityId: slug,
            action: "product",
            before: { hsnCode: product.hsnCode, gstRate: bpToRate(product.gstRateBp) },
            after: { hsnCode, gstRate },
          });
        });
        return c.json(await taxSettings(db));
      },
    )
    .post("/rates", validate("json", addGstRateSchema), async (c) => {
      const { gstRate } = c.req.valid("json");
      await db.transaction(async (tx) => {
        const [added] = await tx
          .insert(gstRates)
          .values({ rateBp: rateToBp(gstRate) })
          .onConflictDoNothing()
          .returning();
        if (!added) throw httpError(409, "rate_exists", `${gstRate} % is already in the list.`);
        await recordAudit(tx, {
          actor: c.get("owner"),
          entityType: "tax",
          entityId: `${gstRate}%`,
          action: "add_rate",
          after: { gstRate },
        });
      });
      return c.json(await taxSettings(db), 201);
    })
    .delete("/rates/:rate", validate("param", gstRateParamSchema), async (c) => {
      const { rate } = c.req.valid("param");
      const rateBp = rateToBp(rate);
      if (rateBp === STANDARD_RATE_BP) {
        throw httpError(409, "rate_in_use", "18 % stays in the list: new products start at it.");
      }
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(gstRates).where(eq(gstRates.rateBp, rateBp)).for("update");
        if (!row) throw notFound(`${rate} % is not in the list.`);
        const [used] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(products)
          .where(eq(products.gstRateBp, rateBp));
        if (used && used.count > 0) {
          throw httpError(
            409,
            "rate_in_use",
            `${used.count} ${used.count === 1 ? "product is" : "products are"} at ${rate} %: change them first.`,
          );
        }
        await tx.delete(gstRates).where(eq(gstRates.rateBp, rateBp));
        await recordAudit(tx, {
          actor: c.get("owner"),
          entityType: "tax",
          entityId: `${rate}%`,
          action: "remove_rate",
          before: { gstRate: rate },
        });
      });
      return c.json(await taxSettings(db));
    });
}
