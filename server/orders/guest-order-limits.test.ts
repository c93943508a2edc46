import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { signUpViaApp } from "../../tests/accounts.ts";
import { callApi, jsonRequest } from "../../tests/database.ts";
import { setUpTestAppWithRazorpay } from "../../tests/fake-razorpay.ts";
import {
  placeOrderRequest,
  putInCart,
  saveAddress,
  setStock,
  stockOf,
  TEST_ADDRESS,
} from "../../tests/orders.ts";
import { orders } from "../db/schema.ts";
import { NO_ORDER_LINK } from "./guest-order-access.ts";

// Low limits of this file's own, so a test reaches them in a few requests (docs/decisions/050).
const LIMITS = {
  GUEST_ORDER_PER_CLIENT: "5",
  GUEST_ORDER_PER_CONTACT: "3",
  GUEST_ORDER_WINDOW_MINUTES: "60",
  GUEST_ORDER_LINK_MISSES_PER_CLIENT: "5",
  UNPAID_ORDER_MAX_UNITS: "10",
};

const { shop } = setUpTestAppWithRazorpay(LIMITS);
let guests = 0;
let clients = 0;

/** A new client address each call, so one limit is tested at a time. */
const newClient = () => {
  clients += 1;
  return `10.0.${Math.floor(clients / 250)}.${clients % 250}`;
};

function guest(overrides: { email?: string; phone?: string } = {}) {
  guests += 1;
  return {
    email: overrides.email ?? `limited-guest${guests}@example.in`,
    address: {
      ...TEST_ADDRESS,
      phone: overrides.phone ?? `9${String(600_000_000 + guests).padStart(9, "0")}`,
    },
  };
}

async function placeAsGuest(
  body: Record<string, unknown>,
  client: string,
): Promise<{
  status: number;
  body: { order: OrderDetail; token: string; error?: { code: string; message: string } };
  retryAfter: string | null;
}> {
  const response = await shop.app.request(
    "/api/guest-orders",
    jsonRequest({
      method: "POST",
      body,
      headers: { "Idempotency-Key": randomUUID(), "X-Forwarded-For": client },
    }),
  );
  return {
    status: response.status,
    body: await response.json(),
    retryAfter: response.headers.get("Retry-After"),
  };
}

const count = (statuses: number[], status: number) => statuses.filter((each) => each === status).length;

describe("guest checkout is throttled, in the database", () => {
  it("of 25 orders sent at once from one client, GUEST_ORDER_PER_CLIENT are placed and the rest get 429", async () => {
    await setStock(shop.db, "bath-powder", 120);
    const client = newClient();
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        placeAsGuest(
          { ...guest(), items: [{ id: "bath-powder", kind: "product", quantity: 4 }], paymentMethod: "cod" },
          client,
        ),
      ),
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const statuses = answers.map((answer) => answer.status);
    console.log(
      `25 guest orders from one client in ${seconds} s: ${count(statuses, 201)} placed, ${count(statuses, 429)} answered 429; stock 120 -> ${await stockOf(shop.db, "bath-powder")}`,
    );
    expect(count(statuses, 201)).toBe(5);
    expect(count(statuses, 429)).toBe(20);
    expect(await stockOf(shop.db, "bath-powder")).toBe(120 - 5 * 4);
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused?.body.error?.code).toBe("too_many_orders");
    expect(Number(refused?.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused?.retryAfter)).toBeLessThanOrEqual(60 * 60);
  });

  it("with one e-mail, or one mobile, from many clients, GUEST_ORDER_PER_CONTACT are placed", async () => {
    const items = [{ id: "coconut-oil", kind: "product", quantity: 1 }];
    const email = "one-address@example.in";
    const byEmail = await Promise.all(
      Array.from({ length: 8 }, () =>
        placeAsGuest({ ...guest({ email }), items, paymentMethod: "cod" }, newClient()),
      ),
    );
    expect(
      count(
        byEmail.map((answer) => answer.status),
        201,
      ),
    ).toBe(3);
    expect(
      count(
        byEmail.map((answer) => answer.status),
        429,
      ),
    ).toBe(5);

    const phone = "9000011111";
    const byMobile = await Promise.all(
      Array.from({ length: 8 }, () =>
        placeAsGuest({ ...guest({ phone }), items, paymentMethod: "cod" }, newClient()),
      ),
    );
    expect(
      count(
        byMobile.map((answer) => answer.status),
        201,
      ),
    ).toBe(3);
    // The same answer whichever limit was reached: it tells no one how an e-mail or mobile was used.
    const messages = new Set(
      [...byEmail, ...byMobile]
        .filter((answer) => answer.status === 429)
        .map((answer) => answer.body.error?.message),
    );
    expect(messages.size).toBe(1);
  });

  it("does not count a retry of an order already placed (the same Idempotency-Key)", async () => {
    const client = newClient();
    const body = {
      ...guest(),
      items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
      paymentMethod: "cod",
    };
    const key = randomUUID();
    const send = () =>
      shop.app.request(
        "/api/guest-orders",
        jsonRequest({ method: "POST", body, headers: { "Idempotency-Key": key, "X-Forwarded-For": client } }),
      );
    const statuses = [];
    for (let attempt = 0; attempt < 8; attempt++) statuses.push((await send()).status);
    expect(statuses).toEqual([201, 200, 200, 200, 200, 200, 200, 200]);
  });
});

