import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import type { Hono } from "hono";
import type { RazorpayCheckout } from "../common/orders.ts";
import { codConfirmToken } from "../server/cod/confirm-link.ts";
import { confirmCodOrder, lapseUnconfirmedOrders } from "../server/cod-orders/confirmation.ts";
import type { Db } from "../server/db/client.ts";
import { jobs, moneyLedger, orders, products, shipments } from "../server/db/schema.ts";
import type { Deps } from "../server/deps.ts";
import { SOLD_OUT_BEFORE_PAYMENT } from "../server/money/ledger.ts";
import { expireUnpaidOrders } from "../server/orders/order-status.ts";
import { REFUND_UNAPPLIED_JOB } from "../server/payments/take-payment.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "./accounts.ts";
import { jsonRequest } from "./database.ts";
import type { FakeRazorpay } from "./fake-razorpay.ts";
import type { FakeShiprocket, ScanLabel } from "./fake-shiprocket.ts";
import { putInCart, saveAddress, TEST_ADDRESS } from "./orders.ts";

/**
 * The model-based test of money (issue 40, docs/decisions/075): random sequences of what shoppers, staff, the
 * shop's own jobs, Razorpay and the courier (Shiprocket's bookings and tracking scans, when a run has its fake) do
 * to orders, some of them at the same moment, run against the real API on
 * PostgreSQL. The model does not predict the shop's answers; it keeps the handles (orders, Razorpay orders,
 * payments) the steps act on, and after every step the shop's books are checked against what happened:
 * - no answer is a 5xx, and Razorpay's webhook is answered 200 for every payment of an order the shop made;
 * - the ledger: what was paid online and not refunded is an order's total while it stands paid online and 0
 *   otherwise, a cash-on-delivery order is never also paid online, and cash collected is none or its total;
 * - stock plus the units held by live orders equals the stock at the start, and never goes below 0;
 * - every payment the shop was told of is in the ledger once; at the end of a run, with Razorpay's webhook
 *   delivered for every payment (as Razorpay retries until it is taken) and the shop's jobs done, every
 *   captured payment is on an order or refunded in full exactly once, and what Razorpay refunded is what the
 *   ledger says was refunded, payment by payment.
 */

export const MODEL_PRODUCTS = ["face-glow-oil", "bath-powder"] as const;

type Placed = { number: string; id: string; guest: boolean; cookie: string | null; token: string | null };
type Opened = { razorpayOrderId: string; order: Placed; purpose: "checkout" | "switch" };
type Paid = { opened: Opened; paymentId: string; signature: string };
type Model = { orders: Placed[]; opened: Opened[]; paid: Paid[] };

/** What a run needs of the shop: its app, its parts (for the jobs a step runs itself) and its database. */
export type ModelShop = { app: Hono; deps: Deps; db: Db };

/** The people who act, signed up once for all runs. */
export type ModelCast = {
  staff: TestAccount;
  shoppers: { account: TestAccount; addressId: string }[];
};

/** Counts of what the steps did, so a caller can tell that a run reached the interesting states. */
export type ModelTally = Record<string, number>;

type World = {
  shop: ModelShop;
  fake: FakeRazorpay;
  /** The courier aggregator parcels are booked with and whose scans move orders; without it, staff ship by hand. */
  shiprocket: FakeShiprocket | null;
  cast: ModelCast;
  tally: ModelTally;
  /** Stock plus held units per product when the run began: what the shop must add up to throughout it. */
  stockAtStart: Record<string, number>;
};

/**
 * Each run begins with plenty of the first product and only a few of the second, so that unpaid orders for the
 * second outnumber its units and payments race for the last of them (docs/decisions/083).
 */
const STOCK_AT_RUN_START: Record<(typeof MODEL_PRODUCTS)[number], number> = {
  "face-glow-oil": 60,
  "bath-powder": 2,
};

/** Guests are told apart by their e-mail and mobile, numbered across runs. */
let guestsSoFar = 0;

class ServerFailed extends Error {}

