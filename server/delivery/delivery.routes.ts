import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { shippingFor } from "../../common/cart.ts";
import { checkDelivery } from "../../common/delivery-check.ts";
import {
  deliveryCheckQuerySchema,
  deliveryRuleInputSchema,
  deliveryRuleListQuerySchema,
  deliveryRuleParamSchema,
  pinParamSchema,
} from "../../common/schemas/delivery.ts";
import { ownerOnly } from "../auth/session.ts";
import { cachedCodRules } from "../cod/cod-rules.ts";
import { combos, products } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { rememberSettings } from "../settings/settings.data.ts";
import { validate } from "../validate.ts";
import {
  deleteDeliveryRule,
  deliveryTo,
  listDeliveryRules,
  putDeliveryRule,
  unknownPin,
} from "./delivery.data.ts";
import { lookUpPin } from "./pin-directory.ts";

/** The directory changes only with a new release of the package, so a browser may keep an answer a day. */
const PIN_CACHE = "public, max-age=86400";

/** GET /api/pincodes/:pin: where a PIN is (city, district, state), so the address form can fill itself in. */
export function pinRoutes() {
  return new Hono().get("/:pin", validate("param", pinParamSchema), async (c) => {
    const place = await lookUpPin(c.req.valid("param").pin);
    if (!place) throw unknownPin("pin");
    c.header("Cache-Control", PIN_CACHE);
    return c.json(place);
  });
}

/**
 * GET /api/delivery/check?pin=&product= (or &combo=, or &orderPaise= at checkout): whether, when and how an
 * item or an order reaches a PIN, by the rules placing the order applies.
 */
export function deliveryCheckRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono().get("/check", validate("query", deliveryCheckQuerySchema), async (c) => {
    const query = c.req.valid("query");
    let pricePaise = 0;
    if (query.product) {
      const [product] = await db
        .select({ pricePaise: products.pricePaise })
        .from(products)
        .where(and(eq(products.slug, query.product), eq(products.active, true)));
      if (!product)
        throw httpError(400, "invalid_request", "product: is not one we sell", {
          product: "is not one we sell",
        });
      pricePaise = product.pricePaise;
    } else if (query.combo) {
      const [combo] = await db
        .select({ pricePaise: combos.salePricePaise })
        .from(combos)
        .where(and(eq(combos.id, query.combo), eq(combos.active, true)));
      if (!combo)
        throw httpError(400, "invalid_request", "combo: is not one we sell", { combo: "is not one we sell" });
      pricePaise = combo.pricePaise;
    }
    const [{ place, rule }, codRules, { shipping }] = await Promise.all([
      deliveryTo(db, query.pin, "pin"),
      cachedCodRules(deps),
      rememberSettings(deps),
    ]);
    return c.json(
      checkDelivery({
        place,
        rule,
        codRules,
        totalPaise: query.orderPaise ?? pricePaise + shippingFor(pricePaise, shipping, pricePaise > 0),
        now: new Date(),
      }),
    );
  });
}

/**
 * The owner's delivery rules: PIN codes or prefixes not served, or served without cash on delivery.
 * The guard runs before anything sent is read: 401 signed out, 403 for anyone but the owner.
 */
export function adminDeliveryRuleRoutes(deps: Deps) {
  const { db } = deps;
  return new Hono<{ Variables: { owner: SessionUser } }>()
    .use(ownerOnly(deps))
    .get("/", validate("query", deliveryRuleListQuerySchema), async (c) =>
      c.json(await listDeliveryRules(db, c.req.valid("query"))),
    )
    .put(
      "/:prefix",
      validate("param", deliveryRuleParamSchema),
      validate("json", deliveryRuleInputSchema),
      async (c) => {
        const { rule, created } = await putDeliveryRule(
          db,
          c.req.valid("param").prefix,
          c.req.valid("json"),
          c.get("owner"),
        );
        return c.json(rule, created ? 201 : 200);
      },
    )
    .delete("/:prefix", validate("param", deliveryRuleParamSchema), async (c) => {
      if (!(await deleteDeliveryRule(db, c.req.valid("param").prefix, c.get("owner")))) {
        throw notFound("There is no rule for this prefix.");
      }
      return c.body(null, 204);
    });
}
