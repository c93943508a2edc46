import { createHash, randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { type CartEntry, lineProblem, type ResolvedLine, type ShippingRule } from "../../common/cart.ts";
import { type DeliveryRule, notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery } from "../../common/delivery-estimate.ts";
import { DISCOUNT_LIMIT_MESSAGES, usedUpMessage } from "../../common/discount.ts";
import { INDIAN_STATE_NAMES } from "../../common/india.ts";
import { indianWallClock } from "../../common/india-time.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import { type OrderPricing, orderPricingOf, prepaidColumns } from "../../common/order-pricing.ts";
import type { PaymentMethod } from "../../common/orders.ts";
import { NO_PREPAID_INCENTIVE } from "../../common/prepaid-incentive.ts";
import type { Address } from "../../common/schemas/address.ts";
import type { GuestOrderRequest, PlaceOrderRequest } from "../../common/schemas/orders.ts";
import {
  type Buyer,
  catalogueRead,
  guestContacts,
  priceStoredCart,
  readStoredCart,
  type StoredCart,
  savedCartRead,
} from "../cart/priced-cart.ts";
import { knownSoldOut, type SoldOut, soldOutInMemory, soldOutKey } from "../catalogue/sold-out.ts";
import { codRulesRead, decideCod, readCodRules, readPrepaidIncentive } from "../cod/cod-rules.ts";
import { confirmDeadlineAfter, confirmRequestJob } from "../cod/confirm-request.ts";
import { isUniqueViolation, type Tx } from "../db/client.ts";
import {
  fromTemplate,
  type HeldConnection,
  type MessageTransaction,
  onConnection,
  placeholderRows,
  type Statement,
} from "../db/message-transaction.ts";
import {
  build,
  noRead,
  type Read,
  readAs,
  rowOf,
  rowsRead,
  selectedRowSchema,
  tableRowsRead,
  together,
} from "../db/reads.ts";
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
import { deliveryFrom, deliveryRuleRead } from "../delivery/delivery.data.ts";
import { loadPinDirectory } from "../delivery/pin-directory.ts";
import type { Deps } from "../deps.ts";
import { claimCodeUse, spendAccountUse, takeCustomerUse } from "../discounts/discounts.data.ts";
import { httpError, isDatabaseUnavailable } from "../errors.ts";
import { jobsStatement } from "../jobs/job-queue.ts";
import { razorpayConfig } from "../money/razorpay.ts";
import { settingsRead } from "../settings/settings.data.ts";
import { orderMailJob } from "./order-mail.ts";
import { whatsAppJobs } from "./order-whatsapp.ts";

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
 *
 * In a sale every round trip costs both cores (decision 069), so the steps' reads and writes travel together
 * on one held connection: a look with no transaction (lookBeforeClaim), then a message that begins the
 * transaction with the key's claim and everything the order is priced and checked with (openingRead), and a
 * last one with the order's rows, the cart emptied, its jobs, the stock and COMMIT (writeOrder).
 */
export async function placeOrder(
  deps: Deps,
  placement: OrderPlacement,
  key: string,
): Promise<{ orderId: string; replayed: boolean; placed: PlacedOrder | null }> {
  const requestHash = hashRequest(placement);
  // Read before the transaction opens, so no connection is held while a new instance reads the file.
  await loadPinDirectory();
  const result = await onConnection(deps.db, async (connection) => {
    const seen = await lookBeforeClaim(connection, deps, placement, key, requestHash);
    if ("replay" in seen) return replayOf(seen.replay);
    const opening = openingRead(deps, placement, key, requestHash, seen);
    return connection.transaction(opening.statements, (transaction, results) =>
      placeInTransaction(transaction, deps, placement, {
        key,
        requestHash,
        seen,
        opened: opening.answer(results),
      }),
    );
  }).catch(async (error: unknown) => {
    if (isUniqueViolation(error, "orders_one_awaiting_payment_per_user")) throw paymentPending(undefined);
    if (isStockShortfall(error)) throw await outOfStock(deps.db, error.lines);
    throw error;
  });

  if (result.mail) deps.jobs.wake();
  return { orderId: result.orderId, replayed: result.replayed, placed: result.placed };
}

const replayOf = (orderId: string) => ({ orderId, replayed: true, mail: false, placed: null });

/**
 * The steps of placing an order, inside its transaction, from what its opening message read: the key claimed,
 * the locked cart checked and priced, the address and the way of paying held to the owner's rules, the order
 * written with its stock taken, and COMMIT.
 */
async function placeInTransaction(
  transaction: MessageTransaction,
  deps: Deps,
  placement: OrderPlacement,
  { key, requestHash, seen, opened }: { key: string; requestHash: string; seen: Look; opened: Opened },
) {
  const { tx } = transaction;
  const { buyer } = placement;
  const method = placement.request.paymentMethod;
  const earlier = await claimRequest(tx, placement, key, requestHash, opened.claimed);
  if (earlier) return replayOf(earlier);
  await queueGuestOnlinePayments(tx, placement);
  const { cart } = opened;
  // Those whose look could not be answered from memory (what has run out changed meanwhile, or was not
  // known yet) are told here, now that the key is theirs, before what was read is priced.
  await refuseKnownSoldOut(tx, deps, cart.lines);
  // Another tab changed the cart between the look and the lock: what it holds now is what is priced.
  const resolved = sameItems(seen.cart.lines, cart.lines)
    ? opened.catalogue
    : await sendRead(transaction, catalogueRead(cart.lines));
  // The cart before the address, as the shopper reads the page: a cart that cannot be had is what they fix first.
  const { pricing, usesPerCustomer } = await priceLockedCart(tx, buyer, cart, method, {
    shipping: opened.settings.shipping,
    resolved,
  });
  const destination = await resolveAddress(placement, seen.address, opened.deliveryRule);
  const payment = await choosePayment(tx, deps.env, placement, pricing, destination, opened.codRules);
  const placed = await writeOrder(transaction, deps, placement, key, {
    pricing,
    usesPerCustomer,
    destination,
    payment,
  });
  return { orderId: placed.order.id, replayed: false, mail: payment.status === "placed", placed };
}

/** The read's statements in the transaction's next message, and its answer. */
const sendRead = async <T>(transaction: MessageTransaction, read: Read<T>) =>
  read.answer(await transaction.send(read.statements));

type SeenAddress = Destination["address"] | null;

/** What a placement is known to hold before its transaction: an account's cart and saved address as read with no lock, a guest's as sent. */
type Look = { cart: StoredCart; address: SeenAddress };

/**
 * The look before the claim. An account's is one message of reads (the key's earlier request, the cart, its
 * lines, the saved address); a guest's, only when the catalogue in memory knows part of the cart has run out,
 * the key's earlier request. A key that placed an order is answered with it (the same request) or refused (a
 * different one), as the claim would; a key with none whose cart holds what had run out before the look was
 * sent, as the catalogue in memory knew then and still does, is refused here, claiming nothing and locking
 * nothing, so the key stays free. Anything else goes on to the claim.
 */
async function lookBeforeClaim(
  connection: HeldConnection,
  deps: Deps,
  placement: OrderPlacement,
  key: string,
  requestHash: string,
): Promise<Look | { replay: string }> {
  // Known before the look, so what it says had run out before anything the look reads: a concurrent request
  // with this key that took the last unit is either seen by the look (a replay) or not counted here.
  const memory = soldOutInMemory(deps.catalogue);
  let seen: Look;
  let earlier: EarlierRequest | undefined;
  if (isAccountOrder(placement)) {
    const look = together({
      earlier: earlierRequestRead(placement, key),
      cart: savedCartRead(placement.buyer.userId, false),
      address: savedAddressRead(deps.db, placement),
    });
    const answer = look.answer(await connection.read(look.statements));
    earlier = answer.earlier;
    seen = { cart: answer.cart, address: answer.address };
  } else {
    seen = { cart: await readStoredCart(deps.db, placement.buyer, false), address: addressOf(placement) };
    if (!memory || !soldOutRefusal(memory.soldOut, seen.cart.lines)) return seen;
    const look = earlierRequestRead(placement, key);
    earlier = look.answer(await connection.read(look.statements));
  }
  if (earlier) {
    // A committed claim always names its order (a refused one is rolled back): the claim decides otherwise.
    if (earlier.orderId) {
      if (earlier.requestHash !== requestHash) throw keyReused();
      return { replay: earlier.orderId };
    }
    return seen;
  }
  if (memory && memory.generation === deps.catalogue.generation()) {
    const refusal = soldOutRefusal(memory.soldOut, seen.cart.lines);
    if (refusal) throw refusal;
  }
  return seen;
}

const earlierRow = { orderId: z.string().nullable(), requestHash: z.string() };
const accountEarlier = { orderId: orderRequests.orderId, requestHash: orderRequests.requestHash };
const guestEarlier = { orderId: guestOrderRequests.orderId, requestHash: guestOrderRequests.requestHash };
const accountEarlierRow = selectedRowSchema(accountEarlier, earlierRow);
const guestEarlierRow = selectedRowSchema(guestEarlier, earlierRow);
type EarlierRequest = { orderId: string | null; requestHash: string };

/** The key's earlier request, if one committed: the order it placed and the request's hash. */
function earlierRequestRead({ buyer }: OrderPlacement, key: string): Read<EarlierRequest | undefined> {
  const key$ = sql.placeholder("key");
  const statement =
    buyer.kind === "guest"
      ? fromTemplate(
          "guest earlier request",
          () => build.select(guestEarlier).from(guestOrderRequests).where(eq(guestOrderRequests.key, key$)),
          { key },
        )
      : fromTemplate(
          "earlier request",
          () =>
            build
              .select(accountEarlier)
              .from(orderRequests)
              .where(and(eq(orderRequests.userId, sql.placeholder("userId")), eq(orderRequests.key, key$))),
          { userId: buyer.userId, key },
        );
  const row = buyer.kind === "guest" ? guestEarlierRow : accountEarlierRow;
  return readAs(rowsRead(statement, row), ([each]) => each);
}

/**
 * The message that begins an order's transaction: the key's claim, an account's cart read again with its row
 * locked, and everything the order is priced and checked with (the settings, the catalogue rows of the cart as
 * the look saw it, the delivery rule of the address's PIN and, for cash on delivery, the COD rules).
 */
function openingRead(deps: Deps, placement: OrderPlacement, key: string, requestHash: string, seen: Look) {
  const method = placement.request.paymentMethod;
  return together({
    claimed: claimRead(deps.db, placement, key, requestHash),
    cart: isAccountOrder(placement) ? savedCartRead(placement.buyer.userId, true) : noRead(seen.cart),
    settings: settingsRead(deps.env),
    catalogue: catalogueRead(seen.cart.lines),
    deliveryRule: seen.address ? deliveryRuleRead(seen.address.pin) : noRead(null),
    codRules: method === "cod" ? codRulesRead(deps.env) : noRead(null),
  });
}

type Opened = ReturnType<ReturnType<typeof openingRead>["answer"]>;

/** Whether two reads of a cart hold the same items (the catalogue rows read for one serve the other). */
function sameItems(seen: StoredCart["lines"], locked: StoredCart["lines"]) {
  const keys = (lines: StoredCart["lines"]) => [...new Set(lines.map(soldOutKey))].sort().join("\n");
  return keys(seen) === keys(locked);
}

/** A new order as its inserts returned it: enough to answer with, without reading it back. */
export type PlacedOrder = { order: OrderRow; lines: OrderLineRow[]; events: OrderEventRow[] };
type OrderLineRow = typeof orderLines.$inferSelect;
type OrderEventRow = typeof orderEvents.$inferSelect;

/** The Idempotency-Key's claim: true when this request is the first with the key. */
function claimRead(
  db: Deps["db"],
  { buyer }: OrderPlacement,
  key: string,
  requestHash: string,
): Read<boolean> {
  const [key$, hash$] = [sql.placeholder("key"), sql.placeholder("requestHash")];
  const statement =
    buyer.kind === "guest"
      ? fromTemplate(
          "guest order request claim",
          () =>
            db
              .insert(guestOrderRequests)
              .values({ key: key$, requestHash: hash$ })
              .onConflictDoNothing()
              .returning({ key: guestOrderRequests.key }),
          { key, requestHash },
        )
      : fromTemplate(
          "order request claim",
          () =>
            db
              .insert(orderRequests)
              .values({ userId: sql.placeholder("userId"), key: key$, requestHash: hash$ })
              .onConflictDoNothing()
              .returning({ key: orderRequests.key }),
          { userId: buyer.userId, key, requestHash },
        );
  return readAs(rowsRead(statement, claimedRow), (rows) => rows.length > 0);
}

const claimedRow = z.object({ key: z.string() });

/**
 * Null when this request claimed the Idempotency-Key (claimRead), or the order an earlier request with it
 * placed. A concurrent request with the same key waits on the primary key until the first commits or fails.
 */
async function claimRequest(
  tx: Tx,
  placement: OrderPlacement,
  key: string,
  requestHash: string,
  claimed: boolean,
): Promise<string | null> {
  const { buyer } = placement;
  if (claimed) return null;
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
  if (earlier.requestHash !== requestHash) throw keyReused();
  return earlier.orderId;
}

const keyReused = () =>
  httpError(
    422,
    "idempotency_key_reused",
    "This Idempotency-Key was already used for a different order request.",
  );

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
  delivery: Awaited<ReturnType<typeof deliveryFrom>>;
};

