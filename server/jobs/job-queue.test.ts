import { and, eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithRole } from "../../tests/accounts.ts";
import { callApi, createTestApp, createTestDatabase } from "../../tests/database.ts";
import { placeOrderRequest, putInCart, setStock, signUpWithAddress } from "../../tests/orders.ts";
import { findFreePort } from "../db/embedded.ts";
import { jobs, orders } from "../db/schema.ts";
import { createMailer } from "../mail.ts";
import { ORDER_MAIL_JOB } from "../orders/order-mail.ts";
import { scheduleUnpaidOrderExpiry } from "../orders/order-status.ts";
import { createJobSignal, enqueueJob, startJobWorker } from "./job-queue.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
let smtp: SMTPServer;
/** Order mails the SMTP server accepted, and how many it refused before: set per test. */
const received: { to: string; subject: string; at: number }[] = [];
let refuse = 0;
let refused = 0;

beforeAll(async () => {
  shop = await createTestApp();
  const port = await findFreePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (refused < refuse) {
            refused++;
            const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
            return callback(error);
          }
          const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          received.push({ to: to?.value[0]?.address ?? "", subject: mail.subject ?? "", at: Date.now() });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  // Order mails go to the SMTP server through the shop's own SMTP mailer; account mails (the sign-ups'
  // confirmations) stay in DATA_DIR/mail, where the sign-up helper reads them.
  const smtpMailer = createMailer({ ...shop.env, SMTP_URL: `smtp://127.0.0.1:${port}` });
  const outbox = shop.deps.mailer;
  shop.deps.mailer = {
    send: (mail) => (mail.subject.startsWith("Order ") ? smtpMailer : outbox).send(mail),
  };
});
afterAll(async () => {
  await shop.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

let count = 0;
async function placeCodOrder() {
  const account = await signUpWithAddress(shop.app, `queue${++count}@example.in`);
  await putInCart(shop.db, account.userId, [{ itemId: "bath-powder" }]);
  const response = await placeOrderRequest(shop.app, account.cookie, {
    addressId: account.addressId,
    paymentMethod: "cod",
  });
  const body = (await response.json()) as { order: { number: string } };
  return { account, status: response.status, number: body.order?.number, started: Date.now() };
}

async function until<T>(read: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const jobOf = async (number: string) => {
  const [order] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  // The order's mail; a COD order also queues the SMS that asks the shopper to confirm it.
  const [job] = await shop.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, ORDER_MAIL_JOB), sql`${jobs.payload}->>'orderId' = ${order?.id}`));
  return job;
};

