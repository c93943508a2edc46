import { createHmac, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderDetail } from "../../common/orders.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { createTestApp } from "../../tests/database.ts";
import { buttonReply, FAKE_WHATSAPP, startFakeWhatsApp, whatsAppEnv } from "../../tests/fake-whatsapp.ts";
import { asUser, placeOrderRequest, putInCart, saveAddress, setStock, stockOf } from "../../tests/orders.ts";
import { jobs, orderEvents, orders, whatsappMessages, whatsappReplies } from "../db/schema.ts";
import { cancelPayload, confirmPayload } from "../orders/order-whatsapp.ts";

let fake: Awaited<ReturnType<typeof startFakeWhatsApp>>;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let staff: TestAccount;
let meera: TestAccount & { addressId: string };
const MEERA_WA = "919876543210";

/** "unticked": the checkbox left alone, so the field is not sent at all. */
async function placeCod(box: "ticked" | "unticked" = "ticked") {
  await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil" }]);
  const response = await placeOrderRequest(shop.app, meera.cookie, {
    addressId: meera.addressId,
    paymentMethod: "cod",
    ...(box === "ticked" ? { whatsappUpdates: true } : {}),
  });
  expect(response.status).toBe(201);
  const { order } = (await response.json()) as { order: OrderDetail };
  const [row] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
  if (!row) throw new Error("no order row");
  return row;
}

function webhook(reply: { body: string; signature: string } | null, body?: string, signature?: string) {
  return shop.app.request("/api/messaging/whatsapp", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...((reply?.signature ?? signature)
        ? { "X-Hub-Signature-256": reply?.signature ?? signature ?? "" }
        : {}),
    },
    body: reply?.body ?? body,
  });
}

const statusOf = async (id: string) =>
  (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;
const messagesFor = (number: string) => fake.messages.filter((message) => message.body.includes(number));

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  shop = await createTestApp(whatsAppEnv(fake.base));
  staff = await signUpViaApp(shop.app, "staff@prakriti.example");
  await makeAdmin(shop, staff, "staff");
  const account = await signUpViaApp(shop.app, "meera@example.in");
  meera = { ...account, addressId: await saveAddress(shop.app, account.cookie) };
  await setStock(shop.db, "coconut-oil", 100);
});
afterAll(async () => {
  await shop.close();
  await fake.close();
});

describe("the webhook's handshake", () => {
  it("answers Meta's challenge with the right verify token, 403 otherwise", async () => {
    const query = (token: string, mode = "subscribe") =>
      `/api/messaging/whatsapp?hub.mode=${mode}&hub.verify_token=${token}&hub.challenge=1158201444`;
    const ok = await shop.app.request(query(FAKE_WHATSAPP.verifyToken));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("1158201444");
    const wrong = await shop.app.request(query("not-the-token"));
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    expect((await shop.app.request(query(FAKE_WHATSAPP.verifyToken, "unsubscribe"))).status).toBe(403);
    expect((await shop.app.request(`${query(FAKE_WHATSAPP.verifyToken)}&extra=1`)).status).toBe(400);
  });

  it("is 503 on a shop without WhatsApp's secrets, and the process goes on", async () => {
    const bare = await createTestApp();
    try {
      const get = await bare.app.request(
        "/api/messaging/whatsapp?hub.mode=subscribe&hub.verify_token=whatever&hub.challenge=1",
      );
      expect(get.status).toBe(503);
      const post = await bare.app.request("/api/messaging/whatsapp", { method: "POST", body: "{}" });
      expect(post.status).toBe(503);
      expect(((await post.json()) as { error: { code: string } }).error.code).toBe("webhook_not_configured");
    } finally {
      await bare.close();
    }
  });
});

