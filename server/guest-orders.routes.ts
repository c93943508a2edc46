import { and, eq, isNotNull, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import type { OrderDetail } from "../common/orders.ts";
import {
  cancelOrderSchema,
  claimGuestOrderSchema,
  findOrderSchema,
  guestOrderSchema,
  guestOrderTokenSchema,
  orderNumberSchema,
  verifyPaymentSchema,
} from "../common/schemas/orders.ts";
import { markFunnelStep } from "./analytics/funnel-count.ts";
import { clientAddress } from "./auth/client-address.ts";
import { currentUser, requireUser } from "./auth/session.ts";
import { codConfirmToken } from "./cod/confirm-link.ts";
import { guestOrderRequests, orders, users } from "./db/schema.ts";
import type { Deps } from "./deps.ts";
import { httpError, notFound } from "./errors.ts";
import { taxDocumentResponse } from "./invoices/document-download.ts";
import { enqueueJob } from "./jobs/job-queue.ts";
import { orderWithPayment, type PaidOrder, unpaid } from "./money/ledger.ts";
import { razorpayConfig } from "./money/razorpay.ts";
import { claimGuestOrder } from "./orders/claim-guest-orders.ts";
import { openGuestOrderLink, waitMinutes } from "./orders/guest-order-access.ts";
import { guestOrderClaimMatches, guestOrderToken } from "./orders/guest-order-link.ts";
import { idempotencyKeyOf } from "./orders/idempotency-key.ts";
import { enqueueOrderMail } from "./orders/order-mail.ts";
import { ORDER_LINK_SMS_JOB } from "./orders/order-sms.ts";
import { cancelAsCustomer } from "./orders/order-status.ts";
import { getOrderDetail } from "./orders/orders.data.ts";
import { placeOrder } from "./orders/place-order.ts";
import { openOrderPayment, verifyOrderPayment } from "./payments/order-payment.ts";
import { MINUTE_MS, requireAllowance } from "./throttles/throttle.ts";
import { validate } from "./validate.ts";

export const FIND_ORDER_ANSWER =
  "If an order with that number was placed with that e-mail or mobile, we have e-mailed the link to it to the order's e-mail address. It can take a few minutes to arrive.";

/** The answer to a mobile: the same whether or not an order matched, so it tells no one which orders exist. */
export const FIND_ORDER_ANSWER_BY_MOBILE =
  "If an order with that number was placed with that mobile, we have sent the link to it by SMS to that mobile and by e-mail to the order's e-mail address. It can take a few minutes to arrive.";

/** "Find my order" asks, per client address and per order number, each within 15 minutes. */
export const FIND_ORDER_LIMITS = { perClient: 10, perOrder: 5, minutes: 15 };

/** One ask of Find my order against one of its limits, counted in the database (so they hold across instances). */
const takeAsk = (deps: Deps, subject: string, max: number) =>
  requireAllowance(deps.db, `find-order:${subject}`, max, FIND_ORDER_LIMITS.minutes * MINUTE_MS, (wait) => ({
    code: "too_many_requests",
    message: `Too many tries. Please wait ${Math.ceil(wait / 60)} minutes and try again.`,
  }));

/** The order as its guest sees it through the link: as an account's order, but for asking for a return. */
async function presentGuestOrder(deps: Deps, order: PaidOrder): Promise<OrderDetail> {
  const detail = await getOrderDetail(deps.db, order, {
    now: new Date(),
    paymentsOpen: razorpayConfig(deps.env) !== null,
    codConfirmToken: codConfirmToken(deps.authSecret, order.id),
  });
  // The link pays for the order and cancels it as the account would; a return needs a conversation with the
  // shop (photos, the parcel's way back), so it goes through the shop or an account.
  return { ...detail, actions: { ...detail.actions, requestReturn: { allowed: false, reason: null } } };
}

/**
 * Counts a guest placement against the client address, the e-mail and the mobile (docs/decisions/050), in
 * the database so the limits hold across instances. A retry of a placement already made (same
 * Idempotency-Key) is not counted again: it places nothing.
 */
async function takePlacement({ db, env }: Deps, c: Context, key: string, email: string, mobile: string) {
  const [earlier] = await db
    .select({ orderId: guestOrderRequests.orderId })
    .from(guestOrderRequests)
    .where(eq(guestOrderRequests.key, key));
  if (earlier?.orderId) return;
  const limits: [string, number][] = [
    [`guest-order:client:${clientAddress(c, env) ?? "unknown"}`, env.GUEST_ORDER_PER_CLIENT],
    [`guest-order:email:${email}`, env.GUEST_ORDER_PER_CONTACT],
    [`guest-order:mobile:${mobile}`, env.GUEST_ORDER_PER_CONTACT],
  ];
  for (const [key, max] of limits) {
    // One message for the three limits: which one was reached would tell a stranger how an e-mail or a
    // mobile has been used.
    await requireAllowance(db, key, max, env.GUEST_ORDER_WINDOW_MINUTES * MINUTE_MS, (wait) => ({
      code: "too_many_orders",
      message: `Too many orders have been placed from here, or with this e-mail or mobile, in a short time. Please try again in ${waitMinutes(wait)}, or sign in to order.`,
    }));
  }
}

/**
 * The guest's own view: the order, the address it was placed with, whether it is in an account, and whether
 * the person asking may add it to theirs now (signed in to the confirmed account with the order's address).
 * Nothing here says whether any other account has that address.
 */
async function guestView(deps: Deps, c: Context, order: PaidOrder) {
  const email = order.guestEmail ?? "";
  const user = order.userId ? null : await currentUser(deps, c);
  return {
    order: await presentGuestOrder(deps, order),
    email,
    inAccount: order.userId !== null,
    canAddToAccount: user !== null && (await confirmedAccountWith(deps.db, email)) === user.id,
  };
}

/** The id of the account whose confirmed address this is, if any. */
async function confirmedAccountWith(db: Deps["db"], email: string): Promise<string | null> {
  const [account] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, eq(users.emailVerified, true)))
    .limit(1);
  return account?.id ?? null;
}