async function call(
  world: World,
  method: string,
  path: string,
  options: { cookie?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const init = jsonRequest({
    method,
    body: options.body ?? (method === "GET" ? undefined : {}),
    ...(options.cookie ? { cookie: options.cookie } : {}),
    headers: options.headers,
  });
  // A signed body (Razorpay's webhook) goes as it was signed, byte for byte.
  if (typeof options.body === "string") init.body = options.body;
  const response = await world.shop.app.request(path, init);
  const text = await response.text();
  if (response.status >= 500)
    throw new ServerFailed(`${method} ${path} answered ${response.status}: ${text}`);
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const count = (world: World, what: string) => {
  world.tally[what] = (world.tally[what] ?? 0) + 1;
};
const pick = <T>(list: T[], index: number): T | undefined => list[index % Math.max(list.length, 1)];
const tokenOf = (world: World, order: Placed) => codConfirmToken(world.shop.deps.authSecret, order.id);
const today = () => new Date().toISOString().slice(0, 10);

async function totalOf(world: World, order: Placed) {
  const [row] = await world.shop.db
    .select({ total: orders.totalPaise })
    .from(orders)
    .where(eq(orders.id, order.id));
  return row?.total ?? 0;
}

type Step = fc.AsyncCommand<Model, World>;

/** A step the model can take whenever the handles it needs exist. */
abstract class ModelStep implements Step {
  abstract readonly label: string;
  check(_model: Readonly<Model>) {
    return true;
  }
  /** What the step does; run() does it and then checks the books. */
  abstract act(model: Model, world: World): Promise<void>;
  async run(model: Model, world: World) {
    count(world, "steps");
    await this.act(model, world);
    await checkBooks(world, model);
  }
  toString() {
    return this.label;
  }
}

class Place extends ModelStep {
  constructor(
    readonly method: "cod" | "razorpay",
    readonly guest: boolean,
    readonly shopper: number,
    readonly item: string,
    readonly quantity: number,
  ) {
    super();
  }
  get label() {
    return `place ${this.method} ${this.guest ? "guest" : `shopper${this.shopper}`} ${this.quantity}×${this.item}`;
  }
  async act(model: Model, world: World) {
    const items = [{ id: this.item, kind: "product", quantity: this.quantity }];
    let answer: Awaited<ReturnType<typeof call>>;
    let cookie: string | null = null;
    if (this.guest) {
      const n = ++guestsSoFar;
      answer = await call(world, "POST", "/api/guest-orders", {
        body: {
          email: `model-guest${n}@example.in`,
          address: { ...TEST_ADDRESS, phone: `98${String(10_000_000 + n).slice(-8)}` },
          items,
          paymentMethod: this.method,
        },
        headers: { "Idempotency-Key": randomUUID() },
      });
    } else {
      const shopper = pick(world.cast.shoppers, this.shopper);
      if (!shopper) return;
      cookie = shopper.account.cookie;
      await world.shop.db.execute(sql`delete from cart_items where user_id = ${shopper.account.userId}`);
      await putInCart(world.shop.db, shopper.account.userId, [
        { itemId: this.item, quantity: this.quantity },
      ]);
      answer = await call(world, "POST", "/api/orders", {
        cookie,
        body: { addressId: shopper.addressId, paymentMethod: this.method },
        headers: { "Idempotency-Key": randomUUID() },
      });
    }
    if (answer.status !== 201) {
      count(world, `place refused ${answer.status}`);
      return;
    }
    const number = (answer.body.order as { number: string }).number;
    const [row] = await world.shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
    if (!row) throw new Error(`order ${number} was answered 201 but is not in the database`);
    const token = typeof answer.body.token === "string" ? answer.body.token : null;
    model.orders.push({ number, id: row.id, guest: this.guest, cookie, token });
    count(world, `placed ${this.method}`);
  }
}

abstract class OrderStep extends ModelStep {
  constructor(readonly index: number) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.orders.length > 0;
  }
  order(model: Model) {
    return pick(model.orders, this.index) as Placed;
  }
}

/** Checkout opened for an online order (by the shopper's page; a second tap or tab opens again). */
class OpenCheckout extends OrderStep {
  get label() {
    return `open checkout #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const answer = order.guest
      ? await call(world, "POST", `/api/guest-orders/${order.number}/payment?token=${order.token}`)
      : await call(world, "POST", `/api/orders/${order.number}/payment`, { cookie: order.cookie });
    if (answer.status !== 200) return;
    const checkout = answer.body as unknown as RazorpayCheckout;
    model.opened.push({ razorpayOrderId: checkout.razorpayOrderId, order, purpose: "checkout" });
    count(world, "checkout opened");
  }
}

/** "Pay online instead" tapped on a cash-on-delivery order's confirmation link. */
class OpenSwitch extends OrderStep {
  get label() {
    return `pay online instead #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const answer = await call(
      world,
      "POST",
      `/api/cod-confirm/${order.number}/pay-online?token=${tokenOf(world, order)}`,
    );
    if (answer.status !== 200) return;
    const checkout = answer.body as unknown as RazorpayCheckout;
    model.opened.push({ razorpayOrderId: checkout.razorpayOrderId, order, purpose: "switch" });
    count(world, "switch opened");
  }
}

