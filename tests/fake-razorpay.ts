import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { createTestApp, type TestApp } from "./database.ts";
import { readJson } from "./fake-http.ts";

/**
 * A local stand-in for Razorpay's API and its Checkout script, for tests: it creates orders, takes
 * "payments" that a person clicks through in the browser, signs them exactly as Razorpay does
 * (HMAC-SHA256 of "<order id>|<payment id>" with the key secret), refunds, and signs webhooks.
 * Sources: razorpay.com/docs/api/orders/create (amount in paise, at least 100, currency), /docs/api/refunds/
 * create-normal (POST /v1/payments/:id/refund; amount, receipt; refused beyond what is left of the payment) and
 * fetch-multiple-refund-payment (GET /v1/payments/:id/refunds: a collection of items with id, amount,
 * payment_id, receipt, status), /docs/api/orders/fetch-all (GET /v1/orders?count=: a collection of orders, used
 * read-only by `npm run check:services`), /docs/payments/server-integration/nodejs/integration-steps (the
 * signatures). A wrong key is answered 401 with error.code BAD_REQUEST_ERROR, "Authentication failed".
 * A body field the page does not list among the request parameters (orders: amount, currency, receipt, notes,
 * partial_payment, first_payment_min_amount; refunds: amount, speed, notes, receipt) is refused 400
 * BAD_REQUEST_ERROR naming the field, as Razorpay's validator answers ("… is/are not required and should not be
 * sent"), so a field the shop sends that the documentation lacks fails every test that pays or refunds.
 */
const DOCUMENTED = {
  order: ["amount", "currency", "receipt", "notes", "partial_payment", "first_payment_min_amount"],
  refund: ["amount", "speed", "notes", "receipt"],
};

/** The first field of a request body the documentation does not list, if any. */
const undocumentedField = (body: Record<string, unknown>, documented: string[]) =>
  Object.keys(body).find((field) => !documented.includes(field));

const notDocumented = (field: string) => ({
  error: {
    code: "BAD_REQUEST_ERROR",
    description: `${field} is/are not required and should not be sent`,
    field,
  },
});

export type FakeRazorpay = {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  env: Record<string, string>;
  orders: Map<string, { id: string; amount: number; receipt: string; status: string }>;
  refunds: { id: string; paymentId: string; amount: number; receipt: string | null }[];
  /** What Razorpay Checkout hands the page after a successful payment. */
  pay: (orderId: string) => {
    razorpay_payment_id: string;
    razorpay_order_id: string;
    razorpay_signature: string;
  };
  /** A payment.captured webhook for a payment, with its signature header. */
  webhook: (orderId: string, paymentId: string) => { body: string; signature: string };
  stop: () => Promise<void>;
};

const id = (prefix: string) => `${prefix}_${randomBytes(7).toString("hex")}`;
const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");

