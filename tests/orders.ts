import { randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Hono } from "hono";
import type { OrderStatus } from "../common/order-lifecycle.ts";
import type { OrderDetail } from "../common/orders.ts";
import type { Db } from "../server/db/client.ts";
import {
  cartItems,
  carts,
  combos,
  discountUses,
  moneyLedger,
  orders,
  products,
  taxDocuments,
} from "../server/db/schema.ts";
import { signUpViaApp, type TestAccount } from "./accounts.ts";
import { jsonRequest } from "./database.ts";

export const ORIGIN = "http://localhost:3000";

export const TEST_ADDRESS = {
  name: "Meera Iyer",
  phone: "98765 43210",
  line1: "12, Lotus Apartments, 3rd Cross",
  line2: "Indiranagar",
  city: "Bengaluru",
  state: "Karnataka",
  pin: "560038",
};

type CartEntry = { itemId: string; kind?: "product" | "combo"; quantity?: number };

/**
 * Fills a signed-in shopper's cart the way the cart API stores it, for tests about orders rather than carts:
 * a carts row, one cart_items row per item at today's price, and, for an applied code, the discount use
 * that applying records.
 */
export async function putInCart(db: Db, userId: string, entries: CartEntry[], discountCode?: string) {
  await db
    .insert(carts)
    .values({ userId, discountCode: discountCode ?? null })
    .onConflictDoUpdate({ target: carts.userId, set: { discountCode: discountCode ?? null } });
  for (const { itemId, kind = "product", quantity = 1 } of entries) {
    const [row] =
      kind === "product"
        ? await db.select({ price: products.pricePaise }).from(products).where(eq(products.slug, itemId))
        : await db.select({ price: combos.salePricePaise }).from(combos).where(eq(combos.id, itemId));
    if (!row) throw new Error(`no ${kind} ${itemId}`);
    await db
      .insert(cartItems)
      .values({ userId, itemId, kind, quantity, addedPricePaise: row.price })
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.itemId],
        set: { quantity: sql`${cartItems.quantity} + ${quantity}` },
      });
  }
  if (discountCode)
    await db.insert(discountUses).values({ userId, code: discountCode }).onConflictDoNothing();
}

type OrderRow = typeof orders.$inferInsert;

/**
 * An order row written straight into the orders table, for tests about what reads orders (figures, sweeps,
 * the ledger) rather than about placing one: a placeholder delivery address and window, nothing shipped, and
 * the subtotal equal to the total unless `row` says otherwise (a field given as undefined keeps the
 * placeholder). Answers its id.
 */
export async function insertOrderRow(
  db: Db,
  row: Omit<OrderRow, "id" | "subtotalPaise" | "shippingPaise" | "totalPaise" | OrderAddressField> &
    Partial<OrderRow>,
): Promise<string> {
  const id = row.id ?? randomUUID();
  const totalPaise = row.totalPaise ?? 50_000;
  await db.insert(orders).values({
    subtotalPaise: totalPaise,
    shippingPaise: 0,
    shipName: "Test",
    shipPhone: "9876543210",
    shipLine1: "1 Main Road",
    shipCity: "Somewhere",
    shipState: "Karnataka",
    shipPin: "560038",
    estimatedDeliveryFrom: "2026-03-20",
    estimatedDeliveryTo: "2026-03-22",
    ...(Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as typeof row),
    id,
    totalPaise,
  });
  return id;
}

type OrderAddressField =
  | "shipName"
  | "shipPhone"
  | "shipLine1"
  | "shipCity"
  | "shipState"
  | "shipPin"
  | "estimatedDeliveryFrom"
  | "estimatedDeliveryTo";

export async function setStock(db: Db, slug: string, stock: number) {
  await db.update(products).set({ stock }).where(eq(products.slug, slug));
}

export async function stockOf(db: Db, slug: string) {
  const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.slug, slug));
  return row?.stock;
}

/** JSON request options for app.request() as a signed-in shopper. */
export function asUser(
  cookie: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return jsonRequest({ ...init, cookie, headers: { Origin: ORIGIN, ...init.headers } });
}

