import { createHash, randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import pg from "pg";
import { type CartEntry, lineProblem } from "../../common/cart.ts";
import { notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import { DISCOUNT_LIMIT_MESSAGES, usedUpMessage } from "../../common/discount.ts";
import { indianWallClock } from "../../common/india-time.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import { type OrderPricing, orderPricingOf, prepaidColumns } from "../../common/order-pricing.ts";
import type { PaymentMethod } from "../../common/orders.ts";
import { NO_PREPAID_INCENTIVE } from "../../common/prepaid-incentive.ts";
import type { Address } from "../../common/schemas/address.ts";
import type { GuestOrderRequest, PlaceOrderRequest } from "../../common/schemas/orders.ts";
import { type Buyer, guestContacts, priceStoredCart, readStoredCart } from "../cart/priced-cart.ts";
import { knownSoldOut, soldOutKey } from "../catalogue/sold-out.ts";
import { decideCod, readCodRules, readPrepaidIncentive } from "../cod/cod-rules.ts";
import { confirmDeadlineAfter, confirmRequestJob } from "../cod/confirmation.ts";
import { isUniqueViolation, type Tx } from "../db/client.ts";
import {
  addresses,
  cartItems,
  carts,
  combos,
  guestOrderRequests,
  type OrderRow,
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
import { enqueueJobs } from "../jobs/job-queue.ts";
import { whatsAppJobs } from "../messaging/whatsapp-messages.ts";
import { razorpayConfig } from "../payments/razorpay.ts";
import { readShippingRule } from "../settings/settings.data.ts";
import { orderMailJob } from "./order-mail.ts";

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
): Promise<{ orderId: string; replayed: boolean; placed: PlacedOrder | null }> {
  const requestHash = hashRequest(placement);
  // Read before the transaction opens, so no connection is held while a new instance reads the file.
  await loadPinDirectory();
  const result = await deps.db
    .transaction(async (tx) => {
      const earlier = await claimRequest(tx, placement, key, requestHash);
      if (earlier) return { orderId: earlier, replayed: true, mail: false, placed: null };
      await queueGuestOnlinePayments(tx, placement);
      // The cart before the address: in a sale, the many who come after the last unit are told so sooner.
      const { pricing, usesPerCustomer } = await priceLockedCart(
        tx,
        deps,
        placement.buyer,
        placement.request.paymentMethod,
      );
      const destination = await resolveAddress(tx, placement);
      const payment = await choosePayment(tx, deps.env, placement, pricing, destination);
      const placed = await writeOrder(tx, placement, pricing, destination, payment);
      const { order } = placed;
      const orderId = order.id;
      if (pricing.discount)
        await spendCode(tx, placement.buyer, pricing.discount.code, usesPerCustomer, orderId);
      await clearCart(tx, placement, key, orderId, destination.address);
      // Online orders are announced once paid (see confirmRazorpayPayment). A COD order's mail, its
      // confirmation SMS and their WhatsApp twins go in one statement.
      if (payment.status === "placed") {
        const whatsapp = order.whatsappUpdates;
        await enqueueJobs(tx, [
          orderMailJob(orderId, "placed"),
          ...whatsAppJobs(orderId, "placed", whatsapp),
          confirmRequestJob(orderId),
          ...whatsAppJobs(orderId, "cod_confirm", whatsapp),
        ]);
      }
      // Last, with the commit: the product's row lock, which every order for it waits on, is held only there.
      await takeStockAndCommit(tx, pricing.lines);
      return { orderId, replayed: false, mail: payment.status === "placed", placed };
    })
    .catch(async (error: unknown) => {
      if (isUniqueViolation(error, "orders_one_awaiting_payment_per_user")) throw paymentPending(undefined);
      if (isStockShortfall(error)) throw await outOfStock(deps.db, error.lines);
      throw error;
    });

  if (result.mail) deps.jobs.wake();
  return { orderId: result.orderId, replayed: result.replayed, placed: result.placed };
}

/** A new order as its inserts returned it: enough to answer with, without reading it back. */
export type PlacedOrder = { order: OrderRow; lines: OrderLineRow[]; events: OrderEventRow[] };
type OrderLineRow = typeof orderLines.$inferSelect;
type OrderEventRow = typeof orderEvents.$inferSelect;

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
async function priceLockedCart(tx: Tx, deps: Deps, buyer: Buyer, method: PaymentMethod) {
  const stored = await readStoredCart(tx, buyer, true);
  await refuseKnownSoldOut(tx, deps, stored.lines);
  const { cart, usesPerCustomer } = await priceStoredCart(tx, buyer, stored, {
    shipping: await readShippingRule(tx, deps.env),
    // The incentive is for paying online; cash on delivery is priced without it, so it is not read for one.
    payment: {
      method,
      incentive: method === "razorpay" ? await readPrepaidIncentive(tx) : NO_PREPAID_INCENTIVE,
    },
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

/**
 * In a sale, most of those who come after the last unit are told here, from what the catalogue in memory
 * already knows has run out (decision 069), before their cart is priced: the same refusal pricing would give,
 * naming the items with nothing left. An item only running short (some left, fewer than asked for) is left to
 * pricing and the stock update. When the read of the set this one shares with other orders fails in theirs,
 * pricing decides, as before.
 */
async function refuseKnownSoldOut(tx: Tx, deps: Deps, lines: readonly CartEntry[]) {
  if (lines.length === 0) return;
  const soldOut = await knownSoldOut(deps.catalogue, tx).catch(() => null);
  if (!soldOut || soldOut.size === 0) return;
  const gone = lines.flatMap((line) => {
    const name = soldOut.get(soldOutKey(line));
    const message = name === undefined ? null : lineProblem({ name, availability: "out_of_stock", stock: 0 });
    return message === null ? [] : [{ id: line.id, message }];
  });
  const [first] = gone;
  if (!first) return;
  throw httpError(
    409,
    "out_of_stock",
    first.message,
    Object.fromEntries(gone.map((each) => [each.id, each.message])),
  );
}

const codeRefused = (message: string, code: string) =>
  httpError(
    409,
    "discount_unavailable",
    `${message}: ${code}. Remove the code from your cart to order without it.`,
  );

/**
 * Cash on delivery where the owner's rules allow it (with the hours it has to be confirmed in); online
 * payment within the holds of decisions 020 and 050.
 */
async function choosePayment(
  tx: Tx,
  env: Deps["env"],
  { buyer, request }: OrderPlacement,
  pricing: OrderPricing,
  { address, delivery }: Destination,
): Promise<{ status: OrderStatus; confirmHours: number | null }> {
  if (request.paymentMethod === "cod") {
    // Read in this transaction, not from memory: the order is held to the rules as they stand when it is placed.
    const rules = await readCodRules(tx, env);
    const decision = await decideCod(tx, rules, {
      totalPaise: pricing.totalPaise,
      pin: address.pin,
      district: delivery.place.district,
      state: address.state,
      customer: {
        userId: buyer.kind === "account" ? buyer.userId : null,
        mobile: address.phone,
        pin: address.pin,
        line1: address.line1,
      },
    });
    if (!decision.available) throw httpError(422, "cod_unavailable", decision.reason);
    return { status: "placed", confirmHours: rules.confirmHours };
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
  return { status: "awaiting_payment", confirmHours: null };
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

/** The order row, its lines and its first event, as written. */
async function writeOrder(
  tx: Tx,
  placement: OrderPlacement,
  pricing: OrderPricing,
  destination: Destination,
  { status, confirmHours }: { status: OrderStatus; confirmHours: number | null },
): Promise<PlacedOrder> {
  const now = new Date();
  const orderId = randomUUID();
  const row = orderRow(placement, pricing, destination, status);
  const [order] = await tx
    .insert(orders)
    .values({
      ...row,
      id: orderId,
      number: numberFromSequence(now),
      // A cash-on-delivery order waits for its shopper's confirmation until then (docs/decisions/065).
      codConfirmBy: confirmHours === null ? null : confirmDeadlineAfter(now, confirmHours),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!order) throw new Error("the order row was not written");
  const lines = await tx
    .insert(orderLines)
    .values(
      pricing.lines.map(
        ({ itemId, kind, name, image, unitPricePaise, quantity, lineTotalPaise, perishable }, position) => ({
          orderId,
          position,
          ...{ itemId, kind, name, image, unitPricePaise, quantity, lineTotalPaise, perishable },
        }),
      ),
    )
    .returning();
  const events = await tx
    .insert(orderEvents)
    .values({
      orderId,
      fromStatus: null,
      toStatus: status,
      actor: "customer",
      actorUserId: row.userId,
      note: status === "placed" ? "Cash on delivery" : "Waiting for online payment",
      createdAt: now,
    })
    .returning();
  return { order, lines, events };
}

/**
 * formatOrderNumber's number, made by the order's insert from the sequence (one round trip fewer than asking
 * for the next value first). The year is this process's, as formatOrderNumber takes it.
 */
function numberFromSequence(placedAt: Date) {
  const prefix = formatOrderNumber(placedAt, 0).slice(0, -6);
  return sql<string>`(select ${prefix} || lpad(n::text, greatest(6, length(n::text)), '0') from nextval(${orderNumbers.seqName}::regclass) as n)`;
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

const { escapeLiteral } = pg;

/**
 * Stock is taken by one UPDATE per line, sent with the COMMIT in one message (PostgreSQL's simple protocol runs
 * them in turn), so the row lock every order for the product waits on is held for the update and the commit's
 * flush, and not also for a round trip to this process, whose event loop is busiest exactly then, in a sale
 * (docs/decisions/069). The "stock >= 0" checks refuse a line there is not enough of: the
 * error stops the message before its COMMIT and the whole order rolls back; the last units go to the orders
 * whose updates reach them first. A new transaction is begun after the COMMIT for the one drizzle ends.
 * Nothing in the message is a parameter (the simple protocol takes none): the quantities are integers and the
 * keys are quoted as literals.
 */
async function takeStockAndCommit(tx: Tx, lines: OrderPricing["lines"]) {
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
  const updates = ordered.map(({ kind, itemId, quantity }) => {
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw new Error(`bad quantity ${quantity}`);
    const [table, key] = kind === "product" ? ["products", "slug"] : ["combos", "id"];
    return `update ${table} set stock = stock - ${quantity}, updated_at = now() where ${key} = ${escapeLiteral(itemId)}`;
  });
  try {
    await tx.execute(sql.raw(`${updates.join(";\n")};\ncommit;\nbegin`));
  } catch (error) {
    if (isCheckViolation(error, STOCK_CHECKS)) throw Object.assign(new Error("stock shortfall"), { lines });
    throw error;
  }
}

const STOCK_CHECKS = ["products_stock_not_negative", "combos_stock_not_negative"];

function isCheckViolation(error: unknown, constraints: string[]) {
  const details = [error, (error as { cause?: unknown } | undefined)?.cause] as ({
    code?: string;
    constraint?: string;
  } | null)[];
  return details.some((each) => each?.code === "23514" && constraints.includes(each.constraint ?? ""));
}

function isStockShortfall(error: unknown): error is Error & { lines: OrderPricing["lines"] } {
  return error instanceof Error && error.message === "stock shortfall" && "lines" in error;
}

/** The 409 for an order some line of which had too little left, naming those lines as they stand now. */
async function outOfStock(db: Deps["db"], lines: OrderPricing["lines"]) {
  const slugs = lines.filter((line) => line.kind === "product").map((line) => line.itemId);
  const comboIds = lines.filter((line) => line.kind === "combo").map((line) => line.itemId);
  const [productStock, comboStock] = await Promise.all([
    slugs.length
      ? db
          .select({ id: products.slug, stock: products.stock })
          .from(products)
          .where(inArray(products.slug, slugs))
      : [],
    comboIds.length
      ? db.select({ id: combos.id, stock: combos.stock }).from(combos).where(inArray(combos.id, comboIds))
      : [],
  ]);
  const left = new Map([...productStock, ...comboStock].map((row) => [row.id, row.stock]));
  const short = lines.filter((line) => (left.get(line.itemId) ?? 0) < line.quantity);
  // Sold meanwhile and put back (a cancellation): the first line is named, as the update that failed was.
  const named = short.length > 0 ? short : lines.slice(0, 1);
  const [first] = named;
  return httpError(
    409,
    "out_of_stock",
    `${first?.name ?? "An item"} is out of stock. Please remove it from your cart.`,
    Object.fromEntries(named.map((line) => [line.itemId, "out of stock"])),
  );
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
  const now = new Date();
  // One statement (data-modifying CTEs, each on its own table) where four round trips were: the cart row is
  // already this transaction's (locked when it was priced).
  await tx.execute(sql`
    with emptied as (delete from ${cartItems} where ${cartItems.userId} = ${userId}),
    moved as (
      update ${carts} set discount_code = null, version = version + 1, updated_at = ${now}
      where ${carts.userId} = ${userId}
    ),
    keyed as (
      update ${orderRequests} set order_id = ${orderId}
      where ${orderRequests.userId} = ${userId} and ${orderRequests.key} = ${key}
    )
    update ${addresses} set last_used_at = ${now}, updated_at = ${now} where ${addresses.id} = ${address.id}`);
}