describe("asking on WhatsApp", () => {
  it("sends the confirmation template with Confirm and Cancel buttons, and the placed update, to an opted-in shopper", async () => {
    const order = await placeCod();
    await waitUntil(() => messagesFor(order.number).length >= 2);
    const ask = messagesFor(order.number).find(
      (message) => message.template === FAKE_WHATSAPP.templates.codConfirm,
    );
    expect(ask).toMatchObject({
      to: MEERA_WA,
      language: "en",
      body: ["Meera Iyer", order.number, expect.stringMatching(/^₹/), "Bengaluru"],
      buttons: [confirmPayload(order.id), cancelPayload(order.id)],
    });
    const update = messagesFor(order.number).find(
      (message) => message.template === FAKE_WHATSAPP.templates.orderUpdate,
    );
    expect(update?.body[1]).toBe("is placed (cash on delivery)");
  });

  it("sends nothing on WhatsApp to a shopper who did not tick the box", async () => {
    const order = await placeCod("unticked");
    const queued = await shop.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "whatsapp-message")));
    expect(queued.filter((job) => (job.payload as { orderId?: string }).orderId === order.id)).toEqual([]);
  });

  it("carries shipped and delivered to an opted-in shopper", async () => {
    const order = await placeCod();
    const move = (body: unknown) =>
      shop.app.request(
        `/api/admin/orders/${order.number}/status`,
        asUser(staff.cookie, { method: "POST", body }),
      );
    expect((await move({ status: "confirmed" })).status).toBe(200);
    expect((await move({ status: "packed" })).status).toBe(200);
    expect(
      (await move({ status: "shipped", courier: "Delhivery", trackingNumber: "DLV98765432" })).status,
    ).toBe(200);
    expect((await move({ status: "delivered" })).status).toBe(200);
    await waitUntil(() => messagesFor(order.number).filter((m) => m.template === "order_update").length >= 3);
    const news = messagesFor(order.number)
      .filter((message) => message.template === "order_update")
      .map((message) => message.body[1]);
    expect(news).toContain("has shipped with Delhivery, tracking DLV98765432");
    expect(news).toContain("is delivered. Anything wrong? Tell us within 6 days");
  });

  it("keeps the message when WhatsApp is down: placing is unaffected and the job retries until it is sent", async () => {
    fake.state.outage = "down";
    try {
      const order = await placeCod();
      expect(order.status).toBe("placed");
      await waitUntil(async () => {
        const [job] = await shop.db
          .select({ attempts: jobs.attempts, status: jobs.status })
          .from(jobs)
          .where(eq(jobs.key, `whatsapp-message:${order.id}:cod_confirm`));
        return (job?.attempts ?? 0) >= 2 && job?.status === "queued";
      });
      expect(messagesFor(order.number)).toEqual([]);
      fake.state.outage = null;
      await waitUntil(() => messagesFor(order.number).some((message) => message.template === "cod_confirm"));
    } finally {
      fake.state.outage = null;
    }
  });
});