/** The shopper pays at Razorpay: the money is captured whatever the shop does next. */
class Pay extends ModelStep {
  constructor(readonly index: number) {
    super();
  }
  get label() {
    return `pay opened #${this.index}`;
  }
  override check(model: Readonly<Model>) {
    return model.opened.length > 0;
  }
  async act(model: Model, world: World) {
    const opened = pick(model.opened, this.index) as Opened;
    const paid = world.fake.pay(opened.razorpayOrderId);
    model.paid.push({ opened, paymentId: paid.razorpay_payment_id, signature: paid.razorpay_signature });
    count(world, "paid at Razorpay");
  }
}

abstract class PaymentStep extends ModelStep {
  constructor(readonly index: number) {
    super();
  }
  override check(model: Readonly<Model>) {
    return model.paid.length > 0;
  }
  payment(model: Model) {
    return pick(model.paid, this.index) as Paid;
  }
}

/** The browser reports the payment (Checkout's handler), possibly again, possibly after the webhook. */
class Verify extends PaymentStep {
  get label() {
    return `verify payment #${this.index}`;
  }
  async act(model: Model, world: World) {
    const { opened, paymentId, signature } = this.payment(model);
    const body = {
      razorpayOrderId: opened.razorpayOrderId,
      razorpayPaymentId: paymentId,
      razorpaySignature: signature,
    };
    const { order } = opened;
    const path =
      opened.purpose === "switch"
        ? `/api/cod-confirm/${order.number}/pay-online/verify?token=${tokenOf(world, order)}`
        : order.guest
          ? `/api/guest-orders/${order.number}/payment/verify?token=${order.token}`
          : `/api/orders/${order.number}/payment/verify`;
    const answer = await call(world, "POST", path, { cookie: order.cookie, body });
    count(world, `verify ${answer.status}`);
  }
}

/** Razorpay's payment.captured webhook, early, late or twice: it must be taken (200) every time. */
class Webhook extends PaymentStep {
  get label() {
    return `webhook payment #${this.index}`;
  }
  async act(model: Model, world: World) {
    await deliverWebhook(world, this.payment(model));
  }
}

async function deliverWebhook(world: World, payment: Paid) {
  const hook = world.fake.webhook(payment.opened.razorpayOrderId, payment.paymentId);
  const answer = await call(world, "POST", "/api/payments/razorpay/webhook", {
    body: hook.body,
    headers: { "X-Razorpay-Signature": hook.signature },
  });
  if (answer.status !== 200) {
    throw new ServerFailed(
      `the webhook of ${payment.paymentId} was answered ${answer.status}: Razorpay retries`,
    );
  }
  count(world, "webhook taken");
}

