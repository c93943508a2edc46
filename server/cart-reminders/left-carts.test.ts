import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import {
  hoursFromNow,
  saveReminderSettings,
  signUpForReminders,
  startReminderShop,
} from "../../tests/cart-reminders.ts";
import { type createTestApp, jsonRequest, startSecondInstance } from "../../tests/database.ts";
import { dueJobsSettled } from "../../tests/jobs.ts";
import { linkIn, mailsTo, waitForMail } from "../../tests/mail.ts";
import {
  asUser,
  placeGuestOrderRequest,
  placeOrderRequest,
  putInCart,
  saveAddress,
} from "../../tests/orders.ts";
import { jobs, leftCarts, marketingConsents } from "../db/schema.ts";
import { jobHandlers } from "../job-handlers.ts";
import { startJobWorker } from "../jobs/job-queue.ts";
import { CART_REMINDER_JOB, sendCartReminder, sweepLeftCarts } from "./left-carts.ts";

/** Carts left behind (issue 44, docs/decisions/089): one reminder, with consent, never twice, never after an order. */
let shop: Awaited<ReturnType<typeof createTestApp>>;
let owner: TestAccount;

const shopper = (email: string, consent: boolean) => signUpForReminders(shop.app, email, consent);

const remindersSettled = () => dueJobsSettled(shop.db, [CART_REMINDER_JOB]);

const leftCartOf = async (userId: string) =>
  shop.db.select().from(leftCarts).where(eq(leftCarts.userId, userId));

const saveSettings = (settings: Record<string, unknown>) => saveReminderSettings(shop.app, owner, settings);

beforeAll(async () => {
  ({ shop, owner } = await startReminderShop("owner@prakriti.example"));
});
afterAll(() => shop.close());

