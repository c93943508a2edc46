import { createHash, randomUUID } from "node:crypto";
import { and, eq, gte, isNull, or, sql } from "drizzle-orm";
import { notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import { DISCOUNT_LIMIT_MESSAGES, usedUpMessage } from "../../common/discount.ts";
import { indianWallClock } from "../../common/india-time.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import { type OrderPricing, orderPricingOf } from "../../common/order-pricing.ts";
import type { PaymentMethod } from "../../common/orders.ts";
import type { Address } from "../../common/schemas/address.ts";
import type { GuestOrderRequest, PlaceOrderRequest } from "../../common/schemas/orders.ts";
import { type Buyer, guestContacts, loadPricedCart } from "../cart/priced-cart.ts";
import { decideCod, readCodRules, readPrepaidIncentive } from "../cod/cod-rules.ts";
import { askToConfirm, codConfirmDeadline } from "../cod/confirmation.ts";
import { isUniqueViolation, type Tx } from "../db/client.ts";
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
import { readShippingRule } from "../settings/settings.data.ts";
import { enqueueOrderMail } from "./order-mail.ts";

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

/**
 * Places an order, signed in or as a guest, once per Idempotency-Key, in one transaction of named steps.
 * Returns the order id and whether this was a replay.
 */
export async function placeOrder(
  deps: Deps,
  placement: OrderPlacement,
  key: string,
): Promise<{ orderId: string; replayed: boolean }> {
  const requestHash = hashRequest(placement);
  // Read before the transaction opens, so no connection is held while a new instance reads the file.
  await loadPinDirectory();
  const result = await deps.db
    .transaction(async (tx) => {
      const earlier = await claimRequest(tx, placement, key, requestHash);
      if (earlier) return { orderId: earlier, replayed: true, mail: false };
      await queueGuestOnlinePayments(tx, placement);
      const destination = await resolveAddress(tx, placement);
      const { pricing, usesPerCustomer } = await priceLockedCart(
        tx,
        deps.env,
        placement.buyer,
        placement.request.paymentMethod,
      );
      const status = await choosePayment(tx, deps.env, placement, pricing, destination);
      const orderId = await writeOrder(tx, deps.env, placement, pricing, destination, status);
      if (pricing.discount)
        await spendCode(tx, placement.buyer, pricing.discount.code, usesPerCustomer, orderId);
      await clearCart(tx, placement, key, orderId, destination.address);
      // Online orders are announced once paid (see confirmRazorpayPayment).
      if (status === "placed") {
        await enqueueOrderMail(tx, orderId, "placed");
        await askToConfirm(tx, orderId);
      }
      // Last: the product's row lock, which every order for it waits on, is held only from here to the commit.
      await takeStock(tx, pricing.lines);
      return { orderId, replayed: false, mail: status === "placed" };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "orders_one_awaiting_payment_per_user")) throw paymentPending(undefined);
      throw error;
    });

  if (result.mail) deps.jobs.wake();
  return { orderId: result.orderId, replayed: result.replayed };
}

/**
 * Claims the Idempotency-Key for this request, or returns the order an earlier request with it placed. A
 * concurrent request with the same key waits on the primary key until the first commits or fails.
 */
async function claimRequest(
  tx: Tx,
  placement: OrderPlacement,
  key: string,
  requestHash: string,
): Promise<string | null> {
  const { buyer } = placement;
  const claimed =
    buyer.kind === "account"
      ? await tx
          .insert(orderRequests)
          .values({ userId: buyer.userId, key, requestHash })
          .onConflictDoNothing()
          .returning({ key: orderRequests.key })
      : await tx
          .insert(guestOrderRequests)
          .values({ key, requestHash })
          .onConflictDoNothing()
          .returning({ key: guestOrderRequests.key });
  if (claimed.length > 0) return null;
  const [earlier] =
    buyer.kind === "account"
      ? await tx
          .select()
          .from(orderRequests)
          .where(and(eq(orderRequests.userId, buyer.userId), eq(orderRequests.key, key)))
      : await tx.select().from(guestOrderRequests).where(eq(guestOrderRequests.key, key));
  if (!earlier?.orderId) {
    throw httpError(409, "request_in_progress", "This order is still being placed. Please wait a moment.");
  }
  if (earlier.requestHash !== requestHash) {
    throw httpError(
      422,
      "idempotency_key_reused",
      "This Idempotency-Key was already used for a different order request.",
    );
  }
  return earlier.orderId;
}

/**
 * Guest placements paid online with one e-mail or one mobile queue here, before any stock row is locked
 * (always the e-mail first, so two never wait on each other), and so see each other's waiting orders.
 */