/** An account's saved address the request names (null when it is not theirs). */
function savedAddressRead(
  db: Deps["db"],
  placement: Extract<OrderPlacement, { buyer: { kind: "account" } }>,
): Read<SeenAddress> {
  const statement = fromTemplate(
    "saved address",
    () =>
      db
        .select()
        .from(addresses)
        .where(
          and(
            eq(addresses.id, sql.placeholder("addressId")),
            eq(addresses.userId, sql.placeholder("userId")),
          ),
        ),
    { addressId: placement.request.addressId, userId: placement.buyer.userId },
  );
  return readAs(tableRowsRead(statement, addresses), ([saved]) =>
    saved ? { ...saved, state: addressState.parse(saved.state) } : null,
  );
}

const addressState = z.enum(INDIAN_STATE_NAMES);

/** A guest's address, as sent with the order. */
const addressOf = (placement: Extract<OrderPlacement, { buyer: { kind: "guest" } }>) => ({
  ...placement.request.address,
  id: null,
});

/**
 * The address held to the PIN directory and the owner's delivery rule for its PIN as it stands now (read with the
 * order's opening message), as checkout showed them.
 */
async function resolveAddress(
  placement: OrderPlacement,
  address: SeenAddress,
  rule: DeliveryRule | null,
): Promise<Destination> {
  if (!address) {
    throw httpError(400, "invalid_request", "addressId: is not one of your saved addresses", {
      addressId: "is not one of your saved addresses",
    });
  }
  const field = isAccountOrder(placement) ? "addressId" : "address.pin";
  const delivery = await deliveryFrom(address.pin, field, rule);
  if (delivery.rule?.rule === "not_served") {
    const message = notServedMessage(delivery.place);
    throw httpError(422, "not_served", message, { [field]: message });
  }
  return { address, delivery };
}