/** The cash-on-delivery order confirmed by its shopper's link, on WhatsApp, or by staff who called them. */
class Confirm extends OrderStep {
  constructor(
    index: number,
    readonly by: "link" | "whatsapp" | "staff",
  ) {
    super(index);
  }
  get label() {
    return `confirm by ${this.by} #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    let status: number;
    if (this.by === "whatsapp") {
      status = await confirmCodOrder(world.shop.deps, order.id, "whatsapp").then(
        () => 200,
        (error: { status?: number }) => {
          if (!error.status || error.status >= 500) throw error;
          return error.status;
        },
      );
    } else if (this.by === "link") {
      status = (
        await call(world, "POST", `/api/cod-confirm/${order.number}/confirm?token=${tokenOf(world, order)}`)
      ).status;
    } else {
      status = (
        await call(world, "POST", `/api/admin/cod-confirm/${order.number}/confirm`, {
          cookie: world.cast.staff.cookie,
        })
      ).status;
    }
    count(world, `confirm ${status}`);
  }
}

/** Cancelled by the shopper (their order page, the confirmation link) or by staff. */
class Cancel extends OrderStep {
  constructor(
    index: number,
    readonly by: "shopper" | "link" | "staff",
  ) {
    super(index);
  }
  get label() {
    return `cancel by ${this.by} #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const answer =
      this.by === "staff"
        ? await call(world, "POST", `/api/admin/orders/${order.number}/status`, {
            cookie: world.cast.staff.cookie,
            body: { status: "cancelled" },
          })
        : this.by === "link"
          ? await call(
              world,
              "POST",
              `/api/cod-confirm/${order.number}/cancel?token=${tokenOf(world, order)}`,
            )
          : order.guest
            ? await call(world, "POST", `/api/guest-orders/${order.number}/cancel?token=${order.token}`)
            : await call(world, "POST", `/api/orders/${order.number}/cancel`, { cookie: order.cookie });
    count(world, `cancel ${answer.status}`);
  }
}

/** Staff change the items (more or fewer units, a second product) or the address. */
class Edit extends OrderStep {
  constructor(
    index: number,
    readonly quantity: number,
    readonly addSecond: boolean,
    readonly address: boolean,
  ) {
    super(index);
  }
  get label() {
    return this.address
      ? `edit address #${this.index}`
      : `edit items #${this.index} to ${this.quantity}${this.addSecond ? " + second product" : ""}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const cookie = world.cast.staff.cookie;
    if (this.address) {
      const answer = await call(world, "PUT", `/api/admin/orders/${order.number}/address`, {
        cookie,
        body: { ...TEST_ADDRESS, line1: `${this.quantity} Model Street` },
      });
      count(world, `edit address ${answer.status}`);
      return;
    }
    const lines: { itemId: string; kind: "product"; quantity: number }[] = [
      { itemId: MODEL_PRODUCTS[0], kind: "product", quantity: this.quantity },
    ];
    if (this.addSecond) lines.push({ itemId: MODEL_PRODUCTS[1], kind: "product", quantity: 1 });
    const answer = await call(world, "PUT", `/api/admin/orders/${order.number}/items`, {
      cookie,
      body: { lines },
    });
    count(world, `edit items ${answer.status}`);
  }
}

const STAFF_MOVES = [
  "packed",
  "shipped",
  "delivered",
  "returned_to_origin",
  "received back",
  "return_requested",
  "returned",
  "refunded",
] as const;

/** Staff move the order along: pack, ship, deliver, a return to origin and its parcel back, a return, a refund. */
class Move extends OrderStep {
  constructor(
    index: number,
    readonly to: (typeof STAFF_MOVES)[number],
  ) {
    super(index);
  }
  get label() {
    return `staff: ${this.to} #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const cookie = world.cast.staff.cookie;
    const answer =
      this.to === "shipped"
        ? await call(world, "POST", `/api/admin/orders/${order.number}/ship`, {
            cookie,
            body: { courier: "Blue Dart", trackingNumber: `BD-${order.number.replace(/\D/g, "")}` },
          })
        : this.to === "returned_to_origin"
          ? await call(world, "POST", `/api/admin/rto/orders/${order.number}`, {
              cookie,
              body: { forwardPaise: 6000, returnPaise: 5000 },
            })
          : this.to === "received back"
            ? await call(world, "POST", `/api/admin/rto/orders/${order.number}/received`, { cookie })
            : await call(world, "POST", `/api/admin/orders/${order.number}/status`, {
                cookie,
                body: {
                  status: this.to,
                  ...(this.to === "refunded"
                    ? { refundMethod: "upi", refundReference: `UTR${order.number.replace(/\D/g, "")}` }
                    : {}),
                },
              });
    count(world, `${this.to} ${answer.status}`);
  }
}

/**
 * Staff take the order one step further along its usual path, whatever it is now (confirm, pack, ship, then
 * deliver or a return to origin, the parcel back, a return, a refund): random moves alone rarely get deep.
 */
