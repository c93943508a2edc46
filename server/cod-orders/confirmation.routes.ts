import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import type { SessionUser } from "../../common/account.ts";
import {
  codConfirmActionSchema,
  codConfirmSettingsSchema,
  codConfirmTokenSchema,
  staffCancelSchema,
} from "../../common/cod-confirm.ts";
import { orderNumberSchema, verifyPaymentSchema } from "../../common/schemas/orders.ts";
import { clientAddress } from "../auth/client-address.ts";
import { adminOnly, requireOwner } from "../auth/session.ts";
import { saveConfirmHours } from "../cod/confirm-request.ts";
import { openPayOnlineInstead } from "../cod/pay-online-instead.ts";
import { orders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { verifyOrderPayment } from "../payments/order-payment.ts";
import { validate } from "../validate.ts";
import {
  cancelCodOrder,
  confirmCodOrder,
  listToConfirm,
  orderByLink,
  presentConfirmPage,
} from "./confirmation.ts";

/** The shopper's one-tap link (no sign-in): the order, and Confirm or Cancel (docs/decisions/065). */
export function codConfirmRoutes(deps: Deps) {
  const linked = (c: Context, number: string, token: string) =>
    orderByLink(deps, number, token, clientAddress(c, deps.env) ?? "unknown");
  return (
    new Hono()
      .get(
        "/:number",
        validate("param", orderNumberSchema),
        validate("query", codConfirmTokenSchema),
        async (c) => {
          const order = await linked(c, c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await presentConfirmPage(deps, order));
        },
      )
      .post(
        "/:number/confirm",
        validate("param", orderNumberSchema),
        validate("query", codConfirmTokenSchema),
        validate("json", codConfirmActionSchema),
        async (c) => {
          const order = await linked(c, c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await presentConfirmPage(deps, await confirmCodOrder(deps, order.id, "link")));
        },
      )
      .post(
        "/:number/cancel",
        validate("param", orderNumberSchema),
        validate("query", codConfirmTokenSchema),
        validate("json", codConfirmActionSchema),
        async (c) => {
          const order = await linked(c, c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await presentConfirmPage(deps, await cancelCodOrder(deps, order.id, "link")));
        },
      )
      // "Pay online instead" (docs/decisions/072): the Razorpay Checkout options for the amount due paid online.
      .post(
        "/:number/pay-online",
        validate("param", orderNumberSchema),
        validate("query", codConfirmTokenSchema),
        validate("json", codConfirmActionSchema),
        async (c) => {
          const order = await linked(c, c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await openPayOnlineInstead(deps, order.id));
        },
      )
      .post(
        "/:number/pay-online/verify",
        validate("param", orderNumberSchema),
        validate("query", codConfirmTokenSchema),
        validate("json", verifyPaymentSchema),
        async (c) => {
          const order = await linked(c, c.req.valid("param").number, c.req.valid("query").token);
          return c.json(
            await presentConfirmPage(deps, await verifyOrderPayment(deps, order, c.req.valid("json"))),
          );
        },
      )
  );
}

/** Staff's "to confirm" list: call, confirm, cancel; the owner sets the hours (audited like other changes). */
export function adminCodConfirmRoutes(deps: Deps) {
  const orderId = async (number: string) => {
    const [row] = await deps.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
    if (!row) throw notFound("There is no such order.");
    return row.id;
  };
  return new Hono<{ Variables: { admin: SessionUser } }>()
    .use(adminOnly(deps))
    .get("/", async (c) => {
      return c.json(await listToConfirm(deps.db, deps.env, c.get("admin").role === "owner"));
    })
    .post(
      "/:number/confirm",
      validate("param", orderNumberSchema),
      validate("json", codConfirmActionSchema),
      async (c) => {
        const { id, email } = c.get("admin");
        const order = await confirmCodOrder(deps, await orderId(c.req.valid("param").number), "staff", {
          id,
          email,
        });
        return c.json({ order: { number: order.number, status: order.status } });
      },
    )
    .post(
      "/:number/cancel",
      validate("param", orderNumberSchema),
      validate("json", staffCancelSchema),
      async (c) => {
        const { id, email } = c.get("admin");
        const order = await cancelCodOrder(
          deps,
          await orderId(c.req.valid("param").number),
          "staff",
          { id, email },
          c.req.valid("json").reason || undefined,
        );
        return c.json({ order: { number: order.number, status: order.status } });
      },
    )
    .put("/settings", validate("json", codConfirmSettingsSchema), async (c) => {
      const owner = await requireOwner(deps, c);
      const confirmHours = await saveConfirmHours(deps.db, c.req.valid("json").confirmHours, owner);
      return c.json({ confirmHours });
    });
}
