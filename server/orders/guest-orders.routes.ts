import { and, eq, isNotNull, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import type { OrderDetail } from "../../common/orders.ts";
import {
  cancelOrderSchema,
  findOrderSchema,
  guestOrderSchema,
  guestOrderTokenSchema,
  idempotencyKeySchema,
  orderNumberSchema,
  verifyPaymentSchema,
} from "../../common/schemas/orders.ts";
import { clientAddress } from "../auth/client-address.ts";
import { takeAllowance } from "../auth/throttles.ts";
import { orders, users } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound, tooManyRequests } from "../errors.ts";
import { taxDocumentResponse } from "../invoices/document-download.ts";
import { openOrderPayment, verifyOrderPayment } from "../payments/order-payment.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { validate } from "../validate.ts";
import { guestOrderToken, guestOrderTokenMatches } from "./guest-order-link.ts";
import { enqueueOrderMail } from "./order-mail.ts";
import { cancelAsCustomer } from "./order-status.ts";
import { findOrder, getOrderDetail, type OrderRow } from "./orders.data.ts";
import { placeOrder } from "./place-order.ts";

export const FIND_ORDER_ANSWER =
  "If an order with that number was placed with that e-mail or mobile, we have e-mailed the link to it to the order's e-mail address. It can take a few minutes to arrive.";

/** "Find my order" asks, per client address and per order number, each within 15 minutes. */
export const FIND_ORDER_LIMITS = { perClient: 10, perOrder: 5, minutes: 15 };

/** The Idempotency-Key header every order placement needs, signed in or not. */
export function idempotencyKeyOf(c: Context): string {
  const key = idempotencyKeySchema.safeParse(c.req.header("Idempotency-Key"));
  if (!key.success) {
    const message = key.error.issues[0]?.message ?? "Idempotency-Key header is required";
    throw httpError(400, "idempotency_key_required", message);
  }
  return key.data;
}

/** One ask of Find my order against its limits, counted in the database (so they hold across instances). */
async function takeAsk(deps: Deps, subject: string, max: number): Promise<number | null> {
  const decision = await takeAllowance(deps.db, "find-order", subject, max, FIND_ORDER_LIMITS.minutes);
  return decision.allowed ? null : decision.retryAfterSeconds;
}

/**
 * Orders placed without an account: place one, open one by its signed link, pay for it online or cancel it
 * through that link, and "Find my order", which mails the link again.
 */
export function guestOrderRoutes(deps: Deps) {
  const { db, env } = deps;

  const present = async (order: OrderRow): Promise<OrderDetail> => {
    const detail = await getOrderDetail(db, order, {
      now: new Date(),
      paymentsOpen: razorpayConfig(env) !== null,
    });
    // The link pays for the order and cancels it as the account would; a return needs a conversation with the
    // shop (photos, the parcel's way back), so it goes through the shop or an account.
    return { ...detail, actions: { ...detail.actions, requestReturn: { allowed: false, reason: null } } };
  };

  /**
   * The order a guest's link opens: the token stands in for the session, for one order. An order placed in an
   * account is "not found" here, like a number that does not exist.
   */
  const linkedOrder = async (number: string, token: string): Promise<OrderRow> => {
    const order = await findOrder(db, number);
    if (!order?.guestEmail) throw notFound("There is no order with that number.");
    if (!guestOrderTokenMatches(env, order.id, token)) {
      throw httpError(
        403,
        "invalid_order_link",
        "This link does not open this order. Use Find my order to have the right link e-mailed to you.",
      );
    }
    return order;
  };

  /** The guest's own view: the order, the address it was placed with, and whether that has an account. */
  const guestView = async (order: OrderRow) => {
    const email = order.guestEmail ?? "";
    const [account] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    return {
      order: await present(order),
      email,
      inAccount: order.userId !== null,
      hasAccount: Boolean(account),
    };
  };

  return (
    new Hono()
      .post("/", validate("json", guestOrderSchema), async (c) => {
        const key = idempotencyKeyOf(c);
        const request = c.req.valid("json");
        const placed = await placeOrder(
          deps,
          {
            buyer: {
              kind: "guest",
              email: request.email,
              mobile: request.address.phone,
              items: request.items,
              discountCode: request.discountCode ?? null,
            },
            request,
          },
          key,
        );
        const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
        if (!order) throw notFound("That order could not be found.");
        c.header("Idempotent-Replayed", String(placed.replayed));
        return c.json(
          { ...(await guestView(order)), token: guestOrderToken(env, order.id) },
          placed.replayed ? 200 : 201,
        );
      })
      .post("/find", validate("json", findOrderSchema), async (c) => {
        const { number, contact } = c.req.valid("json");
        const wait =
          (await takeAsk(
            deps,
            `client:${clientAddress(c, env) ?? "unknown"}`,
            FIND_ORDER_LIMITS.perClient,
          )) ?? (await takeAsk(deps, `order:${number}`, FIND_ORDER_LIMITS.perOrder));
        if (wait !== null) {
          throw tooManyRequests(
            "too_many_requests",
            `Too many tries. Please wait ${Math.ceil(wait / 60)} minutes and try again.`,
            wait,
          );
        }
        // The answer is the same whether or not an order matched, so it tells no one which orders exist.
        await db.transaction(async (tx) => {
          const [order] = await tx
            .select({ id: orders.id })
            .from(orders)
            .where(
              and(
                eq(orders.number, number),
                isNotNull(orders.guestEmail),
                "email" in contact && contact.email
                  ? eq(orders.guestEmail, contact.email)
                  : eq(orders.shipPhone, contact.mobile ?? ""),
              ),
            );
          if (order) await enqueueOrderMail(tx, order.id, "link");
        });
        deps.jobs.wake();
        return c.json({ message: FIND_ORDER_ANSWER }, 202);
      })
      .get(
        "/:number",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const order = await linkedOrder(c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await guestView(order));
        },
      )
      // The tax documents, behind the same signed link as the page that offers them.
      .get(
        "/:number/invoice.pdf",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const order = await linkedOrder(c.req.valid("param").number, c.req.valid("query").token);
          return taxDocumentResponse(db, order.id, "invoice");
        },
      )
      .get(
        "/:number/credit-note.pdf",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const order = await linkedOrder(c.req.valid("param").number, c.req.valid("query").token);
          return taxDocumentResponse(db, order.id, "credit_note");
        },
      )
      // Paying online through the same Razorpay path as an account's order; the payment is confirmed by the
      // browser's report or by Razorpay's webhook, whichever comes first.
      .post(
        "/:number/payment",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const order = await linkedOrder(c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await openOrderPayment(deps, order, order.guestEmail ?? ""));
        },
      )
      .post(
        "/:number/payment/verify",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        validate("json", verifyPaymentSchema),
        async (c) => {
          const order = await linkedOrder(c.req.valid("param").number, c.req.valid("query").token);
          return c.json(await guestView(await verifyOrderPayment(deps, order, c.req.valid("json"))));
        },
      )
      .post(
        "/:number/cancel",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        validate("json", cancelOrderSchema),
        async (c) => {
          const order = await linkedOrder(c.req.valid("param").number, c.req.valid("query").token);
          const cancelled = await cancelAsCustomer(
            deps,
            { orderId: order.id },
            null,
            c.req.valid("json").reason,
          );
          return c.json(await guestView(cancelled));
        },
      )
  );
}
