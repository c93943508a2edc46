import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { hoursFromNow, signUpForReminders, startReminderShop } from "../../tests/cart-reminders.ts";
import { type createTestApp, jsonRequest } from "../../tests/database.ts";
import { failedStatus, startFakeWhatsApp, whatsAppReminderEnv } from "../../tests/fake-whatsapp.ts";
import { dueJobsSettled } from "../../tests/jobs.ts";
import { mailsTo, waitForMail } from "../../tests/mail.ts";
import { asUser, placeGuestOrderRequest, putInCart, TEST_ADDRESS } from "../../tests/orders.ts";
import { leftCarts, marketingConsents } from "../db/schema.ts";
import {
  CART_REMINDER_JOB,
  CART_WHATSAPP_REMINDER_JOB,
  sendCartWhatsAppReminder,
  sweepLeftCarts,
} from "./left-carts.ts";

/**
 * Cart reminders on WhatsApp (issue 44, docs/decisions/096): one MARKETING template message, only to a
 * shopper who ticked "Remind me on WhatsApp" for that number, never after an order or an unsubscribe; a
 * refusal recorded and not retried, an outage retried by the job queue.
 */
let shop: Awaited<ReturnType<typeof createTestApp>>;
let fake: Awaited<ReturnType<typeof startFakeWhatsApp>>;
let owner: TestAccount;

const remindersSettled = () => dueJobsSettled(shop.db, [CART_REMINDER_JOB, CART_WHATSAPP_REMINDER_JOB]);

const sentTo = (number: string) => fake.messages.filter((message) => message.to === `91${number}`);

const consentsFor = (mobile: string) =>
  shop.db
    .select()
    .from(marketingConsents)
    .where(and(eq(marketingConsents.channel, "whatsapp"), eq(marketingConsents.mobile, mobile)))
    .orderBy(desc(marketingConsents.createdAt));

async function optInOnWhatsApp(account: TestAccount, mobile: string) {
  const answer = await shop.app.request(
    "/api/marketing-consent/whatsapp",
    asUser(account.cookie, { method: "PUT", body: { consented: true, where: "checkout", mobile } }),
  );
  expect(answer.status).toBe(200);
}

/** A guest's checkout as the page sends it once the address is used, with the WhatsApp tick. */
const guestCheckout = (email: string, phone: string, remindOnWhatsApp?: boolean) =>
  shop.app.request(
    "/api/checkout/guest",
    jsonRequest({
      method: "POST",
      body: {
        items: [{ id: "bath-powder", kind: "product", quantity: 2 }],
        email,
        address: { ...TEST_ADDRESS, phone },
        ...(remindOnWhatsApp === undefined ? {} : { remindOnWhatsApp }),
      },
    }),
  );

const leftCartOfGuest = async (email: string) =>
  (
    await shop.db
      .select()
      .from(leftCarts)
      .where(eq(leftCarts.subject, `guest:${email}`))
  )[0];

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  ({ shop, owner } = await startReminderShop("owner.wa@prakriti.example", whatsAppReminderEnv(fake.base)));
});
afterAll(async () => {
  await shop?.close();
  await fake?.close();
});

