import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { isMobileAccountEmail } from "../common/mobile-account.ts";
import {
  cancelOrderSchema,
  orderListQuerySchema,
  orderNumberSchema,
  placeOrderSchema,
  returnRequestSchema,
  verifyPaymentSchema,
} from "../common/schemas/orders.ts";
import { markFunnelStep } from "./analytics/funnel-count.ts";
import { requireUser } from "./auth/session.ts";
import { codConfirmToken } from "./cod/confirm-link.ts";
import { orders } from "./db/schema.ts";
import type { Deps } from "./deps.ts";
import { notFound } from "./errors.ts";
import { taxDocumentResponse } from "./invoices/document-download.ts";
import { orderWithPayment, type PaidOrder, unpaid } from "./money/ledger.ts";
import { razorpayConfig } from "./money/razorpay.ts";
import { idempotencyKeyOf } from "./orders/idempotency-key.ts";
import { cancelAsCustomer, changeOrderStatus } from "./orders/order-status.ts";
import { findOrder, getOrderDetail, listOrdersOf, presentOrderDetail } from "./orders/orders.data.ts";
import { placeOrder } from "./orders/place-order.ts";
import { openOrderPayment, verifyOrderPayment } from "./payments/order-payment.ts";
import { validate } from "./validate.ts";

const NO_SUCH_ORDER = "There is no order with that number in your account.";

/** The signed-in customer's orders: place one, list them, see one, cancel, request a return, pay online. */
export function orderRoutes(deps: Deps) {
  // The shopper's own order carries its COD confirmation key: the order page confirms it as the link does.
  const present = (order: PaidOrder) =>
    getOrderDetail(deps.db, order, {
      now: new Date(),
      paymentsOpen: razorpayConfig(deps.env) !== null,
      codConfirmToken: codConfirmToken(deps.authSecret, order.id),
    });

  /** Someone else's order is "not found", exactly like a number that does not exist. */
  const ownOrder = async (number: string, userId: string) => {
    const order = await findOrder(deps.db, number, userId);
    if (!order) throw notFound(NO_SUCH_ORDER);
    return order;
  };

  return (
    new Hono()
      .get("/", validate("query", orderListQuerySchema), async (c) => {
        const user = await requireUser(deps, c);
        return c.json(await listOrdersOf(deps.db, user.id, c.req.valid("query")));
      })
      .post("/", validate("json", placeOrderSchema), async (c) => {
        const user = await requireUser(deps, c);
        const key = idempotencyKeyOf(c);
        const placed = await placeOrder(
          deps,
          { buyer: { kind: "account", userId: user.id }, request: c.req.valid("json") },
          key,
        );
        c.header("Idempotent-Replayed", String(placed.replayed));
        markFunnelStep(c, "ordered", placed.placed?.order.id ?? placed.orderId);
        // A new order is answered from what its inserts returned (it has no tax document yet); a replay's is read.
        if (placed.placed) {
          const { order, lines, events } = placed.placed;
          const paymentsOpen = razorpayConfig(deps.env) !== null;
          return c.json(
            {
              order: presentOrderDetail(unpaid(order), lines, events, {
                now: new Date(),
                paymentsOpen,
                codConfirmToken: codConfirmToken(deps.authSecret, order.id),
              }),
            },
            201,
          );
        }
        const [order] = await deps.db
          .select(orderWithPayment)
          .from(orders)
          .where(eq(orders.id, placed.orderId));
        if (!order) throw notFound(NO_SUCH_ORDER);
        return c.json({ order: await present(order) }, 200);
      })
      .get("/:number", validate("param", orderNumberSchema), async (c) => {
        const user = await requireUser(deps, c);
        return c.json({ order: await present(await ownOrder(c.req.valid("param").number, user.id)) });
      })
      // The order's tax invoice and credit note: another person's order is "not found" like any other.
      .get("/:number/invoice.pdf", validate("param", orderNumberSchema), async (c) => {
        const user = await requireUser(deps, c);
        const order = await ownOrder(c.req.valid("param").number, user.id);
        return taxDocumentResponse(deps.db, order.id, "invoice");
      })
      .get("/:number/credit-note.pdf", validate("param", orderNumberSchema), async (c) => {
        const user = await requireUser(deps, c);
        const order = await ownOrder(c.req.valid("param").number, user.id);
        return taxDocumentResponse(deps.db, order.id, "credit_note");
      })
      .post(
        "/:number/cancel",
        validate("param", orderNumberSchema),
        validate("json", cancelOrderSchema),
        async (c) => {
          const user = await requireUser(deps, c);
          const { number } = c.req.valid("param");
          await ownOrder(number, user.id);
          const order = await cancelAsCustomer(
            deps,
            { number, userId: user.id },
            user.id,
            c.req.valid("json").reason,
          );
          return c.json({ order: await present(order) });
        },
      )
      .post(
        "/:number/return",
        validate("param", orderNumberSchema),
        validate("json", returnRequestSchema),
        async (c) => {
          const user = await requireUser(deps, c);
          const { number } = c.req.valid("param");
          await ownOrder(number, user.id);
          const order = await changeOrderStatus(
            deps,
            { number, userId: user.id },
            {
              to: "return_requested",
              actor: "customer",
              actorUserId: user.id,
              note: `Reason: ${c.req.valid("json").reason}`,
            },
          );
          return c.json({ order: await present(order) });
        },
      )
      .post("/:number/payment", validate("param", orderNumberSchema), async (c) => {
        const user = await requireUser(deps, c);
        const order = await ownOrder(c.req.valid("param").number, user.id);
        // An account made with a mobile has only a stand-in address (decision 042): Checkout asks for none then.
        const email = isMobileAccountEmail(user.email) ? "" : user.email;
        return c.json(await openOrderPayment(deps, order, email));
      })
      .post(
        "/:number/payment/verify",
        validate("param", orderNumberSchema),
        validate("json", verifyPaymentSchema),
        async (c) => {
          const user = await requireUser(deps, c);
          const order = await ownOrder(c.req.valid("param").number, user.id);
          return c.json({ order: await present(await verifyOrderPayment(deps, order, c.req.valid("json"))) });
        },
      )
  );
}