export async function startFakeRazorpay(): Promise<FakeRazorpay> {
  const keyId = `rzp_test_${randomBytes(6).toString("hex")}`;
  const keySecret = randomBytes(16).toString("hex");
  const webhookSecret = randomBytes(16).toString("hex");
  const orders: FakeRazorpay["orders"] = new Map();
  const payments = new Map<string, { orderId: string; amount: number }>();
  const refunds: FakeRazorpay["refunds"] = [];

  const pay = (orderId: string) => {
    const order = orders.get(orderId);
    if (!order) throw new Error(`fake razorpay: no order ${orderId}`);
    const paymentId = id("pay");
    payments.set(paymentId, { orderId, amount: order.amount });
    order.status = "paid";
    return {
      razorpay_payment_id: paymentId,
      razorpay_order_id: orderId,
      razorpay_signature: hmac(keySecret, `${orderId}|${paymentId}`),
    };
  };

  const send = (response: ServerResponse, status: number, body: unknown, type = "application/json") => {
    response.writeHead(status, {
      "Content-Type": type,
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Headers": "Content-Type",
    });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const authorised = (request: IncomingMessage) =>
    request.headers.authorization === `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`;

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    try {
      if (request.method === "OPTIONS") return send(response, 204, "");
      if (request.method === "GET" && path === "/v1/checkout.js") {
        return send(response, 200, checkoutScript(`http://127.0.0.1:${port}`), "text/javascript");
      }
      if (request.method === "POST" && path === "/fake/pay") {
        const body = await readJson(request);
        if (body.key !== keyId) return send(response, 401, { error: { description: "wrong key" } });
        return send(response, 200, pay(String(body.order_id)));
      }
      if (!authorised(request)) {
        return send(response, 401, {
          error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" },
        });
      }
      if (request.method === "GET" && path === "/v1/orders") {
        // Fetch All Orders: a collection, newest first, `count` of them (10 unless asked).
        const count = Number(new URL(request.url ?? "/", "http://fake").searchParams.get("count") ?? 10);
        const items = [...orders.values()].reverse().slice(0, count);
        return send(response, 200, {
          entity: "collection",
          count: items.length,
          items: items.map((order) => ({ ...order, entity: "order", currency: "INR" })),
        });
      }
      if (request.method === "POST" && path === "/v1/orders") {
        const body = await readJson(request);
        const extra = undocumentedField(body, DOCUMENTED.order);
        if (extra) return send(response, 400, notDocumented(extra));
        if (!Number.isInteger(body.amount) || (body.amount as number) < 100 || body.currency !== "INR") {
          return send(response, 400, { error: { description: "amount or currency invalid" } });
        }
        const order = {
          id: id("order"),
          amount: body.amount as number,
          receipt: String(body.receipt),
          status: "created",
        };
        orders.set(order.id, order);
        return send(response, 200, { ...order, entity: "order", currency: "INR" });
      }
      const refund = path.match(/^\/v1\/payments\/(pay_[a-z0-9]+)\/refund$/);
      if (request.method === "POST" && refund?.[1]) {
        const payment = payments.get(refund[1]);
        if (!payment)
          return send(response, 400, { error: { description: "The payment id provided is invalid" } });
        const body = await readJson(request);
        const extra = undocumentedField(body, DOCUMENTED.refund);
        if (extra) return send(response, 400, notDocumented(extra));
        const amount = Number(body.amount ?? payment.amount);
        // Razorpay refuses a refund beyond what is left of the payment (Create a Normal Refund, errors).
        const refundedSoFar = refunds
          .filter((each) => each.paymentId === refund[1])
          .reduce((sum, each) => sum + each.amount, 0);
        if (!Number.isInteger(amount) || amount < 100 || refundedSoFar + amount > payment.amount) {
          return send(response, 400, {
            error: {
              code: "BAD_REQUEST_ERROR",
              description: "The refund amount provided is greater than amount captured",
            },
          });
        }
        const entry = {
          id: id("rfnd"),
          paymentId: refund[1],
          amount,
          receipt: typeof body.receipt === "string" ? body.receipt : null,
        };
        refunds.push(entry);
        return send(response, 200, {
          ...entry,
          payment_id: entry.paymentId,
          entity: "refund",
          status: "processed",
        });
      }
      const listed = path.match(/^\/v1\/payments\/(pay_[a-z0-9]+)\/refunds$/);
      if (request.method === "GET" && listed?.[1]) {
        if (!payments.has(listed[1])) {
          return send(response, 400, { error: { description: "The id provided does not exist" } });
        }
        const items = refunds
          .filter((each) => each.paymentId === listed[1])
          .map((each) => ({
            id: each.id,
            entity: "refund",
            amount: each.amount,
            currency: "INR",
            payment_id: each.paymentId,
            receipt: each.receipt,
            status: "processed",
          }));
        return send(response, 200, { entity: "collection", count: items.length, items });
      }
      return send(response, 404, { error: { description: "not found" } });
    } catch (error) {
      return send(response, 500, { error: { description: (error as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    keyId,
    keySecret,
    webhookSecret,
    env: {
      RAZORPAY_KEY_ID: keyId,
      RAZORPAY_KEY_SECRET: keySecret,
      RAZORPAY_WEBHOOK_SECRET: webhookSecret,
      RAZORPAY_API_BASE: url,
      RAZORPAY_CHECKOUT_URL: `${url}/v1/checkout.js`,
    },
    orders,
    refunds,
    pay,
    webhook(orderId, paymentId) {
      const amount = orders.get(orderId)?.amount ?? 0;
      const body = JSON.stringify({
        entity: "event",
        event: "payment.captured",
        payload: {
          payment: {
            entity: {
              id: paymentId,
              entity: "payment",
              order_id: orderId,
              amount,
              currency: "INR",
              status: "captured",
            },
          },
        },
        created_at: Math.floor(Date.now() / 1000),
      });
      return { body, signature: hmac(webhookSecret, body) };
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A stand-in for checkout.js: a modal with Pay and Cancel that calls the page's handler like Razorpay does. */
function checkoutScript(origin: string) {
  return `(function () {
  function Razorpay(options) { this.options = options; }
  Razorpay.prototype.open = function () {
    var options = this.options;
    var backdrop = document.createElement("div");
    backdrop.setAttribute("style", "position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:1000");
    var box = document.createElement("div");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-label", "Razorpay test checkout");
    box.setAttribute("style", "background:#fff;color:#111;padding:24px;border-radius:8px;font-family:sans-serif;min-width:260px");
    var title = document.createElement("p");
    title.textContent = options.name + ": pay ₹" + (options.amount / 100).toFixed(2) + " (" + options.description + ")";
    var pay = document.createElement("button");
    pay.textContent = "Pay with UPI (test)";
    var cancel = document.createElement("button");
    cancel.textContent = "Cancel payment";
    cancel.setAttribute("style", "margin-left:8px");
    box.append(title, pay, cancel);
    backdrop.append(box);
    document.body.append(backdrop);
    pay.addEventListener("click", function () {
      fetch(${JSON.stringify(origin)} + "/fake/pay", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ order_id: options.order_id, key: options.key })
      }).then(function (r) { return r.json(); }).then(function (result) {
        backdrop.remove();
        options.handler(result);
      });
    });
    cancel.addEventListener("click", function () {
      backdrop.remove();
      if (options.modal && options.modal.ondismiss) options.modal.ondismiss();
    });
  };
  window.Razorpay = Razorpay;
})();
`;
}

/**
 * A test file's fake Razorpay, started before its tests (so a shop started in a later beforeAll can take its
 * `env`) and stopped after them. The object is filled in by the time the first test runs.
 */
export function setUpFakeRazorpay(): FakeRazorpay {
  const fake = {} as FakeRazorpay;
  beforeAll(async () => {
    Object.assign(fake, await startFakeRazorpay());
  });
  afterAll(() => fake.stop?.());
  return fake;
}

/** A test file's shop with payments through its own fake Razorpay, both started before the tests and stopped after. */
export function setUpTestAppWithRazorpay(overrides: Record<string, string> = {}): {
  shop: TestApp;
  fake: FakeRazorpay;
} {
  const shop = {} as TestApp;
  const fake = {} as FakeRazorpay;
  beforeAll(async () => {
    Object.assign(fake, await startFakeRazorpay());
    Object.assign(shop, await createTestApp({ ...fake.env, ...overrides }));
  });
  afterAll(async () => {
    await shop.close?.();
    await fake.stop?.();
  });
  return { shop, fake };
}
