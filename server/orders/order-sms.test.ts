import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { callApi, createTestApp, jsonRequest } from "../../tests/database.ts";
import { type FakeSmsProvider, fakeTwilioEnv, startFakeSmsProvider } from "../../tests/fake-sms-provider.ts";
import { readMails } from "../../tests/mail.ts";
import { placeCodOrder, saveAddress } from "../../tests/orders.ts";
import { orders, users } from "../db/schema.ts";
import { orderWithPayment } from "../money/ledger.ts";
import { orderNotice } from "./order-sms.ts";
import { changeOrderStatus } from "./order-status.ts";

let sms: FakeSmsProvider;
let shop: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  sms = await startFakeSmsProvider();
  shop = await createTestApp(fakeTwilioEnv(sms.base));
});
afterAll(async () => {
  await shop.close();
  await sms.close();
});

/** An account made by signing in with a mobile number (the code read from the fake provider): no e-mail. */
async function mobileAccount(mobile: string) {
  await callApi(shop.app, "POST", "/api/auth/phone-number/send-otp", { body: { phoneNumber: mobile } });
  const code = await sms.codeFor(`+91${mobile}`);
  const verified = await shop.app.request(
    "/api/auth/phone-number/verify",
    jsonRequest({ method: "POST", body: { phoneNumber: mobile, code } }),
  );
  expect(verified.status).toBe(200);
  const cookie = verified.headers
    .getSetCookie()
    .map((each) => each.split(";")[0])
    .join("; ");
  const [user] = await shop.db
    .select()
    .from(users)
    .where(eq(users.phoneNumber, `+91${mobile}`));
  return { cookie, userId: user?.id ?? "", email: user?.email ?? "" };
}

/** The first SMS to the number whose text matches, waiting for the job worker to send it. */
async function smsTo(mobile: string, text: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = sms.messages.find(
      (message) => message.to === `+91${mobile}` && text.test(message.body ?? ""),
    );
    if (found?.body) return found.body;
    if (Date.now() > deadline) throw new Error(`no SMS matching ${text} reached ${mobile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function placeCod(who: { cookie: string; userId: string }, itemId: string) {
  const addressId = await saveAddress(shop.app, who.cookie);
  return placeCodOrder(shop, { ...who, addressId }, [{ itemId }]);
}

describe("order notices for an account made with a mobile number", () => {
  it("go by SMS where the e-mail would: placed, shipped with the tracking link, cancelled", async () => {
    const mobile = "9123400001";
    const shopper = await mobileAccount(mobile);
    expect(shopper.email).toMatch(/@mobile\.invalid$/);

    const order = await placeCod(shopper, "coconut-oil");
    const placed = await smsTo(mobile, new RegExp(`order ${order.number} .*placed`));
    expect(placed).toBe(
      `Prakriti Naturals: order ${order.number} is placed. See it: ${shop.env.PUBLIC_URL}/orders/${order.number}`,
    );
    // A single SMS: the GSM alphabet, within 160 characters.
    expect(placed.length).toBeLessThanOrEqual(160);

    const [row] = await shop.db.select().from(orders).where(eq(orders.number, order.number));
    for (const to of ["confirmed", "packed"] as const) {
      await changeOrderStatus(
        shop.deps,
        { orderId: row?.id ?? "" },
        { to, actor: "admin", actorUserId: null },
      );
    }
    await changeOrderStatus(
      shop.deps,
      { orderId: row?.id ?? "" },
      { to: "shipped", actor: "admin", actorUserId: null, courier: "Delhivery", trackingNumber: "DLV555" },
    );
    // Through Twilio, each notice is the brand's one registered DLT order template.
    expect(await smsTo(mobile, new RegExp(`order ${order.number} is shipped`))).toBe(
      `Prakriti Naturals: order ${order.number} is shipped. See it: https://www.delhivery.com/track/package/DLV555`,
    );
    // The same notice for MSG91's registered template: its link is the courier's page too.
    const [shipped] = await shop.db
      .select(orderWithPayment)
      .from(orders)
      .where(eq(orders.number, order.number));
    expect(shipped && orderNotice(shop.env, shipped, "shipped", "unused")?.vars).toEqual({
      number: order.number,
      status: "shipped",
      link: "https://www.delhivery.com/track/package/DLV555",
    });

    const second = await placeCod(shopper, "wax-powder");
    const cancelled = await callApi(shop.app, "POST", `/api/orders/${second.number}/cancel`, {
      as: shopper,
      body: {},
    });
    expect(cancelled.status).toBe(200);
    expect(await smsTo(mobile, new RegExp(`order ${second.number} is cancelled`))).toBe(
      `Prakriti Naturals: order ${second.number} is cancelled. See it: ${shop.env.PUBLIC_URL}/orders/${second.number}`,
    );
    // Nothing is mailed to the address Better Auth needed.
    expect((await readMails(shop.dataDir)).filter((mail) => mail.to === shopper.email)).toEqual([]);
  });

  it("are not sent to an account with an e-mail, which gets the mail", async () => {
    const member = await signUpViaApp(shop.app, "mails-not-sms@example.in");
    const before = sms.messages.length;
    const order = await placeCod(member, "coconut-oil");
    await expect
      .poll(async () => (await readMails(shop.dataDir)).some((mail) => mail.subject.includes(order.number)), {
        timeout: 10_000,
      })
      .toBe(true);
    // The COD question still goes to the delivery phone (the shop has no WhatsApp here); no order notice does.
    const texts = sms.messages
      .slice(before)
      .filter((message) => message.body?.includes(order.number))
      .map((message) => message.body);
    expect(texts.filter((text) => !text?.includes("is waiting for your confirmation"))).toEqual([]);
  });
});
