import { and, eq, isNull } from "drizzle-orm";
import { Hono } from "hono";
import type { RazorpayCheckout } from "../../common/orders.ts";
import {
  cancelOrderSchema,
  orderListQuerySchema,
  orderNumberSchema,
  placeOrderSchema,
  returnRequestSchema,
  verifyPaymentSchema,
} from "../../common/schemas/orders.ts";
import { requireUser } from "../auth/session.ts";
import { orders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { taxDocumentResponse } from "../invoices/document-download.ts";
import { createRazorpayOrder, razorpayConfig, verifyPaymentSignature } from "../payments/razorpay.ts";
import { validate } from "../validate.ts";
import { idempotencyKeyOf } from "./guest-orders.routes.ts";
import {
  changeOrderStatus,
  confirmRazorpayPayment,
  lapseUnpaidOrder,
  paymentDeadline,
} from "./order-status.ts";
import { findOrder, getOrderDetail, listOrdersOf, type OrderRow } from "./orders.data.ts";
import { placeOrder } from "./place-order.ts";

const NO_SUCH_ORDER = "There is no order with that number in your account.";

/** The signed-in customer's orders: place one, list them, see one, cancel, request a return, pay online. */
export function orderRoutes(deps: Deps) {
  const present = (order: OrderRow) =>
    getOrderDetail(deps.db, order, { now: new Date(), paymentsOpen: razorpayConfig(deps.env) !== null });

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
        const [order] = await deps.db.select().from(orders).where(eq(orders.id, placed.orderId));
        if (!order) throw notFound(NO_SUCH_ORDER);
        c.header("Idempotent-Replayed", String(placed.replayed));
        return c.json({ order: await present(order) }, placed.replayed ? 200 : 201);
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
          const { reason } = c.req.valid("json");
          await ownOrder(number, user.id);
          const order = await changeOrderStatus(
            deps,
            { number, userId: user.id },
            {
              to: "cancelled",
              actor: "customer",
              actorUserId: user.id,
              note: reason ? `Reason: ${reason}` : null,
            },
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
        let order = await ownOrder(c.req.valid("param").number, user.id);
        const config = razorpayConfig(deps.env);
        if (!config)
          throw httpError(503, "payment_unavailable", "Online payment is not available at the moment.");
        if (order.paymentMethod !== "razorpay" || order.status !== "awaiting_payment") {
          throw httpError(409, "not_awaiting_payment", "This order is not waiting for an online payment.");
        }
        if (!order.razorpayOrderId) {
          // Past its first hold without Checkout ever opened, the order lapses now rather than at the next sweep.
          const deadline = paymentDeadline(deps.env, order);
          if (deadline.at <= new Date() && (await lapseUnpaidOrder(deps, order.id))) {
            throw httpError(
              409,
              "payment_window_over",
              `This order was not paid within ${deadline.minutes} minutes, so it has been cancelled and its items put back on the shelf. Please place it again.`,
            );
          }
          const created = await createRazorpayOrder(config, {
            amountPaise: order.totalPaise,
            receipt: order.number,
            orderId: order.id,
          });
          // Two tabs asking at once: the first id stored wins, the other Razorpay order is simply never paid.
          // Only while the order still waits: one that lapsed meanwhile gets no Checkout.
          const [stored] = await deps.db
            .update(orders)
            .set({ razorpayOrderId: created.id })
            .where(
              and(
                eq(orders.id, order.id),
                isNull(orders.razorpayOrderId),
                eq(orders.status, "awaiting_payment"),
              ),
            )
            .returning();
          order = stored ?? (await ownOrder(order.number, user.id));
          if (order.status !== "awaiting_payment") {
            throw httpError(409, "not_awaiting_payment", "This order is not waiting for an online payment.");
          }
        }
        const elapsedSeconds = Math.floor((Date.now() - order.createdAt.getTime()) / 1000);
        const checkout: RazorpayCheckout = {
          keyId: config.keyId,
          scriptUrl: config.checkoutUrl,
          razorpayOrderId: order.razorpayOrderId ?? "",
          amountPaise: order.totalPaise,
          currency: "INR",
          shopName: deps.env.SHOP_NAME,
          description: `Order ${order.number}`,
          prefill: { name: order.shipName, email: user.email, contact: order.shipPhone },
          timeoutSeconds: Math.max(60, deps.env.PAYMENT_WINDOW_MINUTES * 60 - elapsedSeconds),
        };
        return c.json(checkout);
      })
      .post(
        "/:number/payment/verify",
        validate("param", orderNumberSchema),
        validate("json", verifyPaymentSchema),
        async (c) => {
          const user = await requireUser(deps, c);
          const order = await ownOrder(c.req.valid("param").number, user.id);
          const payment = c.req.valid("json");
          const config = razorpayConfig(deps.env);
          if (!config)
            throw httpError(503, "payment_unavailable", "Online payment is not available at the moment.");
          // The signature is checked against the Razorpay order this shop created, never the one the browser names.
          if (
            !order.razorpayOrderId ||
            payment.razorpayOrderId !== order.razorpayOrderId ||
            !verifyPaymentSignature(
              config.keySecret,
              order.razorpayOrderId,
              payment.razorpayPaymentId,
              payment.razorpaySignature,
            )
          ) {
            throw httpError(400, "invalid_payment_signature", "The payment could not be verified.");
          }
          const confirmed = await confirmRazorpayPayment(deps, {
            razorpayOrderId: order.razorpayOrderId,
            paymentId: payment.razorpayPaymentId,
            via: "browser",
          });
          return c.json({ order: await present(confirmed?.order ?? order) });
        },
      )
  );
}