class Advance extends OrderStep {
  constructor(
    index: number,
    readonly refused: boolean,
  ) {
    super(index);
  }
  get label() {
    return `staff: next step${this.refused ? " (parcel refused)" : ""} #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const [row] = await world.shop.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, order.id));
    // A parcel booked with Shiprocket moves by its courier's scans, as it does in the shop.
    const booked = world.shiprocket ? await awbOf(world, order) : null;
    const next: Partial<Record<string, ModelStep>> = {
      placed: new Confirm(this.index, "staff"),
      confirmed: new Move(this.index, "packed"),
      packed: booked
        ? new Scan(this.index, "PICKED UP", "all")
        : world.shiprocket && !this.refused
          ? new Book(this.index)
          : new Move(this.index, "shipped"),
      shipped: booked
        ? new Scan(this.index, this.refused ? "RTO INITIATED" : "DELIVERED", "all")
        : new Move(this.index, this.refused ? "returned_to_origin" : "delivered"),
      delivered: this.refused ? new Move(this.index, "return_requested") : new Remit(this.index, true),
      return_requested: new Move(this.index, "returned"),
      returned: new Move(this.index, "refunded"),
      returned_to_origin: this.refused
        ? booked
          ? new Scan(this.index, "RTO DELIVERED", "all")
          : new Move(this.index, "received back")
        : new Move(this.index, "refunded"),
      cancelled: new Move(this.index, "refunded"),
    };
    await next[row?.status ?? ""]?.act(model, world);
  }
}

/** The order's parcel booked with Shiprocket, if it has one with an airway bill. */
async function awbOf(world: World, order: Placed): Promise<string | null> {
  const [live] = await world.shop.db
    .select({ awb: shipments.awb })
    .from(shipments)
    .where(
      and(
        eq(shipments.orderId, order.id),
        sql`${shipments.awb} is not null`,
        sql`${shipments.status} <> 'cancelled'`,
      ),
    );
  return live?.awb ?? null;
}

/** Staff book the order's parcel with Shiprocket's cheapest courier (a ready order; anything else is refused). */
class Book extends OrderStep {
  get label() {
    return `staff: book with Shiprocket #${this.index}`;
  }
  async act(model: Model, world: World) {
    if (!world.shiprocket) return;
    const order = this.order(model);
    const answer = await call(world, "POST", `/api/admin/shipping/orders/${order.number}/book`, {
      cookie: world.cast.staff.cookie,
      body: { rule: "cheapest" },
    });
    count(world, `book ${answer.status}`);
  }
}

/**
 * The courier scans the parcel and Shiprocket tells the shop: all the scans so far, only the newest (an update
 * out of order when older ones never came), or the same update again later. A scan dated in 2099 is one a
 * clock or a forger got wrong: the shop must ignore it (issue 40, point 3).
 */
class Scan extends OrderStep {
  constructor(
    index: number,
    readonly scan: ScanLabel,
    readonly told: "all" | "newest" | "future",
  ) {
    super(index);
  }
  get label() {
    return `courier: ${this.scan} (${this.told}) #${this.index}`;
  }
  async act(model: Model, world: World) {
    const shiprocket = world.shiprocket;
    if (!shiprocket) return;
    const awb = await awbOf(world, this.order(model));
    if (!awb) return;
    const scan = shiprocket.scan(
      awb,
      this.scan,
      this.told === "future" ? new Date("2099-01-01T10:00:00Z") : undefined,
    );
    const body = shiprocket.webhookBody(awb, this.told === "all" ? undefined : [scan]);
    const answer = await call(world, "POST", "/api/shipping/tracking-updates", {
      body: JSON.stringify(body),
      headers: { "x-api-key": shiprocket.webhookToken },
    });
    count(world, `scan ${this.scan} ${answer.status}`);
  }
}

/** The courier's cash, recorded by hand or imported from its remittance report. */
class Remit extends OrderStep {
  constructor(
    index: number,
    readonly byReport: boolean,
  ) {
    super(index);
  }
  get label() {
    return `${this.byReport ? "remittance report" : "cash recorded"} #${this.index}`;
  }
  async act(model: Model, world: World) {
    const order = this.order(model);
    const total = await totalOf(world, order);
    const cookie = world.cast.staff.cookie;
    const answer = this.byReport
      ? await call(world, "POST", "/api/admin/cod/remittances", {
          cookie,
          body: {
            csv: `order number,amount,date,reference\n${order.number},${total / 100},${today()},UTR-${order.number}\n`,
          },
        })
      : await call(world, "POST", `/api/admin/cod/orders/${order.number}/cash`, {
          cookie,
          body: { amountPaise: total, collectedOn: today(), reference: `CASH-${order.number}` },
        });
    count(world, `${this.byReport ? "remittance" : "cash"} ${answer.status}`);
  }
}

