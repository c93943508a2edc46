import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CartReminderReport } from "../../common/cart-reminders.ts";
import type { OrderDetail } from "../../common/orders.ts";
import type { TestAccount } from "../../tests/accounts.ts";
import {
  hoursFromNow,
  saveReminderSettings,
  signUpForReminders,
  startReminderShop,
} from "../../tests/cart-reminders.ts";
import { callApi, type createTestApp, jsonRequest } from "../../tests/database.ts";
import { startFakeWhatsApp, whatsAppReminderEnv } from "../../tests/fake-whatsapp.ts";
import { dueJobsSettled } from "../../tests/jobs.ts";
import {
  asUser,
  placeGuestOrderRequest,
  placeOrderRequest,
  putInCart,
  saveAddress,
} from "../../tests/orders.ts";
import { leftCarts, orders, users } from "../db/schema.ts";
import { CART_REMINDER_JOB, CART_WHATSAPP_REMINDER_JOB, sweepLeftCarts } from "./left-carts.ts";

/**
 * The per-day summary of carts left behind (left_cart_day_deltas, docs/decisions/099) is exact: after carts left
 * by accounts and guests (one reached only by mobile), reminders sent by e-mail and WhatsApp, and orders placed,
 * cancelled and deleted through the shop's own code, its sums per day equal the report's query over the left
 * carts and the orders themselves, and the report read from it says the same.
 */
let shop: Awaited<ReturnType<typeof createTestApp>>;
let fake: Awaited<ReturnType<typeof startFakeWhatsApp>>;
let owner: TestAccount;

const remindersSettled = () => dueJobsSettled(shop.db, [CART_REMINDER_JOB, CART_WHATSAPP_REMINDER_JOB]);

/** The summary's sums per day, and the report's own question asked of the left carts and orders. */
async function summedAndCounted() {
  const summed = await shop.db.execute(sql`
    select day::text as day, sum(left_behind)::int as left_behind, sum(reminded)::int as reminded,
      sum(reminders_sent)::int as reminders_sent, sum(whatsapp_sent)::int as whatsapp_sent,
      sum(won_back)::int as won_back, sum(revenue_paise)::bigint::text as revenue,
      sum(no_consent)::int as no_consent, sum(unsubscribed)::int as unsubscribed
    from left_cart_day_deltas group by 1 having sum(left_behind) <> 0 order by 1`);
  const counted = await shop.db.execute(sql`
    with left_behind as (
      select l.id, l.user_id, l.reminders_sent, l.closed_reason,
             to_char(l.touched_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD') as day,
             coalesce(l.email, lower(u.email)) as email,
             right(regexp_replace(l.mobile, '\\D', '', 'g'), 10) as mobile,
             l.whatsapp_sent_at is not null and l.whatsapp_refused is null as whatsapp_delivered,
             least(l.first_reminded_at, case when l.whatsapp_refused is null then l.whatsapp_sent_at end)
               as reminded_at
        from left_carts l
        left join users u on u.id = l.user_id
       where l.reminders_sent > 0 or l.whatsapp_sent_at is not null
          or l.closed_reason in ('no_consent', 'unsubscribed', 'no_email', 'recently_reminded', 'off')
    ),
    won as (
      select lb.id, o.total_paise
        from left_behind lb
        join lateral (
          select o.total_paise from orders o
           where (o.user_id = lb.user_id or lower(o.guest_email) = lb.email or o.ship_phone = lb.mobile)
             and o.created_at >= lb.reminded_at
             and o.created_at < lb.reminded_at + interval '7 days'
             and o.status not in ('awaiting_payment', 'cancelled')
           order by o.created_at, o.id
           limit 1) o on true
       where lb.reminded_at is not null
    )
    select lb.day, count(*)::int as left_behind,
           (count(*) filter (where lb.reminded_at is not null))::int as reminded,
           coalesce(sum(lb.reminders_sent), 0)::int as reminders_sent,
           (count(*) filter (where lb.whatsapp_delivered))::int as whatsapp_sent,
           count(won.id)::int as won_back, coalesce(sum(won.total_paise), 0)::bigint::text as revenue,
           (count(*) filter (where lb.closed_reason = 'no_consent'))::int as no_consent,
           (count(*) filter (where lb.closed_reason = 'unsubscribed'))::int as unsubscribed
      from left_behind lb left join won on won.id = lb.id
     group by lb.day order by lb.day`);
  return { summed: summed.rows, counted: counted.rows };
}

async function expectSummaryExact() {
  const { summed, counted } = await summedAndCounted();
  expect(summed).toEqual(counted);
  return counted;
}

/** An account that said yes to reminders by e-mail, with a saved address and a cart left behind. */
async function remindedAccount(email: string, consent = true) {
  const account = await signUpForReminders(shop.app, email, consent);
  const addressId = await saveAddress(shop.app, account.cookie);
  await putInCart(shop.db, account.userId, [{ itemId: "coconut-oil", quantity: 2 }]);
  return { ...account, addressId };
}