/**
 * The cart (read with its row locked) priced, by the same loader and arithmetic as the cart and the checkout page
 * show it, with the owner's prepaid incentive as it stands now for the way of paying chosen (whatever the
 * page showed): refused when an item cannot be had, the cart is empty, or its code cannot be used.
 */
async function priceLockedCart(
  tx: Tx,
  buyer: Buyer,
  stored: StoredCart,
  method: PaymentMethod,
  { shipping, resolved }: { shipping: ShippingRule; resolved: ResolvedLine[] },
) {
  const { cart, usesPerCustomer } = await priceStoredCart(tx, buyer, stored, {
    shipping,
    resolved,
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
 * In a sale, those who come after the last unit and whose look before the claim could not tell them
 * (lookBeforeClaim) are told here, from what the catalogue in memory already knows has run out (decision 069),
 * before their cart is priced. When the read of the set this one shares with other orders fails in theirs,
 * pricing decides, as before, unless the database is unavailable.
 */
async function refuseKnownSoldOut(tx: Tx, deps: Deps, lines: readonly CartEntry[]) {
  if (lines.length === 0) return;
  const soldOut = await knownSoldOut(deps.catalogue, tx).catch((error: unknown) => {
    // Cut off or cut off from the database: if it was this transaction's read, the transaction is aborted and
    // its next statement could only fail, so the order is answered 503 and its key left free.
    if (isDatabaseUnavailable(error)) throw error;
    return null;
  });
  const refusal = soldOut && soldOutRefusal(soldOut, lines);
  if (refusal) throw refusal;
}

/**
 * The refusal pricing would give a cart holding items `soldOut` names, naming those; null when it holds none.
 * An item only running short (some left, fewer than asked for) is left to pricing and the stock update.
 */
function soldOutRefusal(soldOut: SoldOut, lines: readonly CartEntry[]) {
  if (soldOut.size === 0) return null;
  const gone = lines.flatMap((line) => {
    const name = soldOut.get(soldOutKey(line));
    const message = name === undefined ? null : lineProblem({ name, availability: "out_of_stock", stock: 0 });
    return message === null ? [] : [{ id: line.id, message }];
  });
  const [first] = gone;
  if (!first) return null;
  return httpError(
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
 * Cash on delivery where the owner's rules allow it (`codRules`, read with the order's opening message), with the
 * hours it has to be confirmed in; online payment within the holds of decisions 020 and 050.
 */
async function choosePayment(
  tx: Tx,
  env: Deps["env"],
  { buyer, request }: OrderPlacement,
  pricing: OrderPricing,
  { address, delivery }: Destination,
  codRules: Awaited<ReturnType<typeof readCodRules>> | null,
): Promise<{ status: OrderStatus; confirmHours: number | null }> {
  if (request.paymentMethod === "cod") {
    // Read in this transaction, not from memory: the order is held to the rules as they stand when it is placed.
    const rules = codRules ?? (await readCodRules(tx, env));
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
  // An unpaid order holds no stock (docs/decisions/083), but a household's order is still capped while it waits
  // for payment (docs/decisions/050): a payment of hundreds of units would only be refunded when they run short.
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

/**
 * The order written: its rows, the cart emptied and the key settled, a COD order's messages queued, and its
 * stock taken with the COMMIT. With a discount code, the order's rows go first and the code is spent between, as
 * its use names the order.
 */
async function writeOrder(
  transaction: MessageTransaction,
  deps: Deps,
  placement: OrderPlacement,
  key: string,
  {
    pricing,
    usesPerCustomer,
    destination,
    payment,
  }: {
    pricing: OrderPricing;
    usesPerCustomer: number | null;
    destination: Destination;
    payment: { status: OrderStatus; confirmHours: number | null };
  },
): Promise<PlacedOrder> {
  const { orderId, whatsappUpdates, write } = orderWrite(deps.db, placement, pricing, destination, payment);
  // Online orders are announced once paid (see confirmRazorpayPayment). A COD order's mail, its confirmation
  // SMS and their WhatsApp twins go in one statement.
  const jobs =
    payment.status === "placed"
      ? [
          jobsStatement(deps.db, [
            orderMailJob(orderId, "placed"),
            ...whatsAppJobs(orderId, "placed", whatsappUpdates),
            confirmRequestJob(orderId),
            ...whatsAppJobs(orderId, "cod_confirm", whatsappUpdates),
          ]),
        ]
      : [];
  // Last, with the commit: the product's row lock, which every order for it waits on, is held only there.
  const closing = [
    clearCartStatement(placement, key, orderId, destination.address),
    ...jobs,
    // An order paid online takes its stock when the payment is captured, not now: the last units go to
    // whoever pays first, never to an order that may not be paid (docs/decisions/083).
    ...(payment.status === "placed" ? stockStatements(pricing.lines) : []),
  ];
  if (!pricing.discount) {
    return write.answer(
      await takeStockAndCommit(transaction, [...write.statements, ...closing], pricing.lines),
    );
  }
  const placed = await sendRead(transaction, write);
  await spendCode(transaction.tx, placement.buyer, pricing.discount.code, usesPerCustomer, orderId);
  await takeStockAndCommit(transaction, closing, pricing.lines);
  return placed;
}

/** The inserts of the order row, its lines and its first event, answered with what they wrote. */
function orderWrite(
  db: Deps["db"],
  placement: OrderPlacement,
  pricing: OrderPricing,
  destination: Destination,
  { status, confirmHours }: { status: OrderStatus; confirmHours: number | null },
) {
  const now = new Date();
  const orderId = randomUUID();
  const row = orderRow(placement, pricing, destination, status);
  const order = placeholderRows([
    {
      ...row,
      id: orderId,
      number: NUMBER_FROM_SEQUENCE,
      // A cash-on-delivery order waits for its shopper's confirmation until then (docs/decisions/065).
      codConfirmBy: confirmHours === null ? null : confirmDeadlineAfter(now, confirmHours),
      createdAt: now,
      updatedAt: now,
    },
  ]);
  const lines = placeholderRows(
    pricing.lines.map(
      ({ itemId, kind, name, image, unitPricePaise, quantity, lineTotalPaise, perishable }, position) => ({
        orderId,
        position,
        ...{ itemId, kind, name, image, unitPricePaise, quantity, lineTotalPaise, perishable },
      }),
    ),
  );
  const events = placeholderRows([
    {
      orderId,
      fromStatus: null,
      toStatus: status,
      actor: "customer" as const,
      actorUserId: row.userId,
      note: status === "placed" ? "Cash on delivery" : "Waiting for online payment",
      createdAt: now,
    },
  ]);
  const statements = [
    fromTemplate(`order ${order.shape}`, () => db.insert(orders).values(order.held).returning(), {
      ...order.values,
      numberPrefix: numberPrefix(now),
    }),
    fromTemplate(
      `order lines ${lines.shape}`,
      () => db.insert(orderLines).values(lines.held).returning(),
      lines.values,
    ),
    fromTemplate(
      `order event ${events.shape}`,
      () => db.insert(orderEvents).values(events.held).returning(),
      events.values,
    ),
  ];
  const write: Read<PlacedOrder> = {
    statements,
    answer([order, lines, events]) {
      const [orderRaw] = order?.rows ?? [];
      if (!orderRaw) throw new Error("the order row was not written");
      return {
        order: rowOf(orders, orderRaw),
        lines: (lines?.rows ?? []).map((each) => rowOf(orderLines, each)),
        events: (events?.rows ?? []).map((each) => rowOf(orderEvents, each)),
      };
    },
  };
  return { orderId, whatsappUpdates: row.whatsappUpdates, write };
}

/**
 * formatOrderNumber's number, made by the order's insert from the sequence (one round trip fewer than asking
 * for the next value first), with numberPrefix's year, this process's, as formatOrderNumber takes it.
 */
const NUMBER_FROM_SEQUENCE = sql<string>`(select ${sql.placeholder("numberPrefix")} || lpad(n::text, greatest(6, length(n::text)), '0') from nextval(${orderNumbers.seqName}::regclass) as n)`;

const numberPrefix = (placedAt: Date) => formatOrderNumber(placedAt, 0).slice(0, -6);

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

/**
 * Stock is taken by one UPDATE per line, the last statements of the message that carries the COMMIT
 * (PostgreSQL runs a message's statements in turn), so the row lock every order for the product waits on is
 * held for the update and the commit's flush, and not also for a round trip to this process, whose event loop
 * is busiest exactly then, in a sale (docs/decisions/069). The "stock >= 0" checks refuse a line there is not
 * enough of: the error stops the message before its COMMIT and the whole order rolls back; the last units go
 * to the orders whose updates reach them first.
 */
async function takeStockAndCommit(
  transaction: MessageTransaction,
  statements: Statement[],
  lines: OrderPricing["lines"],
) {
  try {
    return await transaction.commitWith(statements);
  } catch (error) {
    if (isCheckViolation(error, STOCK_CHECKS)) throw Object.assign(new Error("stock shortfall"), { lines });
    throw error;
  }
}

/** Products, then combos, each by key: the order a cancellation puts stock back in (order-status.ts). */
function stockStatements(lines: OrderPricing["lines"]) {
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
  const [quantity$, id$] = [sql.placeholder("quantity"), sql.placeholder("id")];
  return ordered.map(({ kind, itemId, quantity }) => {
    if (!Number.isSafeInteger(quantity) || quantity < 1) throw new Error(`bad quantity ${quantity}`);
    return kind === "product"
      ? fromTemplate(
          "take product stock",
          () =>
            sql`update ${products} set stock = stock - ${quantity$}, updated_at = now() where ${products.slug} = ${id$}`,
          { quantity, id: itemId },
        )
      : fromTemplate(
          "take combo stock",
          () =>
            sql`update ${combos} set stock = stock - ${quantity$}, updated_at = now() where ${combos.id} = ${id$}`,
          { quantity, id: itemId },
        );
  });
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
  // Each line in the words pricing and the refusal from memory use for it, so a shopper told one way or the
  // other in the same sale reads the same (which of them answers is a matter of milliseconds).
  const words = (line: OrderPricing["lines"][number]) => {
    const stock = Math.max(0, left.get(line.itemId) ?? 0);
    const availability = stock > 0 && stock < line.quantity ? "insufficient_stock" : "out_of_stock";
    return lineProblem({ name: line.name, availability, stock }) ?? "";
  };
  return httpError(
    409,
    "out_of_stock",
    `${first?.name ?? "An item"} is out of stock. Please remove it from your cart.`,
    Object.fromEntries(named.map((line) => [line.itemId, words(line)])),
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
function clearCartStatement(
  { buyer }: OrderPlacement,
  key: string,
  orderId: string,
  address: Destination["address"],
): Statement {
  const [order$, key$] = [sql.placeholder("orderId"), sql.placeholder("key")];
  if (buyer.kind === "guest") {
    return fromTemplate(
      "guest key settled",
      () =>
        sql`update ${guestOrderRequests} set order_id = ${order$} where ${guestOrderRequests.key} = ${key$}`,
      { orderId, key },
    );
  }
  const [user$, now$] = [sql.placeholder("userId"), sql.placeholder("now")];
  // One statement (data-modifying CTEs, each on its own table): the cart row is already this transaction's
  // (locked when it was read).
  return fromTemplate(
    "cart cleared",
    () => sql`
    with emptied as (delete from ${cartItems} where ${cartItems.userId} = ${user$}),
    moved as (
      update ${carts} set discount_code = null, version = version + 1, updated_at = ${now$}
      where ${carts.userId} = ${user$}
    ),
    keyed as (
      update ${orderRequests} set order_id = ${order$}
      where ${orderRequests.userId} = ${user$} and ${orderRequests.key} = ${key$}
    )
    update ${addresses} set last_used_at = ${now$}, updated_at = ${now$} where ${addresses.id} = ${sql.placeholder("addressId")}`,
    { userId: buyer.userId, orderId, key, now: new Date(), addressId: address.id },
  );
}