/** The shop's own minute jobs, run as if a day had passed: unconfirmed and unpaid orders lapse. */
class Lapse extends ModelStep {
  readonly label = "a day passes: lapse jobs";
  async act(_model: Model, world: World) {
    const tomorrow = new Date(Date.now() + 24 * 60 * 60_000);
    const lapsed = await lapseUnconfirmedOrders(world.shop.deps, tomorrow);
    const expired = await expireUnpaidOrders(world.shop.deps, tomorrow);
    world.tally.lapsed = (world.tally.lapsed ?? 0) + lapsed + expired;
  }
}

/** Two steps at the same moment: a shopper paying while staff confirm, a webhook racing the browser... */
class Together extends ModelStep {
  constructor(readonly steps: ModelStep[]) {
    super();
  }
  get label() {
    return `together(${this.steps.map((step) => step.label).join(" | ")})`;
  }
  override check(model: Readonly<Model>) {
    return this.steps.every((step) => step.check(model));
  }
  async act(model: Model, world: World) {
    await Promise.all(this.steps.map((step) => step.act(model, world)));
  }
}

const index = fc.nat({ max: 50 });
const single: fc.Arbitrary<ModelStep>[] = [
  fc
    .tuple(
      fc.constantFrom("cod" as const, "razorpay" as const),
      fc.boolean(),
      fc.nat({ max: 1 }),
      fc.constantFrom(...MODEL_PRODUCTS),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([method, guest, shopper, item, quantity]) => new Place(method, guest, shopper, item, quantity)),
  index.map((i) => new OpenCheckout(i)),
  index.map((i) => new OpenSwitch(i)),
  index.map((i) => new Pay(i)),
  index.map((i) => new Verify(i)),
  index.map((i) => new Webhook(i)),
  fc
    .tuple(index, fc.constantFrom("link" as const, "whatsapp" as const, "staff" as const))
    .map(([i, by]) => new Confirm(i, by)),
  fc
    .tuple(index, fc.constantFrom("shopper" as const, "link" as const, "staff" as const))
    .map(([i, by]) => new Cancel(i, by)),
  fc
    .tuple(index, fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean())
    .map(([i, quantity, second, address]) => new Edit(i, quantity, second, address)),
  fc.tuple(index, fc.constantFrom(...STAFF_MOVES)).map(([i, to]) => new Move(i, to)),
  fc.tuple(index, fc.boolean()).map(([i, byReport]) => new Remit(i, byReport)),
  fc.constant(new Lapse()),
  fc.tuple(index, fc.boolean()).map(([i, refused]) => new Advance(i, refused)),
  index.map((i) => new Book(i)),
  fc
    .tuple(
      index,
      fc.constantFrom<ScanLabel>(
        "PICKED UP",
        "IN TRANSIT",
        "OUT FOR DELIVERY",
        "DELIVERED",
        "UNDELIVERED",
        "RTO INITIATED",
        "RTO DELIVERED",
      ),
      fc.constantFrom("all" as const, "newest" as const, "future" as const),
    )
    .map(([i, label, told]) => new Scan(i, label, told)),
];
// Placing, paying, the payment's reports and the usual next step are what the others need, so they come more
// often; a day passing (which lapses every waiting order) least.
const weighted = [
  { arbitrary: single[0] as fc.Arbitrary<ModelStep>, weight: 6 },
  ...single.slice(1, 6).map((arbitrary) => ({ arbitrary, weight: 4 })),
  ...single.slice(6, 11).map((arbitrary) => ({ arbitrary, weight: 2 })),
  { arbitrary: single[11] as fc.Arbitrary<ModelStep>, weight: 1 },
  { arbitrary: single[12] as fc.Arbitrary<ModelStep>, weight: 8 },
  { arbitrary: single[13] as fc.Arbitrary<ModelStep>, weight: 2 },
  { arbitrary: single[14] as fc.Arbitrary<ModelStep>, weight: 5 },
];
const oneStep = fc.oneof(...weighted);

