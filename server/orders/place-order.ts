import { createHash, randomUUID } from "node:crypto";
import { and, eq, gte, isNull, or, sql } from "drizzle-orm";
import { type CodSettings, codProblem, notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import { DISCOUNT_LIMIT_MESSAGES, usedUpMessage } from "../../common/discount.ts";
import { indianWallClock } from "../../common/india-time.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import type { Address } from "../../common/schemas/address.ts";
import type { GuestOrderRequest, PlaceOrderRequest } from "../../common/schemas/orders.ts";
import { isUniqueViolation } from "../db/client.ts";
import {
  addresses,
  cartItems,
  carts,
  combos,
  guestOrderRequests,
  orderEvents,
  orderLines,
  orderNumbers,
  orderRequests,
  orders,
  products,
} from "../db/schema.ts";
import { deliveryTo } from "../delivery/delivery.data.ts";
import { loadPinDirectory } from "../delivery/pin-directory.ts";
import type { Deps } from "../deps.ts";
import { claimCodeUse, spendAccountUse, takeCustomerUse } from "../discounts/discounts.data.ts";
import { httpError } from "../errors.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { enqueueOrderMail } from "./order-mail.ts";
import { type Buyer, guestContacts, loadCartForOrder } from "./pricing.ts";

/** PN-2026-000123: the year in India and a running number. */
export function formatOrderNumber(placedAt: Date, sequence: number) {
  const year = indianWallClock(placedAt).getUTCFullYear();
  return `PN-${year}-${String(sequence).padStart(6, "0")}`;
}

/**
 * What is being ordered, by whom: a signed-in shopper names a saved address and orders the saved cart; a
 * guest sends the address, e-mail and the cart kept in the browser. Both go through placeOrder.
 */
export type OrderPlacement =
  | { buyer: Extract<Buyer, { kind: "account" }>; request: PlaceOrderRequest }
  | { buyer: Extract<Buyer, { kind: "guest" }>; request: GuestOrderRequest };

const isAccountOrder = (
  placement: OrderPlacement,
): placement is Extract<OrderPlacement, { buyer: { kind: "account" } }> => placement.buyer.kind === "account";

/** The same request always hashes the same, whatever order its fields came in. */
function hashRequest({ buyer, request }: OrderPlacement) {
  const fields =
    buyer.kind === "account"
      ? [(request as PlaceOrderRequest).addressId, request.paymentMethod]
      : [
          "guest",
          buyer.email,
          request.paymentMethod,
          Object.entries((request as GuestOrderRequest).address).sort(),
          [...buyer.items].map((item) => [item.id, item.kind, item.quantity]).sort(),
          buyer.discountCode,
        ];
  return createHash("sha256").update(JSON.stringify(fields)).digest("hex");
}

function paymentPending(number: string | undefined) {
  return httpError(
    409,
    "payment_pending",
    `${number ? `Your order ${number}` : "One of your orders"} is still waiting for payment. Pay for it or cancel it in My Orders before placing another order paid online.`,
  );
}

/** Cash on delivery is offered when switched on and the order is within the limit. */
export function codAvailable(env: Deps["env"], totalPaise: number) {
  return env.COD_ENABLED && totalPaise <= env.COD_MAX_ORDER_PAISE;
}

export const codSettings = (env: Deps["env"]): CodSettings => ({
  enabled: env.COD_ENABLED,
  maxOrderPaise: env.COD_MAX_ORDER_PAISE,
});

/**
 * Places an order, signed in or as a guest, once per Idempotency-Key, in one transaction: re-price the
 * locked cart, take the stock, spend the discount code's use, write the order with its lines and first
 * event, empty the saved cart. Returns the order id and whether this was a replay.
 */
export async function placeOrder(
  deps: Deps,
  placement: OrderPlacement,
  key: string,
): Promise<{ orderId: string; replayed: boolean }> {
  const { db, env } = deps;
  const { buyer } = placement;
  const body = placement.request;
  const userId = buyer.kind === "account" ? buyer.userId : null;
  const requestHash = hashRequest(placement);
  // Read before the transaction opens, so no connection is held while a new instance reads the file.
  await loadPinDirectory();
  const result = await db
    .transaction(async (tx) => {
      // A concurrent request with the same key waits here on the primary key until this one commits or fails.
      const claimed = userId
        ? await tx
            .insert(orderRequests)
            .values({ userId, key, requestHash })
            .onConflictDoNothing()
            .returning({ key: orderRequests.key })
        : await tx
            .insert(guestOrderRequests)
            .values({ key, requestHash })
            .onConflictDoNothing()
            .returning({ key: guestOrderRequests.key });
      if (claimed.length === 0) {
        const [earlier] = userId
          ? await tx
              .select()
              .from(orderRequests)
              .where(and(eq(orderRequests.userId, userId), eq(orderRequests.key, key)))
          : await tx.select().from(guestOrderRequests).where(eq(guestOrderRequests.key, key));
        if (!earlier?.orderId) {
          throw httpError(
            409,
            "request_in_progress",
            "This order is still being placed. Please wait a moment.",
          );
        }
        if (earlier.requestHash !== requestHash) {
          throw httpError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different order request.",
          );
        }
        return { orderId: earlier.orderId, replayed: true, mail: false };
      }

      // Guest placements paid online with one e-mail or one mobile queue here, before any stock row is locked
      // (always the e-mail first, so two never wait on each other), and so see each other's waiting orders.
      if (buyer.kind === "guest" && body.paymentMethod === "razorpay") {
        for (const contact of guestContacts(buyer)) {
          await tx.execute(
            sql`select pg_advisory_xact_lock(hashtextextended(${`guest-unpaid:${contact}`}, 0))`,
          );
        }
      }

      let address: Address & { id: string | null };
      if (isAccountOrder(placement)) {
        const addressId = placement.request.addressId;
        const [saved] = await tx
          .select()
          .from(addresses)
          .where(and(eq(addresses.id, addressId), eq(addresses.userId, placement.buyer.userId)));
        if (!saved) {
          throw httpError(400, "invalid_request", "addressId: is not one of your saved addresses", {
            addressId: "is not one of your saved addresses",
          });
        }
        address = { ...saved, state: saved.state as Address["state"] };
      } else {
        address = { ...(placement.request as GuestOrderRequest).address, id: null };
      }

      // The directory and the owner's rules, as at checkout: an address saved before either changed is held to them now.
      const delivery = await deliveryTo(
        tx,
        address.pin,
        isAccountOrder(placement) ? "addressId" : "address.pin",
      );
      if (delivery.rule?.rule === "not_served") {
        const message = notServedMessage(delivery.place);
        const field = isAccountOrder(placement) ? "addressId" : "address.pin";
        throw httpError(422, "not_served", message, { [field]: message });
      }

      const { pricing, usesPerCustomer } = await loadCartForOrder(tx, env, buyer, { lock: true });
      const [problem] = pricing.problems;
      if (problem) {
        throw httpError(
          409,
          problem.reason,
          problem.message,
          Object.fromEntries(pricing.problems.map((each) => [each.itemId, each.message])),
        );
      }
      if (pricing.lines.length === 0) {
        throw httpError(409, "cart_empty", "Your cart is empty. Add something before checking out.");
      }
      if (pricing.discountProblem) {
        const { code, message } = pricing.discountProblem;
        throw httpError(
          409,
          "discount_unavailable",
          `${message}: ${code}. Remove the code from your cart to order without it.`,
        );
      }

      let status: OrderStatus;
      if (body.paymentMethod === "cod") {
        const problem = codProblem(codSettings(env), pricing.totalPaise, delivery.rule, address.pin);
        if (problem) throw httpError(422, "cod_unavailable", problem);
        status = "placed";
      } else {
        if (!razorpayConfig(env)) {
          throw httpError(422, "payment_unavailable", "Online payment is not available at the moment.");
        }
        // One waiting online payment per account (decision 020). Placements of one account queue on the cart
        // lock above, so this sees any committed before; the partial unique index is the last guard. A guest
        // pays through the order's signed link (docs/decisions/045); an unpaid guest order lapses like any.
        if (userId) {
          const [waiting] = await tx
            .select({ number: orders.number })
            .from(orders)
            .where(and(eq(orders.userId, userId), eq(orders.status, "awaiting_payment")));
          if (waiting) throw paymentPending(waiting.number);
        } else if (buyer.kind === "guest") {
          // And one per guest e-mail and per guest mobile (docs/decisions/050), queued on the locks above. The
          // answer names no order: whoever typed the e-mail may not be the one who placed it.
          const [waiting] = await tx
            .select({ id: orders.id })
            .from(orders)
            .where(
              and(
                isNull(orders.userId),
                eq(orders.status, "awaiting_payment"),
                or(eq(orders.guestEmail, buyer.email), eq(orders.shipPhone, buyer.mobile)),
              ),
            )
            .limit(1);
          if (waiting) {
            throw httpError(
              409,
              "payment_pending",
              `An order placed with this e-mail or mobile is still waiting for online payment. Pay for it through its link, let it lapse (${env.PAYMENT_HOLD_MINUTES} minutes if its payment was never started), or pay this one on delivery.`,
            );
          }
        }
        // An unpaid order holds its stock until it lapses: it may hold only so much of any one item, so no
        // one can keep a product from everyone else by never paying (docs/decisions/050).
        const held = Object.fromEntries(
          pricing.lines
            .filter((line) => line.quantity > env.UNPAID_ORDER_MAX_UNITS)
            .map((line) => [line.itemId, `at most ${env.UNPAID_ORDER_MAX_UNITS} when paying online`]),
        );
        if (Object.keys(held).length > 0) {
          throw httpError(
            422,
            "unpaid_quantity_limit",
            `An order paid online can hold at most ${env.UNPAID_ORDER_MAX_UNITS} of one item while it waits for payment. Lower the quantity, or pay on delivery.`,
            held,
          );
        }
        status = "awaiting_payment";
      }

      const now = new Date();
      const orderId = randomUUID();
      const sequence = Number(
        (await tx.execute<{ n: string }>(sql`select nextval(${orderNumbers.seqName}) as n`)).rows[0]?.n,
      );
      const estimate = estimateDelivery(now);
      await tx.insert(orders).values({
        id: orderId,
        number: formatOrderNumber(now, sequence),
        userId,
        guestEmail: buyer.kind === "guest" ? buyer.email : null,
        status,
        paymentMethod: body.paymentMethod,
        subtotalPaise: pricing.subtotalPaise,
        discountCode: pricing.discount?.code ?? null,
        discountPaise: pricing.discount?.amountPaise ?? 0,
        shippingPaise: pricing.shippingPaise,
        totalPaise: pricing.totalPaise,
        shipName: address.name,
        shipPhone: address.phone,
        shipLine1: address.line1,
        shipLine2: address.line2,
        shipCity: address.city,
        // What the form sent (filled from the PIN), else the directory's, as saving an address does.
        shipDistrict: address.district || delivery.place.district || null,
        shipState: address.state,
        shipPin: address.pin,
        estimatedDeliveryFrom: estimate.from,
        estimatedDeliveryTo: estimate.to,
        hasPerishables: pricing.lines.some((line) => line.perishable),
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(orderLines).values(
        pricing.lines.map((line, position) => ({
          orderId,
          position,
          itemId: line.itemId,
          kind: line.kind,
          name: line.name,
          image: line.image,
          unitPricePaise: line.unitPricePaise,
          quantity: line.quantity,
          lineTotalPaise: line.lineTotalPaise,
          perishable: line.perishable,
        })),
      );
      await tx.insert(orderEvents).values({
        orderId,
        fromStatus: null,
        toStatus: status,
        actor: "customer",
        actorUserId: userId,
        note: status === "placed" ? "Cash on delivery" : "Waiting for online payment",
        createdAt: now,
      });

      // The rows are locked, so these cannot fail on stock; the condition keeps it so even if that ever changes.
      for (const line of pricing.lines) {
        const table = line.kind === "product" ? products : combos;
        const id = line.kind === "product" ? products.slug : combos.id;
        const taken = await tx
          .update(table)
          .set({ stock: sql`${table.stock} - ${line.quantity}` })
          .where(and(eq(id, line.itemId), gte(table.stock, line.quantity)))
          .returning({ stock: table.stock });
        if (taken.length === 0) {
          throw httpError(
            409,
            "out_of_stock",
            `${line.name} is out of stock. Please remove it from your cart.`,
            {
              [line.itemId]: "out of stock",
            },
          );
        }
      }

      if (pricing.discount) {
        const { code } = pricing.discount;
        // The use taken when the code was applied in the cart (or a new one within the limit) now belongs to
        // this order. A guest's is taken under the e-mail and the mobile: both must have one left (the
        // numbered primary key decides between orders placed at the same moment, decision 046).
        let spent = true;
        if (buyer.kind === "account") {
          spent = await spendAccountUse(tx, buyer.userId, code, usesPerCustomer, orderId);
        } else {
          for (const contact of guestContacts(buyer)) {
            spent &&= await takeCustomerUse(tx, { contact }, code, usesPerCustomer, orderId);
          }
        }
        if (!spent) {
          throw httpError(
            409,
            "discount_unavailable",
            `${usedUpMessage(usesPerCustomer)}: ${code}. Remove the code from your cart to order without it.`,
          );
        }
        if (!(await claimCodeUse(tx, pricing.discount.code))) {
          throw httpError(
            409,
            "discount_unavailable",
            `${DISCOUNT_LIMIT_MESSAGES.limitReached}: ${pricing.discount.code}. Remove the code from your cart to order without it.`,
          );
        }
      }

      if (userId) {
        await tx.delete(cartItems).where(eq(cartItems.userId, userId));
        await tx
          .update(carts)
          .set({ discountCode: null, version: sql`${carts.version} + 1` })
          .where(eq(carts.userId, userId));
        await tx
          .update(orderRequests)
          .set({ orderId })
          .where(and(eq(orderRequests.userId, userId), eq(orderRequests.key, key)));
        if (address.id)
          await tx.update(addresses).set({ lastUsedAt: now }).where(eq(addresses.id, address.id));
      } else {
        // The guest's cart is in the browser, which empties it once the order is answered.
        await tx.update(guestOrderRequests).set({ orderId }).where(eq(guestOrderRequests.key, key));
      }
      // Online orders are announced once paid (see confirmRazorpayPayment).
      if (status === "placed") await enqueueOrderMail(tx, orderId, "placed");
      return { orderId, replayed: false, mail: status === "placed" };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "orders_one_awaiting_payment_per_user")) throw paymentPending(undefined);
      throw error;
    });

  if (result.mail) deps.jobs.wake();
  return { orderId: result.orderId, replayed: result.replayed };
}
