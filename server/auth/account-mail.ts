import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { enqueueJob, type JobSignal } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import type { Mail, Mailer } from "../mail.ts";
import { type MailSignature, readMailSignature } from "../mail-templates.ts";

export const ACCOUNT_MAIL_JOB = "account-mail";

/** An account e-mail with nothing time-bound in it (a notice) is still worth sending this long after. */
const NOTICE_VALID_MINUTES = 24 * 60;

const accountMailPayload = z.object({
  mail: z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string() }),
  notAfter: z.iso.datetime(),
});

/**
 * Sends an account e-mail off the request path; `validMinutes` is how long its link works. The mail is
 * composed with the shop's signature as the owner's details stand then (mail-templates.ts).
 */
export type SendAccountMail = (compose: (signature: MailSignature) => Mail, validMinutes?: number) => void;

/**
 * Account e-mails (confirmation, sign-in link, reset, notices) go through the job queue, as order mails do
 * (docs/decisions/029): a mail server that is away is tried again with backoff, by whichever instance is up,
 * even after a restart. They are queued after the answer, for an address with an account and one without
 * alike, so the answer's timing says nothing about the account (docs/decisions/018); a crash in the moment
 * between the answer and the queue loses that one mail, which the shopper can ask for again.
 *
 * The job holds the mail's link, so its payload is forgotten once the job is settled
 * (`forgetWhenSettled`, server/jobs/job-queue.ts), and a link past its validity is not sent at all.
 */
export function accountMailSender(db: Db, env: Env, jobs: JobSignal): SendAccountMail {
  return (compose, validMinutes = NOTICE_VALID_MINUTES) => {
    setImmediate(() => {
      Promise.resolve()
        .then(async () => {
          const notAfter = new Date(Date.now() + validMinutes * 60_000).toISOString();
          await enqueueJob(db, {
            kind: ACCOUNT_MAIL_JOB,
            payload: { mail: compose(await readMailSignature(db, env)), notAfter, forgetWhenSettled: true },
          });
          jobs.wake();
        })
        .catch((error) => log.error({ err: serializeError(error) }, "an account e-mail could not be queued"));
    });
  };
}

/** The job worker's side: sends the queued mail unless its link has expired meanwhile. */
export async function deliverAccountMail(mailer: Mailer, payload: Record<string, unknown>) {
  // A failed job queued again by staff: its link was forgotten, and the shopper asks for a new one.
  if (payload.forgotten) return;
  const { mail, notAfter } = accountMailPayload.parse(payload);
  if (Date.now() > Date.parse(notAfter)) {
    log.warn({ subject: mail.subject }, "account e-mail not sent: its link expired while it waited");
    return;
  }
  await mailer.send(mail);
}
