import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { callApi, createTestApp } from "../../tests/database.ts";
import { waitForMail } from "../../tests/mail.ts";
import { jobs } from "../db/schema.ts";
import type { Mail } from "../mail.ts";
import { ACCOUNT_MAIL_JOB, deliverAccountMail } from "./account-mail.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
/** Tries the mail server refuses before it takes mail again: set per test. */
let refuse = 0;

beforeAll(async () => {
  shop = await createTestApp();
  const outbox = shop.deps.mailer;
  shop.deps.mailer = {
    async send(mail) {
      if (refuse > 0) {
        refuse--;
        throw new Error("Mail server away");
      }
      await outbox.send(mail);
    },
  };
});
afterAll(() => shop.close());

const accountMailJobs = () => shop.db.select().from(jobs).where(eq(jobs.kind, ACCOUNT_MAIL_JOB));

describe("account e-mails through the job queue", () => {
  it("reach the shopper once the mail server is back, and the job forgets the link once sent", async () => {
    const account = await signUpViaApp(shop.app, "anu@example.in");
    refuse = 3;
    const asked = Date.now();
    const response = await callApi(shop.app, "POST", "/api/auth/request-password-reset", {
      body: { email: account.email, redirectTo: "/reset-password" },
    });
    expect(response.status).toBe(200);
    const mail = await waitForMail(shop.dataDir, { to: account.email, subject: /password/i });
    expect(refuse).toBe(0);
    const link = mail.links.find((each) => each.includes("reset-password"));
    expect(link).toBeDefined();

    // Settled: what stays in the queue says what was sent and to whom, not the link.
    const settled = await (async () => {
      for (let tries = 0; tries < 100; tries++) {
        const job = (await accountMailJobs()).find(
          (each) => each.status === "done" && each.updatedAt.getTime() >= asked && each.attempts === 4,
        );
        if (job) return job;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the reset mail's job never settled");
    })();
    expect(settled.payload).toEqual({ forgotten: true, to: account.email, subject: mail.subject });
    const everything = JSON.stringify(await accountMailJobs());
    const token = new URL(link as string).pathname.split("/").at(-1) as string;
    expect(token.length).toBeGreaterThan(10);
    expect(everything).not.toContain(token);
  });

  it("does not send a link that expired while it waited, and sends one still valid", async () => {
    const sent: Mail[] = [];
    const mailer = { send: async (mail: Mail) => void sent.push(mail) };
    const mail = { to: "late@example.in", subject: "Your sign-in link", text: "t", html: "<p>t</p>" };
    await deliverAccountMail(mailer, { mail, notAfter: new Date(Date.now() - 1_000).toISOString() });
    expect(sent).toEqual([]);
    await deliverAccountMail(mailer, { mail, notAfter: new Date(Date.now() + 60_000).toISOString() });
    expect(sent).toEqual([mail]);
  });
});