/**
 * Orders placed without an account: place one, open one by its signed link, pay for it online or cancel it
 * through that link, add it to an account, and "Find my order", which mails the link again.
 */
export function guestOrderRoutes(deps: Deps) {
  return new Hono()
    .route("/", placeAndFindRoutes(deps))
    .route("/", linkedOrderRoutes(deps))
    .route("/", payOrCancelRoutes(deps))
    .route("/", claimRoutes(deps));
}

/** Placing a guest order, and "Find my order", which mails (or texts) its link again. */
function placeAndFindRoutes(deps: Deps) {
  const { db, env } = deps;
  return new Hono()
    .post("/", validate("json", guestOrderSchema), async (c) => {
      const key = idempotencyKeyOf(c);
      const request = c.req.valid("json");
      await takePlacement(deps, c, key, request.email, request.address.phone);
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
      // A new order's row comes from its insert; a replay's is read.
      const [order] = placed.placed
        ? [unpaid(placed.placed.order)]
        : await db.select(orderWithPayment).from(orders).where(eq(orders.id, placed.orderId));
      if (!order) throw notFound("That order could not be found.");
      markFunnelStep(c, "ordered", order.id);
      c.header("Idempotent-Replayed", String(placed.replayed));
      return c.json(
        { ...(await guestView(deps, c, order)), token: guestOrderToken(env, order.id) },
        placed.replayed ? 200 : 201,
      );
    })
    .post("/find", validate("json", findOrderSchema), async (c) => {
      const { number, contact } = c.req.valid("json");
      await takeAsk(deps, `client:${clientAddress(c, env) ?? "unknown"}`, FIND_ORDER_LIMITS.perClient);
      await takeAsk(deps, `order:${number}`, FIND_ORDER_LIMITS.perOrder);
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
        if (!order) return;
        await enqueueOrderMail(tx, order.id, "link");
        if ("mobile" in contact)
          await enqueueJob(tx, { kind: ORDER_LINK_SMS_JOB, payload: { orderId: order.id } });
      });
      deps.jobs.wake();
      return c.json({ message: "mobile" in contact ? FIND_ORDER_ANSWER_BY_MOBILE : FIND_ORDER_ANSWER }, 202);
    });
}