describe("stock held by unpaid orders is bounded per shopper", () => {
  it("an order waiting for online payment holds at most UNPAID_ORDER_MAX_UNITS of one item", async () => {
    await setStock(shop.db, "moringa-powder", 100);
    const items = [{ id: "moringa-powder", kind: "product", quantity: 11 }];
    const online = await placeAsGuest({ ...guest(), items, paymentMethod: "razorpay" }, newClient());
    expect(online.status).toBe(422);
    expect(online.body.error?.code).toBe("unpaid_quantity_limit");
    expect(await stockOf(shop.db, "moringa-powder")).toBe(100);
    // Paying on delivery is a promise to pay, limited by the throttles instead.
    expect((await placeAsGuest({ ...guest(), items, paymentMethod: "cod" }, newClient())).status).toBe(201);

    const member = await signUpViaApp(shop.app, "holds-little@example.in");
    await putInCart(shop.db, member.userId, [{ itemId: "moringa-powder", quantity: 11 }]);
    const addressId = await saveAddress(shop.app, member.cookie);
    const signedIn = await placeOrderRequest(shop.app, member.cookie, {
      addressId,
      paymentMethod: "razorpay",
    });
    expect(signedIn.status).toBe(422);
    expect(await stockOf(shop.db, "moringa-powder")).toBe(89);
  });

  it("one guest e-mail, or one guest mobile, has one order waiting for payment at a time, however many are sent", async () => {
    const items = [{ id: "face-glow-oil", kind: "product", quantity: 1 }];
    const waitingWith = async (where: ReturnType<typeof eq>) =>
      (
        await shop.db
          .select({ id: orders.id })
          .from(orders)
          .where(and(isNull(orders.userId), eq(orders.status, "awaiting_payment"), where))
      ).length;

    const email = "unpaid-once@example.in";
    const byEmail = await Promise.all(
      Array.from({ length: 3 }, () =>
        placeAsGuest({ ...guest({ email }), items, paymentMethod: "razorpay" }, newClient()),
      ),
    );
    expect(byEmail.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(byEmail.find((answer) => answer.status === 409)?.body.error?.code).toBe("payment_pending");
    expect(await waitingWith(eq(orders.guestEmail, email))).toBe(1);

    const phone = "9000022222";
    const byMobile = await Promise.all(
      Array.from({ length: 2 }, () =>
        placeAsGuest({ ...guest({ phone }), items, paymentMethod: "razorpay" }, newClient()),
      ),
    );
    expect(byMobile.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await waitingWith(eq(orders.shipPhone, phone))).toBe(1);
    // Cash on delivery is not held up by it.
    expect(
      (await placeAsGuest({ ...guest({ phone }), items, paymentMethod: "cod" }, newClient())).status,
    ).toBe(201);
  });
});

describe("a guest order's link tells nothing about other orders", () => {
  it("answers a foreign token, an unknown number and an account's order alike, in status, body and time", async () => {
    const items = [{ id: "coconut-oil", kind: "product", quantity: 1 }];
    const a = await placeAsGuest({ ...guest(), items, paymentMethod: "cod" }, newClient());
    const b = await placeAsGuest({ ...guest(), items, paymentMethod: "cod" }, newClient());
    const member = await signUpViaApp(shop.app, "account-order@example.in");
    await putInCart(shop.db, member.userId, [{ itemId: "coconut-oil" }]);
    const addressId = await saveAddress(shop.app, member.cookie);
    const placed = await placeOrderRequest(shop.app, member.cookie, { addressId, paymentMethod: "cod" });
    const accountOrder = ((await placed.json()) as { order: OrderDetail }).order.number;

    const open = async (number: string, token: string) => {
      const started = performance.now();
      const answer = await callApi(
        shop.app,
        "GET",
        `/api/guest-orders/${number}?token=${encodeURIComponent(token)}`,
        { headers: { "X-Forwarded-For": newClient() } },
      );
      return { ...answer, ms: performance.now() - started };
    };
    const foreign = await open(a.body.order.number, b.body.token);
    const unknown = await open("PN-2026-999999", b.body.token);
    const ofAccount = await open(accountOrder, b.body.token);
    const expected = { error: { code: "order_link_not_found", message: NO_ORDER_LINK } };
    for (const answer of [foreign, unknown, ofAccount]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(expected);
    }

    // Time: the median of 30 of each, taken in turns, differs by less than the noise of one request.
    const times = { foreign: [] as number[], unknown: [] as number[] };
    for (let round = 0; round < 30; round++) {
      times.foreign.push((await open(a.body.order.number, b.body.token)).ms);
      times.unknown.push((await open("PN-2026-999999", b.body.token)).ms);
    }
    const median = (values: number[]) =>
      [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
    const [foreignMs, unknownMs] = [median(times.foreign), median(times.unknown)];
    console.log(
      `median answer: foreign order ${foreignMs.toFixed(2)} ms, unknown ${unknownMs.toFixed(2)} ms`,
    );
    expect(Math.abs(foreignMs - unknownMs)).toBeLessThan(Math.max(2, 0.5 * Math.min(foreignMs, unknownMs)));
  });

  it("limits the links that open nothing per client, and leaves the right link and other clients alone", async () => {
    const a = await placeAsGuest(
      { ...guest(), items: [{ id: "coconut-oil", kind: "product", quantity: 1 }], paymentMethod: "cod" },
      newClient(),
    );
    const wrong = `${a.body.token.slice(0, -1)}${a.body.token.at(-1) === "A" ? "B" : "A"}`;
    const client = "192.0.2.77";
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        shop.app.request(
          `/api/guest-orders/PN-2026-${String(500_000 + n)}?token=${wrong}`,
          jsonRequest({ headers: { "X-Forwarded-For": client } }),
        ),
      ),
    );
    const statuses = tries.map((response) => response.status);
    expect(count(statuses, 404)).toBe(5);
    expect(count(statuses, 429)).toBe(3);
    expect(
      Number(tries.find((response) => response.status === 429)?.headers.get("Retry-After")),
    ).toBeGreaterThan(0);

    const own = await callApi(
      shop.app,
      "GET",
      `/api/guest-orders/${a.body.order.number}?token=${a.body.token}`,
      {
        headers: { "X-Forwarded-For": client },
      },
    );
    expect(own.status).toBe(200);
    const elsewhere = await callApi(shop.app, "GET", `/api/guest-orders/PN-2026-500001?token=${wrong}`, {
      headers: { "X-Forwarded-For": "192.0.2.78" },
    });
    expect(elsewhere.status).toBe(404);
  });
});
