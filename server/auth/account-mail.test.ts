import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { mailsTo, type SentMail, waitForMail } from "../../tests/mail.ts";
import { jobs } from "../db/schema.ts";
import type { Mail } from "../mail.ts";
import { sealSecret } from "../secrets.ts";
import { ACCOUNT_MAIL_JOB, deliverAccountMail } from "./account-mail.ts";

const shop = setUpTestApp();
/** Tries the mail server refuses before it takes mail again: set per test. */
let refuse = 0;

beforeAll(async () => {
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
    expect(settled.payload).toEqual({ forgotten: true, template: "reset-password", to: account.email });
    const everything = JSON.stringify(await accountMailJobs());
    const token = new URL(link as string).pathname.split("/").at(-1) as string;
    expect(token.length).toBeGreaterThan(10);
    expect(everything).not.toContain(token);
  });

  it("does not send a link that expired while it waited, and sends one still valid", async () => {
    const sent: Mail[] = [];
    const deps = {
      db: shop.db,
      env: shop.env,
      secret: shop.deps.authSecret,
      mailer: { send: async (mail: Mail) => void sent.push(mail) },
    };
    const url = "http://localhost:3000/login/email-link/verify?token=abc";
    const waiting = (notAfter: number) => ({
      template: "sign-in-link",
      to: "late@example.in",
      sealedUrl: sealSecret(shop.deps.authSecret, "account-mail-link", url),
      notAfter: new Date(notAfter).toISOString(),
    });
    await deliverAccountMail(deps, waiting(Date.now() - 1_000));
    expect(sent).toEqual([]);
    await deliverAccountMail(deps, waiting(Date.now() + 60_000));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe("late@example.in");
    expect(sent[0]?.text).toContain(url);
  });
});

/**
 * Issue 25's critical path: staff polled the job list while asking for a sign-in link for the owner's address,
 * read the link from the job and signed in as the owner. Tried with the mail server up, and down (the failed
 * job keeps its payload for the retry, so the link waited there for every try).
 */
describe("a staff member reading the job list", () => {
  let owner: TestAccount;
  let staff: TestAccount;
  beforeAll(async () => {
    owner = await signUpWithRole(shop, "owner-25@example.in", "owner");
    staff = await signUpWithRole(shop, "staff-25@example.in", "staff");
  });

  for (const mailServer of ["up", "down"] as const) {
    it(`never reads another account's sign-in link (mail server ${mailServer})`, async () => {
      refuse = mailServer === "down" ? 4 : 0;
      const before = (await mailsTo(shop.dataDir, owner.email)).length;
      const asked = await callApi(shop.app, "POST", "/api/auth/sign-in/magic-link", {
        as: staff,
        body: { email: owner.email, callbackURL: "/" },
      });
      expect(asked.status).toBe(200);
      // Every answer staff can get while the mail waits, is tried and is settled.
      const seen: string[] = [];
      let mail: SentMail | undefined;
      for (let polls = 0; polls < 400 && !mail; polls++) {
        for (const status of ["", "?status=queued", "?status=running", "?status=failed", "?status=done"]) {
          const list = await callApi(shop.app, "GET", `/api/admin/jobs${status}`, { as: staff });
          expect(list.status).toBe(200);
          seen.push(JSON.stringify(list.body));
        }
        mail = (await mailsTo(shop.dataDir, owner.email))
          .slice(before)
          .find((each) => /sign-in link/i.test(each.subject));
      }
      if (!mail) throw new Error("the owner's sign-in link never arrived");
      expect(refuse).toBe(0);
      const link = mail.links.find((each) => each.includes("email-link/verify")) as string;
      const token = new URL(link).searchParams.get("token") as string;
      expect(token.length).toBeGreaterThan(10);
      // The list did show the job (so the check below looked at it), and never its link.
      expect(seen.some((body) => body.includes(owner.email))).toBe(true);
      for (const body of seen) {
        expect(body).not.toContain(token);
        expect(body).not.toContain("email-link/verify");
        expect(body).not.toContain("sealed");
      }
      // Nor does the row itself keep the link in the clear, settled or not.
      expect(JSON.stringify(await accountMailJobs())).not.toContain(token);
    });
  }
});