/** Every step the model takes: one at a time, or two or three at the same moment. */
export const moneySteps = [
  oneStep,
  fc.array(oneStep, { minLength: 2, maxLength: 3 }).map((steps) => new Together(steps)),
];

/** Signs up the staff member and two shoppers. */
export async function castForModel(shop: ModelShop, prefix: string): Promise<ModelCast> {
  const staff = await signUpViaApp(shop.app, `${prefix}-staff@example.in`);
  await makeAdmin(shop, staff, "owner");
  const shoppers = await Promise.all(
    [1, 2].map(async (n) => {
      const account = await signUpViaApp(shop.app, `${prefix}-shopper${n}@example.in`);
      return { account, addressId: await saveAddress(shop.app, account.cookie) };
    }),
  );
  return { staff, shoppers };
}

/**
 * Per model product: its stock plus the units on orders that hold them: paid or cash on delivery (an unpaid order
 * holds none, docs/decisions/083), not cancelled, not back from a return to origin.
 */
async function stockAndHeld(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.execute<{ slug: string; total: string }>(sql`
    select p.slug, p.stock + coalesce((
      select sum(l.quantity) from order_lines l join orders o on o.id = l.order_id
      left join order_rto r on r.order_id = o.id
      where l.kind = 'product' and l.item_id = p.slug and o.status <> 'awaiting_payment'
        and o.cancelled_at is null and r.received_at is null
    ), 0) as total
    from products p where p.slug in (${sql.join(
      MODEL_PRODUCTS.map((slug) => sql`${slug}`),
      sql`, `,
    )})`);
  return Object.fromEntries(rows.map((row) => [row.slug, Number(row.total)]));
}

/** The books after a step: money per order, stock, and every payment the shop was told of recorded once. */
async function checkBooks(world: World, model: Model) {
  const { db } = world.shop;
  const { rows: wrong } = await db.execute<{ number: string; problem: string }>(sql`
    with money as (
      select o.number, o.payment_method, o.status, o.total_paise,
        coalesce(bool_or(l.kind = 'online_payment' and l.applied), false) as paid,
        coalesce(sum(case l.kind when 'online_payment' then l.amount_paise when 'online_refund' then -l.amount_paise end)
          filter (where l.applied), 0) as net_online,
        coalesce(sum(l.amount_paise) filter (where l.kind = 'cash_collected'), 0) as cash
      from orders o left join money_ledger l on l.order_id = o.id
      group by o.id
    )
    select number, case
      when payment_method = 'cod' and net_online <> 0
        then 'cash on delivery, yet ' || net_online || ' paise paid online'
      when payment_method = 'razorpay' and paid and status <> 'refunded' and net_online <> total_paise
        then 'stands paid online, ' || net_online || ' paise of ' || total_paise || ' held'
      when (not paid or status = 'refunded') and net_online <> 0
        then 'not paid online, yet ' || net_online || ' paise held'
      when cash <> 0 and cash <> total_paise then cash || ' paise collected on a total of ' || total_paise
    end as problem
    from money`);
  const problems = wrong.filter((row) => row.problem);
  if (problems.length > 0) {
    throw new Error(
      `the ledger does not add up: ${problems.map((row) => `${row.number}: ${row.problem}`).join("; ")}`,
    );
  }
  const stock = await stockAndHeld(db);
  for (const slug of MODEL_PRODUCTS) {
    if (stock[slug] !== world.stockAtStart[slug]) {
      throw new Error(
        `${slug}: stock plus held units is ${stock[slug]}, ${world.stockAtStart[slug]} at the start`,
      );
    }
  }
  const ids = model.paid.map((payment) => payment.paymentId);
  if (ids.length > 0) {
    const { rows: twice } = await db.execute<{ id: string; n: string }>(sql`
      select razorpay_payment_id as id, count(*) as n from money_ledger
      where kind = 'online_payment' and razorpay_payment_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
      group by razorpay_payment_id having count(*) > 1`);
    if (twice.length > 0)
      throw new Error(`payments recorded twice: ${twice.map((row) => row.id).join(", ")}`);
  }
}