describe("order mails through the job queue", () => {
  it("delivers the mail once when the mail server refuses the first 3 tries", async () => {
    refuse = 3;
    refused = 0;
    const order = await placeCodOrder();
    expect(order.status).toBe(201);
    const subject = `Order ${order.number} placed`;
    const mail = await until(async () => received.find((each) => each.subject === subject));
    const job = await until(async () => {
      const row = await jobOf(order.number);
      return row?.status === "done" ? row : undefined;
    });
    // Nothing sent twice, even a while after the last try.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(received.filter((each) => each.subject === subject)).toHaveLength(1);
    expect(mail.to).toBe(order.account.email);
    expect(refused).toBe(3);
    expect(job.attempts).toBe(4);
    console.log(
      `mail delivered on try ${job.attempts} after ${refused} refusals, ${mail.at - order.started} ms after the order (retry base ${shop.env.JOB_RETRY_BASE_MS} ms)`,
    );
  });

  it("queues nothing for an order that is rolled back", async () => {
    refuse = 0;
    const orderMails = () => shop.db.$count(jobs, eq(jobs.kind, ORDER_MAIL_JOB));
    const before = await orderMails();
    const account = await signUpWithAddress(shop.app, `queue${++count}@example.in`);
    await putInCart(shop.db, account.userId, [{ itemId: "wax-powder" }]);
    await setStock(shop.db, "wax-powder", 0);
    const response = await placeOrderRequest(shop.app, account.cookie, {
      addressId: account.addressId,
      paymentMethod: "cod",
    });
    expect(response.status).toBe(409);
    await setStock(shop.db, "wax-powder", 50);
    expect(await orderMails()).toBe(before);
  });

  it("marks a mail failed for good after 5 tries, shows it to staff, and sends it once retried", async () => {
    refuse = 5;
    refused = 0;
    const order = await placeCodOrder();
    const failed = await until(async () => {
      const row = await jobOf(order.number);
      return row?.status === "failed" ? row : undefined;
    });
    expect(failed.attempts).toBe(5);
    expect(failed.lastError).toContain("Mailbox busy");
    expect(received.some((each) => each.subject === `Order ${order.number} placed`)).toBe(false);

    const admin = await signUpWithRole(shop, `queue-admin${++count}@example.in`, "owner");
    expect(
      (await callApi(shop.app, "GET", "/api/admin/jobs?status=failed", { as: order.account })).status,
    ).toBe(403);
    const list = await callApi(shop.app, "GET", "/api/admin/jobs?status=failed", { as: admin });
    expect(list.status).toBe(200);
    expect(list.body.jobs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: failed.id, kind: "order-mail", status: "failed" }),
      ]),
    );
    expect((await callApi(shop.app, "GET", "/api/admin/jobs?status=broken", { as: admin })).status).toBe(400);

    const retried = await callApi(shop.app, "POST", `/api/admin/jobs/${failed.id}/retry`, { as: admin });
    expect(retried.status).toBe(200);
    await until(async () => received.find((each) => each.subject === `Order ${order.number} placed`));
    expect(received.filter((each) => each.subject === `Order ${order.number} placed`)).toHaveLength(1);
    const again = await callApi(shop.app, "POST", `/api/admin/jobs/${failed.id}/retry`, { as: admin });
    expect(again.status).toBe(409);
    expect((await callApi(shop.app, "POST", "/api/admin/jobs/999999999/retry", { as: admin })).status).toBe(
      404,
    );
  });
});

describe("the lapse of unpaid orders", () => {
  it("is queued once per minute however many instances offer it", async () => {
    const stops = [scheduleUnpaidOrderExpiry(shop.deps), scheduleUnpaidOrderExpiry(shop.deps)];
    const runs = await until(async () => {
      const rows = await shop.db.select().from(jobs).where(eq(jobs.kind, "expire-unpaid-orders"));
      return rows.length > 0 && rows.every((row) => row.status === "done") ? rows : undefined;
    });
    for (const stop of stops) stop();
    // Two offers within one minute (or across its edge): at most one run per minute.
    const keys = runs.map((row) => row.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeLessThanOrEqual(2);
    for (const key of keys) expect(key).toMatch(/^expire-unpaid-orders:\d{4}-\d\d-\d\dT\d\d:\d\d$/);
  });
});

describe("the worker", () => {
  it("finishes the job in hand when stopped, and takes no further one", async () => {
    const database = await createTestDatabase();
    try {
      let started = 0;
      let finished = 0;
      const stop = startJobWorker({
        db: database.db,
        signal: createJobSignal(),
        pollMs: 20,
        retryBaseMs: 10,
        handlers: {
          slow: async () => {
            started++;
            await new Promise((resolve) => setTimeout(resolve, 300));
            finished++;
          },
        },
      });
      await enqueueJob(database.db, { kind: "slow", payload: {} });
      await enqueueJob(database.db, { kind: "slow", payload: {}, runAt: new Date(Date.now() + 200) });
      await until(async () => (started === 1 ? true : undefined));
      await stop();
      expect(finished).toBe(1);
      const rows = await database.db.select().from(jobs).orderBy(jobs.id);
      expect(rows.map((row) => row.status)).toEqual(["done", "queued"]);
    } finally {
      await database.drop();
    }
  });
});