/** What the signed link opens: the order and its tax documents. */
function linkedOrderRoutes(deps: Deps) {
  const { db } = deps;
  return (
    new Hono()
      .get(
        "/:number",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          return c.json(await guestView(deps, c, order));
        },
      )
      // The tax documents, behind the same signed link as the page that offers them.
      .get(
        "/:number/invoice.pdf",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          return taxDocumentResponse(db, order.id, "invoice");
        },
      )
      .get(
        "/:number/credit-note.pdf",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          return taxDocumentResponse(db, order.id, "credit_note");
        },
      )
  );
}

/** Paying for the order online, or cancelling it, through its signed link. */
function payOrCancelRoutes(deps: Deps) {
  return (
    new Hono()
      // Paying online through the same Razorpay path as an account's order; the payment is confirmed by the
      // browser's report or by Razorpay's webhook, whichever comes first.
      .post(
        "/:number/payment",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          return c.json(await openOrderPayment(deps, order, order.guestEmail ?? ""));
        },
      )
      .post(
        "/:number/payment/verify",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        validate("json", verifyPaymentSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          return c.json(await guestView(deps, c, await verifyOrderPayment(deps, order, c.req.valid("json"))));
        },
      )
      .post(
        "/:number/cancel",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        validate("json", cancelOrderSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          const cancelled = await cancelAsCustomer(
            deps,
            { orderId: order.id },
            null,
            c.req.valid("json").reason,
          );
          return c.json(await guestView(deps, c, cancelled));
        },
      )
  );
}

/**
 * Which account a guest order may be added to: with the link mailed to its address, the confirmed account with
 * that address; otherwise the signed-in account, only if it is that one.
 */
async function claimingAccount(deps: Deps, c: Context, order: PaidOrder, claim: string | undefined) {
  const email = order.guestEmail ?? "";
  if (claim !== undefined) {
    if (!guestOrderClaimMatches(deps.env, order.id, claim)) {
      throw httpError(
        403,
        "invalid_claim_link",
        "This is not the link we e-mailed for this order. Open the link in the order's e-mail.",
      );
    }
    const accountId = await confirmedAccountWith(deps.db, email);
    // Said only to whoever holds the mailed link, that is the mailbox's owner.
    if (!accountId) {
      throw httpError(
        409,
        "no_account",
        `There is no confirmed account with ${email} yet. Create one with this address, confirm it, then use the link in the order's e-mail again.`,
      );
    }
    return accountId;
  }
  const user = await requireUser(deps, c);
  const accountId = await confirmedAccountWith(deps.db, email);
  if (accountId !== user.id) {
    throw httpError(
      403,
      "not_your_address",
      "This order was placed with another e-mail address. The link in the order's e-mail adds it to the account with that address.",
    );
  }
  return accountId;
}

function claimRoutes(deps: Deps) {
  return (
    new Hono()
      // Adding the order to an account, only as the owner of its e-mail address asks (docs/decisions/050): with
      // the link mailed to that address, or signed in to the confirmed account that has it.
      .post(
        "/:number/claim",
        validate("param", orderNumberSchema),
        validate("query", guestOrderTokenSchema),
        validate("json", claimGuestOrderSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
          const accountId = await claimingAccount(deps, c, order, c.req.valid("json").claim);
          const outcome = await claimGuestOrder(deps.db, accountId, order.id);
          if (outcome === "awaiting_payment") {
            throw httpError(
              409,
              "payment_pending",
              "This order is waiting for payment. Pay for it first, then add it to your account.",
            );
          }
          if (outcome === "in_another_account") {
            throw httpError(409, "order_in_account", "This order is already in an account.");
          }
          const [moved] = await deps.db.select(orderWithPayment).from(orders).where(eq(orders.id, order.id));
          return c.json(await guestView(deps, c, moved ?? order));
        },
      )
  );
}