export async function saveAddress(app: Hono, cookie: string, address = TEST_ADDRESS): Promise<string> {
  const response = await app.request("/api/addresses", asUser(cookie, { method: "POST", body: address }));
  if (response.status !== 201) throw new Error(`address: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { address: { id: string } }).address.id;
}

/** A signed-in customer with an address in their address book, ready to place an order. */
export type Customer = TestAccount & { addressId: string };

/** A new account, signed up through the API, with `address` saved in its address book. */
export async function signUpWithAddress(app: Hono, email: string, address = TEST_ADDRESS): Promise<Customer> {
  const account = await signUpViaApp(app, email);
  return { ...account, addressId: await saveAddress(app, account.cookie, address) };
}

/**
 * `who`'s cash-on-delivery order of `items` (with `discountCode`, when given) to their saved address, placed
 * through the API; fails unless it is placed. Answers the order as the API returns it.
 */
export async function placeCodOrder(
  shop: { app: Hono; db: Db },
  who: { cookie: string; userId: string; addressId: string },
  items: CartEntry[],
  discountCode?: string,
): Promise<OrderDetail> {
  await putInCart(shop.db, who.userId, items, discountCode);
  const placed = await placeOrderRequest(shop.app, who.cookie, {
    addressId: who.addressId,
    paymentMethod: "cod",
  });
  if (placed.status !== 201) throw new Error(`order: ${placed.status} ${await placed.text()}`);
  return ((await placed.json()) as { order: OrderDetail }).order;
}

/** The orders row of the order numbered `number`. */
export async function orderRowOf(db: Db, number: string) {
  const [row] = await db.select().from(orders).where(eq(orders.number, number));
  if (!row) throw new Error(`no order ${number}`);
  return row;
}

/** The tax documents of the order numbered `number`, invoices and credit notes, in the order they were issued. */
export async function taxDocumentsOf(db: Db, number: string) {
  const rows = await db
    .select({ document: taxDocuments })
    .from(taxDocuments)
    .innerJoin(orders, eq(orders.id, taxDocuments.orderId))
    .where(eq(orders.number, number))
    .orderBy(taxDocuments.issuedAt, taxDocuments.number);
  return rows.map((row) => row.document);
}

export function placeOrderRequest(
  app: Hono,
  cookie: string,
  body: Record<string, unknown>,
  key: string = randomUUID(),
) {
  return app.request(
    "/api/orders",
    asUser(cookie, { method: "POST", body, headers: { "Idempotency-Key": key } }),
  );
}

type GuestOrder = {
  email: string;
  /** The delivery mobile, in place of TEST_ADDRESS's. */
  phone?: string;
  [field: string]: unknown;
};

/**
 * A guest's order through the API (POST /api/guest-orders) under a new Idempotency-Key, unless `headers`
 * names one: delivered to TEST_ADDRESS (at `phone`, when given), one bath powder, cash on delivery, unless
 * `order` says otherwise; any other field of `order` goes into the body as it is.
 */
export function placeGuestOrderRequest(
  app: Hono,
  { phone, ...order }: GuestOrder,
  headers: Record<string, string> = {},
) {
  return app.request(
    "/api/guest-orders",
    jsonRequest({
      method: "POST",
      headers: { "Idempotency-Key": randomUUID(), ...headers },
      body: {
        address: phone ? { ...TEST_ADDRESS, phone } : TEST_ADDRESS,
        items: [{ id: "bath-powder", kind: "product", quantity: 1 }],
        paymentMethod: "cod",
        ...order,
      },
    }),
  );
}

/**
 * A cash-on-delivery order of `shopper`'s for one of `itemId`, placed through the API and moved by `staff`
 * through `statuses` (confirmed, then packed, unless told otherwise): ready to ship. Answers its number.
 */
export async function placeMovedCodOrder(
  shop: { app: Hono; db: Db },
  order: {
    shopper: { cookie: string; userId: string };
    addressId: string;
    itemId: string;
    staff: { cookie: string };
    statuses?: string[];
  },
): Promise<string> {
  const { number } = await placeCodOrder(shop, { ...order.shopper, addressId: order.addressId }, [
    { itemId: order.itemId },
  ]);
  for (const status of order.statuses ?? ["confirmed", "packed"]) {
    const moved = await shop.app.request(
      `/api/admin/orders/${number}/status`,
      asUser(order.staff.cookie, { method: "POST", body: { status } }),
    );
    if (moved.status !== 200) throw new Error(`${status}: ${moved.status} ${await moved.text()}`);
  }
  return number;
}

/**
 * Makes an order stand as one paid online through Razorpay would (for a test that needs one without going
 * through Checkout): its method and its ledger, rewritten together so the ledger's check at commit holds
 * (docs/decisions/075, 091).
 */
export async function standAsPaidOnline(
  db: Db,
  number: string,
  options: { paymentId?: string; status?: OrderStatus } = {},
) {
  const paymentId = options.paymentId ?? `pay_${randomBytes(7).toString("hex")}`;
  await db.transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({
        paymentMethod: "razorpay",
        ...(options.status ? { status: options.status } : {}),
      })
      .where(eq(orders.number, number))
      .returning();
    if (!order) throw new Error(`no order ${number}`);
    await tx.delete(moneyLedger).where(eq(moneyLedger.orderId, order.id));
    await tx.insert(moneyLedger).values({
      orderId: order.id,
      kind: "online_payment",
      amountPaise: order.totalPaise,
      razorpayPaymentId: paymentId,
    });
  });
  return paymentId;
}

/**
 * A money ledger row: `amountPaise` paid online for `orderId` through Razorpay's payment `paymentId` at `at`,
 * applied to the order unless `applied` is false (a payment that came too late).
 */
export const onlinePaymentEntry = (
  orderId: string,
  paymentId: string,
  amountPaise: number,
  at: Date,
  applied = true,
) => ({
  orderId,
  kind: "online_payment" as const,
  amountPaise,
  applied,
  razorpayPaymentId: paymentId,
  createdAt: at,
});

/** A money ledger row: `amountPaise` of the payment `paymentId` refunded online at `at`, under a refund id of its own. */
export const onlineRefundEntry = (...entry: Parameters<typeof onlinePaymentEntry>) => ({
  ...onlinePaymentEntry(...entry),
  kind: "online_refund" as const,
  razorpayRefundId: `rfnd_${randomBytes(7).toString("hex")}`,
});