/**
 * The end of a run: Razorpay delivers every payment's webhook (it retries until one is taken), the shop's refund
 * jobs finish, and then every captured payment is on an order or refunded in full exactly once, and Razorpay's
 * refunds are the ledger's.
 */
async function settleRun(world: World, model: Model) {
  for (const payment of model.paid) await deliverWebhook(world, payment);
  const { db } = world.shop;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pending = await db
      .select({ status: jobs.status, lastError: jobs.lastError, payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.kind, REFUND_UNAPPLIED_JOB), inArray(jobs.status, ["queued", "running", "failed"])));
    const failed = pending.find((job) => job.status === "failed");
    if (failed) throw new Error(`a refund job failed: ${failed.lastError}`);
    if (pending.length === 0) break;
    if (Date.now() > deadline) throw new Error(`${pending.length} refund jobs still waiting after 30 s`);
    world.shop.deps.jobs.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const payment of model.paid) {
    const rows = await db
      .select()
      .from(moneyLedger)
      .where(eq(moneyLedger.razorpayPaymentId, payment.paymentId));
    const captured = rows.filter((row) => row.kind === "online_payment");
    const [capture] = captured;
    if (captured.length !== 1 || !capture) {
      throw new Error(`payment ${payment.paymentId} is in the ledger ${captured.length} times`);
    }
    const ledgerRefunded = rows
      .filter((row) => row.kind === "online_refund")
      .reduce((sum, row) => sum + row.amountPaise, 0);
    const atRazorpay = world.fake.refunds.filter((refund) => refund.paymentId === payment.paymentId);
    const razorpayRefunded = atRazorpay.reduce((sum, refund) => sum + refund.amount, 0);
    if (ledgerRefunded !== razorpayRefunded) {
      throw new Error(
        `payment ${payment.paymentId}: Razorpay refunded ${razorpayRefunded} paise, the ledger says ${ledgerRefunded}`,
      );
    }
    if (!capture.applied && (atRazorpay.length !== 1 || razorpayRefunded !== capture.amountPaise)) {
      throw new Error(
        `payment ${payment.paymentId} could not be applied and was refunded ${atRazorpay.length} times, ${razorpayRefunded} of ${capture.amountPaise} paise`,
      );
    }
    count(world, capture.applied ? "payment applied" : "payment refunded whole");
    if (capture.note === SOLD_OUT_BEFORE_PAYMENT) count(world, "payment came after the last units sold");
  }
  await checkBooks(world, model);
}

/**
 * Runs the model: `numRuns` random sequences of up to `maxSteps` steps from `seed`. Throws (with fast-check's
 * report: the seed, the path and the shrunk steps) at the first books that do not add up; answers the tally.
 */
export async function runMoneyModel(
  shop: ModelShop,
  fake: FakeRazorpay,
  cast: ModelCast,
  options: { seed: number; numRuns: number; maxSteps: number; shiprocket?: FakeShiprocket },
): Promise<ModelTally> {
  const tally: ModelTally = {};
  // Couriers price by weight: the model's products have theirs, so a ready parcel can be booked.
  if (options.shiprocket) {
    await shop.db
      .update(products)
      .set({ weightGrams: 220, lengthCm: 6, breadthCm: 6, heightCm: 16 })
      .where(inArray(products.slug, [...MODEL_PRODUCTS]));
  }
  await fc.assert(
    fc.asyncProperty(
      fc.commands(moneySteps, { maxCommands: options.maxSteps, size: "max" }),
      async (steps) => {
        for (const slug of MODEL_PRODUCTS) {
          await shop.db
            .update(products)
            .set({ stock: STOCK_AT_RUN_START[slug] })
            .where(eq(products.slug, slug));
        }
        const world: World = {
          shop,
          fake,
          shiprocket: options.shiprocket ?? null,
          cast,
          tally,
          stockAtStart: await stockAndHeld(shop.db),
        };
        const model: Model = { orders: [], opened: [], paid: [] };
        await fc.asyncModelRun(() => ({ model, real: world }), steps);
        await settleRun(world, model);
      },
    ),
    { seed: options.seed, numRuns: options.numRuns, endOnFailure: true },
  );
  return tally;
}