async function orderFromCart(account: { cookie: string; addressId: string }) {
  const response = await placeOrderRequest(shop.app, account.cookie, {
    addressId: account.addressId,
    paymentMethod: "cod",
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { order: OrderDetail }).order;
}

async function guestOrder(email: string, phone: string) {
  const placed = await placeGuestOrderRequest(shop.app, {
    email,
    phone,
    items: [{ id: "bath-powder", kind: "product", quantity: 3 }],
  });
  expect(placed.status).toBe(201);
  return ((await placed.json()) as { order: OrderDetail }).order;
}

const guestCheckout = (body: Record<string, unknown>) =>
  shop.app.request(
    "/api/checkout/guest",
    jsonRequest({
      method: "POST",
      body: { items: [{ id: "bath-powder", kind: "product", quantity: 1 }], ...body },
    }),
  );

const wonPaiseOf = async (subject: string) =>
  (await shop.db.select({ won: leftCarts.wonPaise }).from(leftCarts).where(eq(leftCarts.subject, subject)))[0]
    ?.won;

async function report(query = "") {
  const answer = await shop.app.request(`/api/admin/cart-reminders/report${query}`, asUser(owner.cookie));
  expect(answer.status).toBe(200);
  return (await answer.json()) as CartReminderReport;
}

beforeAll(async () => {
  fake = await startFakeWhatsApp();
  ({ shop, owner } = await startReminderShop(
    "owner.summary@prakriti.example",
    whatsAppReminderEnv(fake.base),
  ));
  await saveReminderSettings(shop.app, owner);
});
afterAll(async () => {
  await shop?.close();
  await fake?.close();
});

describe("the per-day summary of carts left behind", () => {
  it("equals the report's query over the left carts and orders as carts are left, reminded, won back, cancelled and deleted", async () => {
    // Accounts: one orders after the reminder, one orders and is cancelled, one never orders, one gave no yes,
    // one is won back by a guest order with the account's e-mail, which then changes.
    const asha = await remindedAccount("asha.summary@example.in");
    const bina = await remindedAccount("bina.summary@example.in");
    await remindedAccount("chitra.summary@example.in");
    await remindedAccount("divya.summary@example.in", false);
    const esha = await remindedAccount("esha.summary@example.in");
    // Guests: one with an e-mail and a yes to mail; one reached only by mobile, with a yes to WhatsApp; one with
    // an e-mail and a mobile, with a yes to both.
    expect((await guestCheckout({ email: "farah.summary@example.in", remindMe: true })).status).toBe(200);
    expect((await guestCheckout({ mobile: "97000 55555", remindOnWhatsApp: true })).status).toBe(200);
    expect(
      (
        await guestCheckout({
          email: "gita.summary@example.in",
          mobile: "97000 88888",
          remindMe: true,
          remindOnWhatsApp: true,
        })
      ).status,
    ).toBe(200);
    await expectSummaryExact();

    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await remindersSettled();
    expect(fake.messages.filter((message) => message.to === "919700055555")).toHaveLength(1);
    expect(fake.messages.filter((message) => message.to === "919700088888")).toHaveLength(1);
    const reminded = await expectSummaryExact();
    expect(reminded.reduce((total, row) => total + Number(row.reminded), 0)).toBe(7);

    const ashaOrder = await orderFromCart(asha);
    const binaOrder = await orderFromCart(bina);
    const farahOrder = await guestOrder("farah.summary@example.in", "97000 66666");
    // The guest reached only by mobile orders with an e-mail the shop never saw, to that mobile.
    const mobileOrder = await guestOrder("someone.new@example.in", "9700055555");
    const eshaOrder = await guestOrder("esha.summary@example.in", "97000 77777");
    // The guest reminded on WhatsApp orders under another e-mail, to the same mobile: won back by the mobile.
    const gitaOrder = await guestOrder("gita.elsewhere@example.in", "9700088888");
    expect(await wonPaiseOf("guest:gita.summary@example.in")).toBe(gitaOrder.totalPaise);
    expect(await wonPaiseOf(`user:${asha.userId}`)).toBe(ashaOrder.totalPaise);
    expect(await wonPaiseOf("guest:farah.summary@example.in")).toBe(farahOrder.totalPaise);
    expect(await wonPaiseOf("guest:9700055555")).toBe(mobileOrder.totalPaise);
    expect(await wonPaiseOf(`user:${esha.userId}`)).toBe(eshaOrder.totalPaise);
    await expectSummaryExact();
    const won = await report();
    expect(won.totals).toMatchObject({ leftBehind: 8, reminded: 7, wonBack: 6, whatsappSent: 2 });
    expect(won.totals.revenuePaise).toBe(
      ashaOrder.totalPaise +
        binaOrder.totalPaise +
        farahOrder.totalPaise +
        mobileOrder.totalPaise +
        eshaOrder.totalPaise +
        gitaOrder.totalPaise,
    );
    expect(won.notReminded.noConsent).toBe(1);

    // Bina's order is cancelled by the desk: her cart is no longer won back.
    const cancelled = await callApi(shop.app, "POST", `/api/admin/orders/${binaOrder.number}/status`, {
      as: owner,
      body: { status: "cancelled" },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await wonPaiseOf(`user:${bina.userId}`)).toBeNull();
    // Esha's account takes another e-mail: the guest order with the old one no longer wins her cart back.
    await shop.db.update(users).set({ email: "esha.elsewhere@example.in" }).where(eq(users.id, esha.userId));
    expect(await wonPaiseOf(`user:${esha.userId}`)).toBeNull();
    // Farah's order is deleted; Asha's cart is moved to another day.
    await shop.db.delete(orders).where(eq(orders.number, farahOrder.number));
    await shop.db
      .update(leftCarts)
      .set({ touchedAt: sql`${leftCarts.touchedAt} - interval '3 days'` })
      .where(eq(leftCarts.subject, `user:${asha.userId}`));
    const after = await expectSummaryExact();
    expect(after).toHaveLength(2);
    const totals = (await report("?period=30d")).totals;
    expect(totals).toMatchObject({ leftBehind: 8, reminded: 7, wonBack: 3 });
    expect(totals.revenuePaise).toBe(ashaOrder.totalPaise + mobileOrder.totalPaise + gitaOrder.totalPaise);
  });
});