describe("a cart reminder on WhatsApp", () => {
  it("goes once to a shopper who opted in for WhatsApp alone, as the documented template request, and its buttons bring the cart back and unsubscribe", async () => {
    const asha = await signUpViaApp(shop.app, "asha.wa@example.in");
    await optInOnWhatsApp(asha, "98111 22334");
    const [yes] = await consentsFor("9811122334");
    expect(yes).toMatchObject({
      consented: true,
      source: "checkout",
      userId: asha.userId,
      email: null,
      channel: "whatsapp",
    });
    expect(yes?.createdAt).toBeInstanceOf(Date);
    const standing = await shop.app.request("/api/marketing-consent", asUser(asha.cookie));
    expect(await standing.json()).toMatchObject({
      consented: false,
      whatsapp: { consented: true, mobile: "9811122334", source: "checkout" },
    });

    await putInCart(shop.db, asha.userId, [{ itemId: "coconut-oil", quantity: 2 }]);
    const before = fake.received.length;
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    const [message] = await fake.waitForMessages(1);
    await remindersSettled();
    expect(fake.received.slice(before)).toEqual([
      {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "919811122334",
        type: "template",
        template: {
          name: "cart_reminder",
          language: { code: "en" },
          components: [
            {
              type: "body",
              parameters: [
                { type: "text", text: "asha.wa" },
                { type: "text", text: expect.stringMatching(/^Coconut Oil[^\n]* × 2$/) },
                { type: "text", text: "Prakriti Naturals" },
              ],
            },
            {
              type: "button",
              sub_type: "url",
              index: "0",
              parameters: [{ type: "text", text: expect.stringMatching(/^[0-9a-f-]{36}\?e=\d+&s=[\w-]+$/) }],
            },
            {
              type: "button",
              sub_type: "url",
              index: "1",
              parameters: [{ type: "text", text: expect.stringMatching(/^m=9811122334&s=[\w-]+$/) }],
            },
          ],
        },
      },
    ]);
    // The e-mail reminder is its own consent: Asha said yes on WhatsApp only.
    expect(await mailsTo(shop.dataDir, asha.email)).toHaveLength(0);

    const [row] = await shop.db.select().from(leftCarts).where(eq(leftCarts.userId, asha.userId));
    expect(row).toMatchObject({ whatsappMessageId: message?.id, whatsappRefused: null });
    expect(row?.whatsappSentAt).toBeInstanceOf(Date);

    // A sweep again and the job run again by hand: still the one message.
    await sweepLeftCarts(shop.deps, hoursFromNow(3));
    await sendCartWhatsAppReminder(shop.deps, row?.id ?? "");
    await remindersSettled();
    expect(sentTo("9811122334")).toHaveLength(1);

    // The buttons, as WhatsApp makes them from the template's URLs and these variables.
    const [restore, unsubscribe] = message?.urlSuffixes ?? [];
    const landing = await shop.app.request(`/cart-back/${restore}`);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain("Your cart is back");
    const page = await shop.app.request(`/unsubscribe?${unsubscribe}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      "no more cart reminders or offers on WhatsApp to <strong>98111 22334",
    );
    expect((await consentsFor("9811122334"))[0]).toMatchObject({
      consented: false,
      source: "unsubscribe_link",
    });
    const forged = await shop.app.request(`/unsubscribe?m=9811122334&s=forged`);
    expect(forged.status).toBe(404);

    // The owner's figures count it, by channel.
    const report = await shop.app.request("/api/admin/cart-reminders/report", asUser(owner.cookie));
    const { totals } = (await report.json()) as { totals: { whatsappSent: number; reminded: number } };
    expect(totals).toMatchObject({ whatsappSent: 1, reminded: 1 });
  });

  it("does not go to a shopper without the WhatsApp opt-in, though the e-mail one goes", async () => {
    const kiran = await signUpForReminders(shop.app, "kiran.wa@example.in");
    await putInCart(shop.db, kiran.userId, [{ itemId: "bath-powder", quantity: 1 }]);
    const before = fake.messages.length;
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await waitForMail(shop.dataDir, { to: kiran.email, subject: /left something/ });
    await remindersSettled();
    expect(fake.messages).toHaveLength(before);
  });

  it("records a guest's tick at checkout with its mobile, and sends nothing once the guest ordered", async () => {
    expect((await guestCheckout("guest.wa.uma@example.in", "97000 11111", true)).status).toBe(200);
    expect((await consentsFor("9700011111"))[0]).toMatchObject({
      consented: true,
      source: "checkout",
      userId: null,
    });
    const placed = await placeGuestOrderRequest(shop.app, {
      email: "guest.wa.uma@example.in",
      phone: "97000 11111",
      items: [{ id: "bath-powder", kind: "product", quantity: 2 }],
    });
    expect(placed.status).toBe(201);
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await remindersSettled();
    expect(sentTo("9700011111")).toHaveLength(0);
    expect(await leftCartOfGuest("guest.wa.uma@example.in")).toMatchObject({
      whatsappSentAt: null,
      whatsappRefused: null,
    });
  });

  it("sends nothing after the shopper's unsubscribe, nor after an untick at checkout", async () => {
    await guestCheckout("guest.wa.lata@example.in", "97000 22222", true);
    const [yes] = await consentsFor("9700022222");
    expect(yes?.consented).toBe(true);
    const { whatsAppUnsubscribeQuery } = await import("./reminder-links.ts");
    const one = await shop.app.request(
      `/unsubscribe?${whatsAppUnsubscribeQuery(shop.deps.authSecret, "9700022222")}`,
      { method: "POST" },
    );
    expect(one.status).toBe(200);

    await guestCheckout("guest.wa.ravi@example.in", "97000 33333", true);
    await guestCheckout("guest.wa.ravi@example.in", "97000 33333", false);
    expect((await consentsFor("9700033333")).map((row) => row.consented)).toEqual([false, true]);

    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await remindersSettled();
    expect(sentTo("9700022222")).toHaveLength(0);
    expect(sentTo("9700033333")).toHaveLength(0);
  });

  it("keeps WhatsApp's 'stopped marketing messages' (131050) as the shopper's no, and does not try again", async () => {
    fake.stoppedMarketing.add("919700044444");
    await guestCheckout("guest.wa.neha@example.in", "97000 44444", true);
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await remindersSettled();
    const [message] = sentTo("9700044444");
    expect(fake.failed.get(message?.id ?? "")).toBe(131050);
    const status = failedStatus({
      messageId: message?.id ?? "",
      recipient: "919700044444",
      code: 131050,
      title: "Unable to deliver message: user has stopped marketing messages",
    });
    const answer = await shop.app.request("/api/messaging/whatsapp", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": status.signature },
      body: status.body,
    });
    expect(answer.status).toBe(200);
    const row = await leftCartOfGuest("guest.wa.neha@example.in");
    expect(row?.whatsappRefused).toContain("131050");
    expect((await consentsFor("9700044444"))[0]).toMatchObject({ consented: false, source: "whatsapp" });
    await sendCartWhatsAppReminder(shop.deps, row?.id ?? "");
    expect(sentTo("9700044444")).toHaveLength(1);
  });

  it("throws while WhatsApp is down, so the job queue tries again, and sends once it is back", async () => {
    await guestCheckout("guest.wa.divya@example.in", "97000 55555", true);
    const row = await leftCartOfGuest("guest.wa.divya@example.in");
    const at = hoursFromNow(2);
    fake.state.outage = "500";
    try {
      await expect(sendCartWhatsAppReminder(shop.deps, row?.id ?? "", at)).rejects.toThrow(/500/);
      expect((await leftCartOfGuest("guest.wa.divya@example.in"))?.whatsappSentAt).toBeNull();
    } finally {
      fake.state.outage = null;
    }
    await sendCartWhatsAppReminder(shop.deps, row?.id ?? "", at);
    expect(sentTo("9700055555")).toHaveLength(1);
    expect((await leftCartOfGuest("guest.wa.divya@example.in"))?.whatsappRefused).toBeNull();
  });

  it("is refused by the fake, as by WhatsApp, with a field the documentation lacks", async () => {
    const send = (button: Record<string, unknown>) =>
      fetch(`${fake.base}/${shop.env.WHATSAPP_PHONE_NUMBER_ID}/messages`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${shop.env.WHATSAPP_ACCESS_TOKEN}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({
          messaging_product: "whatsapp",
          to: "919811122334",
          type: "template",
          template: {
            name: "cart_reminder",
            language: { code: "en" },
            components: [
              { type: "body", parameters: ["a", "b", "c"].map((text) => ({ type: "text", text })) },
              button,
              { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "m=1" }] },
            ],
          },
        }),
      });
    const undocumented = await send({
      type: "button",
      sub_type: "url",
      index: "0",
      parameters: [{ type: "text", text: "x", url: "https://example.in/x" }],
    });
    expect(undocumented.status).toBe(400);
    expect(((await undocumented.json()) as { error: { code: number } }).error.code).toBe(100);
    const missing = await send({ type: "button", sub_type: "url", index: "0", parameters: [] });
    expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(132000);
  });
});