describe("a signed-in shopper's cart left behind", () => {
  it("gets one reminder after the owner's delay, with the cart's link, an unsubscribe link and header, and a code only that shopper can use", async () => {
    await saveSettings({ codePercent: 10, codeDays: 2 });
    const asha = await shopper("asha@example.in", true);
    await putInCart(shop.db, asha.userId, [{ itemId: "coconut-oil", quantity: 2 }]);

    // Not yet: 59 minutes of rest is under the owner's hour.
    await sweepLeftCarts(shop.deps, new Date(Date.now() + 59 * 60_000));
    await remindersSettled();
    expect(await mailsTo(shop.dataDir, "asha@example.in")).toHaveLength(0);

    expect(await sweepLeftCarts(shop.deps, hoursFromNow(2))).toBe(1);
    const mail = await waitForMail(shop.dataDir, { to: "asha@example.in", subject: /left something/ });
    expect(mail.text).toContain("× 2");
    const code = /code (BACK[0-9A-F]{8}) for 10% off/.exec(mail.text)?.[1];
    expect(code).toBeDefined();
    expect(linkIn(mail, "/cart-back/")).toMatch(
      /^http:\/\/localhost:3000\/cart-back\/[0-9a-f-]{36}\?e=\d+&s=/,
    );
    expect(linkIn(mail, "/unsubscribe")).toContain("/unsubscribe?a=");
    expect(mail.html).toContain(">Unsubscribe</a>");
    expect(mail.listUnsubscribe).toBe(`<${linkIn(mail, "/unsubscribe")}>`);

    const [row] = await leftCartOf(asha.userId);
    expect(row?.remindersSent).toBe(1);
    expect(row?.discountCode).toBe(code);

    // A sweep again, and the same job run again by hand: still the one mail.
    await sweepLeftCarts(shop.deps, hoursFromNow(3));
    await sendCartReminder(shop.deps, row?.id ?? "", 1);
    await remindersSettled();
    expect(await mailsTo(shop.dataDir, "asha@example.in")).toHaveLength(1);

    // The code is Asha's alone: another account is told it is invalid; Asha's cart takes 10% off.
    const other = await signUpViaApp(shop.app, "ravi@example.in");
    await putInCart(shop.db, other.userId, [{ itemId: "coconut-oil", quantity: 1 }]);
    const refused = await shop.app.request(
      "/api/discounts/apply",
      asUser(other.cookie, { method: "POST", body: { code } }),
    );
    expect(refused.status).toBe(422);
    const applied = await shop.app.request(
      "/api/discounts/apply",
      asUser(asha.cookie, { method: "POST", body: { code } }),
    );
    expect(applied.status).toBe(200);
    const { cart } = (await applied.json()) as {
      cart: { subtotalPaise: number; discountPaise: number };
    };
    expect(cart.discountPaise).toBe(Math.round(cart.subtotalPaise / 10 / 100) * 100);
    await saveSettings({});
  });

  it("gets no reminder without the shopper's opt-in, and the cart is counted as left behind for want of it", async () => {
    const kiran = await shopper("kiran@example.in", false);
    await putInCart(shop.db, kiran.userId, [{ itemId: "bath-powder", quantity: 1 }]);
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await remindersSettled();
    expect(await mailsTo(shop.dataDir, "kiran@example.in")).toHaveLength(0);
    const [row] = await leftCartOf(kiran.userId);
    expect(row).toMatchObject({ remindersSent: 0, closedReason: "no_consent" });
  });

  it("gets no second reminder once the shopper has ordered", async () => {
    await saveSettings({ secondReminder: true });
    const meera = await shopper("meera@example.in", true);
    const addressId = await saveAddress(shop.app, meera.cookie);
    await putInCart(shop.db, meera.userId, [{ itemId: "coconut-oil", quantity: 1 }]);
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await waitForMail(shop.dataDir, { to: "meera@example.in", subject: /left something/ });
    const placed = await placeOrderRequest(shop.app, meera.cookie, { addressId, paymentMethod: "cod" });
    expect(placed.status).toBe(201);
    await sweepLeftCarts(shop.deps, hoursFromNow(27));
    await remindersSettled();
    const reminders = (await mailsTo(shop.dataDir, "meera@example.in")).filter((mail) =>
      /cart/.test(mail.subject),
    );
    expect(reminders.map((mail) => mail.subject)).toEqual(["You left something in your cart"]);
    expect((await leftCartOf(meera.userId))[0]).toMatchObject({ remindersSent: 1, closedReason: "ordered" });
    await saveSettings({});
  });

  it("honours an unsubscribe at once: the second reminder the owner asked for does not go", async () => {
    await saveSettings({ secondReminder: true });
    const neha = await shopper("neha@example.in", true);
    await putInCart(shop.db, neha.userId, [{ itemId: "bath-powder", quantity: 3 }]);
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    const mail = await waitForMail(shop.dataDir, { to: "neha@example.in", subject: /left something/ });

    const page = await shop.app.request(
      new URL(linkIn(mail, "/unsubscribe")).pathname + new URL(linkIn(mail, "/unsubscribe")).search,
    );
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You are unsubscribed");
    const [answer] = await shop.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.email, "neha@example.in"))
      .orderBy(sql`${marketingConsents.createdAt} desc`)
      .limit(1);
    expect(answer).toMatchObject({ consented: false, source: "unsubscribe_link" });

    // A day and more later the second reminder is due, and is not sent.
    await sweepLeftCarts(shop.deps, hoursFromNow(27));
    await remindersSettled();
    expect(await mailsTo(shop.dataDir, "neha@example.in")).toHaveLength(1);
    expect((await leftCartOf(neha.userId))[0]).toMatchObject({
      remindersSent: 1,
      closedReason: "unsubscribed",
    });

    // A link not made by the shop unsubscribes no one.
    const forged = await shop.app.request("/unsubscribe?a=bWVlcmFAZXhhbXBsZS5pbg&s=xyz");
    expect(forged.status).toBe(404);
    await saveSettings({});
  });

  it("sends once when many sweeps on two instances race, each with its own worker", async () => {
    const second = startSecondInstance(shop);
    const stopSecondWorker = startJobWorker({
      db: second.deps.db,
      signal: second.deps.jobs,
      handlers: jobHandlers(second.deps),
      pollMs: 50,
      retryBaseMs: 50,
    });
    try {
      const racers = await Promise.all(
        ["priya", "divya", "anil"].map((name) => shopper(`${name}@example.in`, true)),
      );
      for (const racer of racers)
        await putInCart(shop.db, racer.userId, [{ itemId: "coconut-oil", quantity: 1 }]);
      const at = hoursFromNow(2);
      await Promise.all(
        Array.from({ length: 24 }, (_, index) => sweepLeftCarts(index % 2 ? second.deps : shop.deps, at)),
      );
      // And the send itself, asked for at once from both instances, as a lease run out would.
      const rows = await shop.db
        .select({ id: leftCarts.id })
        .from(leftCarts)
        .where(
          inArray(
            leftCarts.userId,
            racers.map((racer) => racer.userId),
          ),
        );
      expect(rows).toHaveLength(3);
      await Promise.all(
        rows.flatMap(({ id }) => [
          sendCartReminder(shop.deps, id, 1),
          sendCartReminder(second.deps, id, 1),
          sendCartReminder(shop.deps, id, 1),
        ]),
      );
      await remindersSettled();
      for (const racer of racers) expect(await mailsTo(shop.dataDir, racer.email)).toHaveLength(1);
      const [queued] = await shop.db
        .select({ n: sql<number>`count(*)::int` })
        .from(jobs)
        .where(
          inArray(
            jobs.key,
            rows.map(({ id }) => `${CART_REMINDER_JOB}:${id}:1`),
          ),
        );
      expect(queued?.n).toBe(3);
    } finally {
      await stopSecondWorker();
      await second.end();
    }
  });
});

