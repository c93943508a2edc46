import { Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import { editOrderAddressSchema, editOrderItemsSchema } from "../../common/schemas/order-edit.ts";
import { orderNumberSchema } from "../../common/schemas/orders.ts";
import { adminOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { validate } from "../validate.ts";
import { getAdminOrderDetail } from "./admin-orders.data.ts";
import { editOrderAddress, editOrderItems } from "./edit-order.ts";

/**
 * Staff (and the owner) correct an order before it is packed: its address or its items (docs/decisions/061).
 * 401 signed out and 403 for customers before anything sent is read; each change is audited.
 */
export function adminOrderEditRoutes(deps: Deps) {
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use("/:number/address", adminOnly(deps))
    .use("/:number/items", adminOnly(deps))
    .put(
      "/:number/address",
      validate("param", orderNumberSchema),
      validate("json", editOrderAddressSchema),
      async (c) => {
        const { number } = c.req.valid("param");
        const result = await editOrderAddress(deps, number, c.req.valid("json"), c.get("admin"));
        return c.json({ result, order: await getAdminOrderDetail(deps.db, number, new Date()) });
      },
    )
    .put(
      "/:number/items",
      validate("param", orderNumberSchema),
      validate("json", editOrderItemsSchema),
      async (c) => {
        const { number } = c.req.valid("param");
        const result = await editOrderItems(deps, number, c.req.valid("json"), c.get("admin"));
        return c.json({ result, order: await getAdminOrderDetail(deps.db, number, new Date()) });
      },
    );
}