async function queueGuestOnlinePayments(tx: Tx, { buyer, request }: OrderPlacement) {
  if (buyer.kind !== "guest" || request.paymentMethod !== "razorpay") return;
  for (const contact of guestContacts(buyer)) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`guest-unpaid:${contact}`}, 0))`);
  }
}

type Destination = {
  address: Address & { id: string | null };
  delivery: Awaited<ReturnType<typeof deliveryTo>>;
};

/**
 * The address the order goes to (an account's saved one, or the guest's), held to the PIN directory and the
 * owner's delivery rules as they stand now, as checkout showed them.
 */
async function resolveAddress(tx: Tx, placement: OrderPlacement): Promise<Destination> {
  let address: Destination["address"];
  if (isAccountOrder(placement)) {
    const [saved] = await tx
      .select()
      .from(addresses)
      .where(
        and(eq(addresses.id, placement.request.addressId), eq(addresses.userId, placement.buyer.userId)),
      );
    if (!saved) {
      throw httpError(400, "invalid_request", "addressId: is not one of your saved addresses", {
        addressId: "is not one of your saved addresses",
      });
    }
    address = { ...saved, state: saved.state as Address["state"] };
  } else {
    address = { ...(placement.request as GuestOrderRequest).address, id: null };
  }
  const field = isAccountOrder(placement) ? "addressId" : "address.pin";
  const delivery = await deliveryTo(tx, address.pin, field);
  if (delivery.rule?.rule === "not_served") {
    const message = notServedMessage(delivery.place);
    throw httpError(422, "not_served", message, { [field]: message });
  }
  return { address, delivery };
}

/**
 * The cart priced with its rows locked, by the same loader and arithmetic as the cart and the checkout page
 * show it, with the owner's prepaid incentive as it stands now for the way of paying chosen (whatever the
 * page showed): refused when an item cannot be had, the cart is empty, or its code cannot be used.
 */
async function priceLockedCart(tx: Tx, env: Deps["env"], buyer: Buyer, method: PaymentMethod) {
  const { cart, usesPerCustomer } = await loadPricedCart(tx, buyer, {
    lock: true,
    shipping: await readShippingRule(tx, env),
    payment: { method, incentive: await readPrepaidIncentive(tx) },
  });
  const pricing = orderPricingOf(cart);
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
    throw codeRefused(message, code);
  }
  return { pricing, usesPerCustomer };
}

const codeRefused = (message: string, code: string) =>
  httpError(
    409,
    "discount_unavailable",
    `${message}: ${code}. Remove the code from your cart to order without it.`,
  );

/** Cash on delivery where the owner's rules allow it; online payment within the holds of decisions 020 and 050. */
async function choosePayment(
  tx: Tx,
  env: Deps["env"],
  { buyer, request }: OrderPlacement,
  pricing: OrderPricing,
  { address, delivery }: Destination,
): Promise<OrderStatus> {
  if (request.paymentMethod === "cod") {
    // Read in this transaction, not from memory: the order is held to the rules as they stand when it is placed.
    const decision = await decideCod(tx, await readCodRules(tx, env), {
      totalPaise: pricing.totalPaise,
      pin: address.pin,
      district: delivery.place.district,
      state: address.state,
      deliveryRule: delivery.rule,
      customer: {
        userId: buyer.kind === "account" ? buyer.userId : null,
        mobile: address.phone,
        pin: address.pin,
        line1: address.line1,
      },
    });
    if (!decision.available) throw httpError(422, "cod_unavailable", decision.reason);
    return "placed";
  }
  if (!razorpayConfig(env)) {
    throw httpError(422, "payment_unavailable", "Online payment is not available at the moment.");
  }
  await refuseSecondUnpaidOrder(tx, env, buyer);
  // An unpaid order holds its stock until it lapses: it may hold only so much of any one item, so no one can
  // keep a product from everyone else by never paying (docs/decisions/050).
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
  return "awaiting_payment";
}

/**
 * One waiting online payment per account (decision 020): placements of one account queue on the cart lock,
 * so this sees any committed before, and the partial unique index is the last guard. One per guest e-mail and
 * per guest mobile (docs/decisions/050), queued on queueGuestOnlinePayments' locks; that answer names no
 * order, since whoever typed the e-mail may not be the one who placed it.
 */
async function refuseSecondUnpaidOrder(tx: Tx, env: Deps["env"], buyer: Buyer) {
  if (buyer.kind === "account") {
    const [waiting] = await tx
      .select({ number: orders.number })
      .from(orders)
      .where(and(eq(orders.userId, buyer.userId), eq(orders.status, "awaiting_payment")));
    if (waiting) throw paymentPending(waiting.number);
    return;
  }
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

/** The order row, its lines and its first event; returns the new order's id. */
async function writeOrder(
  tx: Tx,
  env: Deps["env"],
  placement: OrderPlacement,
  pricing: OrderPricing,
  destination: Destination,
  status: OrderStatus,
): Promise<string> {
  const now = new Date();
  const orderId = randomUUID();
  const sequence = Number(
    (await tx.execute<{ n: string }>(sql`select nextval(${orderNumbers.seqName}) as n`)).rows[0]?.n,
  );
  const row = orderRow(placement, pricing, destination, status);
  await tx.insert(orders).values({
    ...row,
    id: orderId,
    number: formatOrderNumber(now, sequence),
    // A cash-on-delivery order waits for its shopper's confirmation until then (docs/decisions/065).
    codConfirmBy: status === "placed" ? await codConfirmDeadline(tx, env, now) : null,
    createdAt: now,
    updatedAt: now,
  });
  await tx.insert(orderLines).values(
    pricing.lines.map(
      ({ itemId, kind, name, image, unitPricePaise, quantity, lineTotalPaise, perishable }, position) => ({
        orderId,
        position,
        ...{ itemId, kind, name, image, unitPricePaise, quantity, lineTotalPaise, perishable },
      }),
    ),
  );
  await tx.insert(orderEvents).values({
    orderId,
    fromStatus: null,
    toStatus: status,
    actor: "customer",
    actorUserId: row.userId,
    note: status === "placed" ? "Cash on delivery" : "Waiting for online payment",
    createdAt: now,
  });
  return orderId;
}

/** What the order records of its buyer, money and address, as priced and resolved in this transaction. */
function orderRow(
  { buyer, request }: OrderPlacement,
  pricing: OrderPricing,
  { address, delivery }: Destination,
  status: OrderStatus,
) {
  const estimate = estimateDelivery(new Date());
  return {
    userId: buyer.kind === "account" ? buyer.userId : null,
    guestEmail: buyer.kind === "guest" ? buyer.email : null,
    whatsappUpdates: request.whatsappUpdates ?? false,
    status,
    paymentMethod: request.paymentMethod,
    subtotalPaise: pricing.subtotalPaise,
    discountCode: pricing.discount?.code ?? null,
    discountPaise: pricing.discount?.amountPaise ?? 0,
    shippingPaise: pricing.shippingPaise,
    ...prepaidColumns(pricing),
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
  };
}

/** What the order keeps of the prepaid incentive: the discount (in its total) or the shipping fee waived. */
export const prepaidColumns = ({ prepaid }: Pick<OrderPricing, "prepaid">) => ({
  prepaidDiscountPaise: prepaid?.kind === "discount" ? prepaid.amountPaise : 0,
  prepaidShippingWaivedPaise: prepaid?.kind === "free_shipping" ? prepaid.amountPaise : 0,
});

/**
 * Stock is taken by one conditional UPDATE per line: the last units go to the orders whose updates reach them
 * first, and the others are told it is sold out (the whole order rolls back).
 */
async function takeStock(tx: Tx, lines: OrderPricing["lines"]) {
  // Products, then combos, each by key: the order a cancellation puts stock back in (order-status.ts).
  const ordered = [...lines].sort((a, b) =>
    a.kind === b.kind
      ? a.itemId < b.itemId
        ? -1
        : a.itemId > b.itemId
          ? 1
          : 0
      : a.kind === "product"
        ? -1
        : 1,
  );
  for (const line of ordered) {
    const table = line.kind === "product" ? products : combos;
    const id = line.kind === "product" ? products.slug : combos.id;
    const taken = await tx
      .update(table)
      .set({ stock: sql`${table.stock} - ${line.quantity}` })
      .where(and(eq(id, line.itemId), gte(table.stock, line.quantity)))
      .returning({ stock: table.stock });
    if (taken.length === 0) {
      throw httpError(409, "out_of_stock", `${line.name} is out of stock. Please remove it from your cart.`, {
        [line.itemId]: "out of stock",
      });
    }
  }
}

/**
 * The use taken when the code was applied in the cart (or a new one within the limit) now belongs to this
 * order. A guest's is taken under the e-mail and the mobile: both must have one left (the numbered primary
 * key decides between orders placed at the same moment, decision 046). Then the code's total, if it has one.
 */
async function spendCode(
  tx: Tx,
  buyer: Buyer,
  code: string,
  usesPerCustomer: number | null,
  orderId: string,
) {
  let spent = true;
  if (buyer.kind === "account") {
    spent = await spendAccountUse(tx, buyer.userId, code, usesPerCustomer, orderId);
  } else {
    for (const contact of guestContacts(buyer)) {
      spent &&= await takeCustomerUse(tx, { contact }, code, usesPerCustomer, orderId);
    }
  }
  if (!spent) throw codeRefused(usedUpMessage(usesPerCustomer), code);
  if (!(await claimCodeUse(tx, code))) throw codeRefused(DISCOUNT_LIMIT_MESSAGES.limitReached, code);
}

/**
 * An account's saved cart is emptied (its version moves, so other tabs follow) and its address marked used;
 * a guest's cart is in the browser, which empties it once the order is answered. The key records the order.
 */
async function clearCart(
  tx: Tx,
  { buyer }: OrderPlacement,
  key: string,
  orderId: string,
  address: Destination["address"],
) {
  if (buyer.kind === "guest") {
    await tx.update(guestOrderRequests).set({ orderId }).where(eq(guestOrderRequests.key, key));
    return;
  }
  const { userId } = buyer;
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
    await tx.update(addresses).set({ lastUsedAt: new Date() }).where(eq(addresses.id, address.id));
}