describe("a guest's checkout left behind", () => {
  it("is recorded with its lines once an e-mail is typed, the tick recorded as the guest's yes, and reminded with a link that brings the lines back", async () => {
    const checkout = (body: Record<string, unknown>) =>
      shop.app.request(
        "/api/checkout/guest",
        jsonRequest({
          method: "POST",
          body: { items: [{ id: "coconut-oil", kind: "product", quantity: 3 }], ...body },
        }),
      );
    expect((await checkout({})).status).toBe(200);
    expect((await checkout({ email: "Guest.Lata@Example.in", remindMe: true })).status).toBe(200);
    const [row] = await shop.db
      .select()
      .from(leftCarts)
      .where(eq(leftCarts.subject, "guest:guest.lata@example.in"));
    expect(row?.items).toEqual([{ id: "coconut-oil", kind: "product", quantity: 3 }]);
    const [yes] = await shop.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.email, "guest.lata@example.in"));
    expect(yes).toMatchObject({ consented: true, source: "checkout", userId: null });

    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    const mail = await waitForMail(shop.dataDir, { to: "guest.lata@example.in", subject: /left something/ });
    const link = new URL(linkIn(mail, "/cart-back/"));
    const landing = await shop.app.request(link.pathname + link.search);
    expect(landing.status).toBe(200);
    const html = await landing.text();
    expect(html).toContain("Your cart is back");
    expect(html).toContain('"id":"coconut-oil","kind":"product"');
    expect(html).toContain('"quantity":3');

    // Tampered or expired, the link restores nothing.
    const tampered = await shop.app.request(`${link.pathname}?e=${link.searchParams.get("e")}&s=AAAA`);
    expect(tampered.status).toBe(404);
  });

  it("gets no reminder when the guest ordered meanwhile", async () => {
    const items = [{ id: "bath-powder", kind: "product", quantity: 1 }];
    const checked = await shop.app.request(
      "/api/checkout/guest",
      jsonRequest({ method: "POST", body: { items, email: "guest.uma@example.in", remindMe: true } }),
    );
    expect(checked.status).toBe(200);
    const placed = await placeGuestOrderRequest(shop.app, { email: "guest.uma@example.in", items });
    expect(placed.status).toBe(201);
    await sweepLeftCarts(shop.deps, hoursFromNow(2));
    await remindersSettled();
    const mails = await mailsTo(shop.dataDir, "guest.uma@example.in");
    expect(mails.filter((mail) => /cart/.test(mail.subject))).toHaveLength(0);
    const [row] = await shop.db
      .select()
      .from(leftCarts)
      .where(eq(leftCarts.subject, "guest:guest.uma@example.in"));
    expect(row).toMatchObject({ remindersSent: 0, closedReason: "ordered" });
  });

  it("is not recorded, nor reminded, without an e-mail or a mobile", async () => {
    const before = await shop.db.select({ n: sql<number>`count(*)::int` }).from(leftCarts);
    await shop.app.request(
      "/api/checkout/guest",
      jsonRequest({ method: "POST", body: { items: [{ id: "bath-powder", kind: "product", quantity: 1 }] } }),
    );
    const after = await shop.db.select({ n: sql<number>`count(*)::int` }).from(leftCarts);
    expect(after[0]?.n).toBe(before[0]?.n);
  });
});
