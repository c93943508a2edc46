import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { recordRtoSchema, rtoStatsQuerySchema } from "../../common/rto.ts";
import { orderNumberSchema } from "../../common/schemas/orders.ts";
import { adminOnly } from "../auth/session.ts";
import { orders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { orderRtoView, parcelChargesPaise, receiveRto, recordRtoByHand, rtoStats } from "./rto.ts";

/** Parcels returned to origin (docs/decisions/062): recorded, received back, and the rates by place and customer. */
export function adminRtoRoutes(deps: Deps) {
  const orderOf = async (number: string) => {
    const [order] = await deps.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
    if (!order) throw notFound("There is no order with that number.");
    return order.id;
  };
  const view = async (number: string) => {
    const id = await orderOf(number);
    const [rto, chargesPaise] = await Promise.all([
      orderRtoView(deps.db, id),
      parcelChargesPaise(deps.db, id),
    ]);
    return { rto, chargesPaise };
  };
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use(adminOnly(deps))
    .get("/stats", validate("query", rtoStatsQuerySchema), async (c) =>
      c.json(await rtoStats(deps.db, new Date(), c.req.valid("query"))),
    )
    .get("/orders/:number", validate("param", orderNumberSchema), async (c) =>
      c.json(await view(c.req.valid("param").number)),
    )
    .post(
      "/orders/:number",
      validate("param", orderNumberSchema),
      validate("json", recordRtoSchema),
      async (c) => {
        const { number } = c.req.valid("param");
        await recordRtoByHand(deps, number, c.req.valid("json"), c.get("admin"));
        return c.json(await view(number), 201);
      },
    )
    .post("/orders/:number/received", validate("param", orderNumberSchema), async (c) => {
      const { number } = c.req.valid("param");
      const { received } = await receiveRto(deps, number, c.get("admin"));
      return c.json({ ...(await view(number)), alreadyReceived: !received });
    });
}