describe("what the shop sends WhatsApp", () => {
  it("is only what the Cloud API documents: the fake refuses any other field, and the sends above went through", async () => {
    const extra = await fetch(`${fake.base}/${FAKE_WHATSAPP.phoneNumberId}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${FAKE_WHATSAPP.accessToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        messaging_product: "whatsapp",
        to: "919876543210",
        type: "template",
        template: { name: FAKE_WHATSAPP.templates.orderUpdate, language: { code: "en" } },
        priority: "high",
      }),
    });
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: 100,
      message: "(#100) Param priority is not a valid parameter",
    });
    expect(fake.messages.length).toBeGreaterThan(0);
  });
});

describe("replies on the webhook", () => {
  it("refuses a body without the right signature, and changes nothing", async () => {
    const order = await placeCod();
    const reply = buttonReply({ from: MEERA_WA, payload: confirmPayload(order.id), text: "Confirm" });
    const forged = buttonReply({
      from: MEERA_WA,
      payload: confirmPayload(order.id),
      text: "Confirm",
      secret: "x",
    });
    expect((await webhook(null, reply.body)).status).toBe(401);
    expect((await webhook(null, reply.body, forged.signature)).status).toBe(401);
    // The signature of another body: the signed bytes must be the ones sent.
    expect((await webhook(null, `${reply.body} `, reply.signature)).status).toBe(401);
    expect(await statusOf(order.id)).toBe("placed");
  });

  it("confirms on Confirm, once: a replay of the same message changes nothing", async () => {
    const order = await placeCod();
    const reply = buttonReply({ from: MEERA_WA, payload: confirmPayload(order.id), text: "Confirm" });
    expect((await webhook(reply)).status).toBe(200);
    expect(await statusOf(order.id)).toBe("confirmed");
    expect((await webhook(reply)).status).toBe(200);
    const confirmations = await shop.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, "confirmed")));
    expect(confirmations).toEqual([{ note: "Confirmed by the shopper on WhatsApp" }]);
    const kept = await shop.db.select().from(whatsappReplies).where(eq(whatsappReplies.orderId, order.id));
    expect(kept.map((row) => row.outcome)).toEqual(["applied"]);
  });

  it("ends cancelled, stock back, whichever of Confirm and Cancel arrives first", async () => {
    for (const first of ["confirm", "cancel"] as const) {
      const stock = await stockOf(shop.db, "coconut-oil");
      const order = await placeCod();
      const confirm = buttonReply({
        from: MEERA_WA,
        payload: confirmPayload(order.id),
        text: "Confirm",
        timestamp: 1_800_000_000,
      });
      const cancel = buttonReply({
        from: MEERA_WA,
        payload: cancelPayload(order.id),
        text: "Cancel",
        timestamp: 1_800_000_060,
      });
      const inOrder = first === "confirm" ? [confirm, cancel] : [cancel, confirm];
      for (const reply of inOrder) expect((await webhook(reply)).status).toBe(200);
      expect(await statusOf(order.id), `${first} first`).toBe("cancelled");
      expect(await stockOf(shop.db, "coconut-oil")).toBe(stock);
    }
  });

  it("ignores a reply from a number other than the order's, and payloads that are not the shop's", async () => {
    const order = await placeCod();
    const stranger = buttonReply({
      from: "919000000001",
      payload: confirmPayload(order.id),
      text: "Confirm",
    });
    expect((await webhook(stranger)).status).toBe(200);
    const unknown = buttonReply({ from: MEERA_WA, payload: confirmPayload(randomUUID()), text: "Confirm" });
    expect((await webhook(unknown)).status).toBe(200);
    const other = buttonReply({ from: MEERA_WA, payload: "STOP", text: "Stop promotions" });
    expect((await webhook(other)).status).toBe(200);
    expect(await statusOf(order.id)).toBe("placed");
  });

  it("answers 400 to a signed body that is not a notification", async () => {
    const body = JSON.stringify({ hello: "world" });
    const signature = `sha256=${createHmac("sha256", FAKE_WHATSAPP.appSecret).update(body).digest("hex")}`;
    const response = await webhook(null, body, signature);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "invalid_request", message: "The webhook body is not a WhatsApp notification." },
    });
  });
});

/** A statuses notification as Meta posts it (WhatsApp/WhatsApp-Nodejs-SDK src/types/webhooks.ts), signed. */
function statusUpdate(id: string, status: string, errors?: { code: number; title: string }[]) {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: FAKE_WHATSAPP.phoneNumberId },
              statuses: [
                {
                  id,
                  status,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  recipient_id: MEERA_WA,
                  ...(errors ? { errors } : {}),
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const signature = `sha256=${createHmac("sha256", FAKE_WHATSAPP.appSecret).update(body).digest("hex")}`;
  return { body, signature };
}

describe("what became of each message", () => {
  it("stores sent, delivered and read per message, only forward", async () => {
    const order = await placeCod();
    await waitUntil(
      async () =>
        (await shop.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, order.id)))
          .length >= 2,
    );
    const rows = await shop.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, order.id));
    const question = rows.find((row) => row.kind === "cod_confirm");
    expect(question?.status).toBe("accepted");
    const id = question?.messageId ?? "";
    expect((await webhook(statusUpdate(id, "sent"))).status).toBe(200);
    expect((await webhook(statusUpdate(id, "read"))).status).toBe(200);
    // A late "delivered" does not take a read message back.
    expect((await webhook(statusUpdate(id, "delivered"))).status).toBe(200);
    const [row] = await shop.db.select().from(whatsappMessages).where(eq(whatsappMessages.messageId, id));
    expect(row?.status).toBe("read");
  });

  it("a COD question WhatsApp could not deliver: asked again by SMS at once, and staff see the shopper was never reached", async () => {
    const order = await placeCod();
    await waitUntil(async () =>
      (await shop.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, order.id))).some(
        (row) => row.kind === "cod_confirm",
      ),
    );
    const [question] = (
      await shop.db.select().from(whatsappMessages).where(eq(whatsappMessages.orderId, order.id))
    ).filter((row) => row.kind === "cod_confirm");
    const failed = statusUpdate(question?.messageId ?? "", "failed", [
      { code: 131026, title: "Message undeliverable" },
    ]);
    expect((await webhook(failed)).status).toBe(200);
    expect((await webhook(failed)).status).toBe(200);
    const [row] = await shop.db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.messageId, question?.messageId ?? ""));
    expect(row).toMatchObject({ status: "failed", errorCode: 131026, errorTitle: "Message undeliverable" });
    // This shop has no SMS provider (notices are only written to DATA_DIR/sms/): never reached, and said so.
    const events = await shop.db
      .select({ note: orderEvents.note })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "message")));
    expect(events.map((event) => event.note)).toEqual([expect.stringMatching(/never reached/)]);
    const list = await shop.app.request("/api/admin/cod-confirm", asUser(staff.cookie));
    const { orders: waiting } = (await list.json()) as {
      orders: { number: string; whatsapp: { status: string; error: string } | null; neverReached: boolean }[];
    };
    expect(waiting.find((each) => each.number === order.number)).toMatchObject({
      whatsapp: { status: "failed", error: "Message undeliverable" },
      neverReached: true,
    });
  });
});
