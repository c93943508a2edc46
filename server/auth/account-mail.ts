import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { enqueueJob, type JobSignal } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import type { Mail, Mailer } from "../mail.ts";
import { type MailSignature, readMailSignature } from "../mail-templates.ts";
import { sealSecret, unsealSecret } from "../secrets.ts";
import {
  confirmEmailMail,
  existingAccountMail,
  magicLinkMail,
  resetPasswordMail,
  signInLockedMail,
} from "./emails.ts";

export const ACCOUNT_MAIL_JOB = "account-mail";

/** A sign-in link by e-mail works once and for this long (the issue allows at most 10 minutes). */
export const MAGIC_LINK_MINUTES = 10;
export const RESET_LINK_MINUTES = 60;
export const CONFIRM_LINK_HOURS = 24;

/** An account e-mail with nothing time-bound in it (a notice) is still worth sending this long after. */
const NOTICE_VALID_MINUTES = 24 * 60;

/** The account e-mails, each with what it needs; the ones with a link carry the link, which is a secret. */
export type AccountMail =
  | { template: "sign-in-link" | "reset-password" | "confirm-email"; to: string; url: string }
  | { template: "existing-account" | "sign-in-locked"; to: string };

const LINK_MINUTES: Record<AccountMail["template"], number> = {
  "sign-in-link": MAGIC_LINK_MINUTES,
  "reset-password": RESET_LINK_MINUTES,
  "confirm-email": CONFIRM_LINK_HOURS * 60,
  "existing-account": NOTICE_VALID_MINUTES,
  "sign-in-locked": NOTICE_VALID_MINUTES,
};

const SEAL_PURPOSE = "account-mail-link";

const accountMailPayload = z.object({
  template: z.enum(["sign-in-link", "reset-password", "confirm-email", "existing-account", "sign-in-locked"]),
  to: z.string(),
  sealedUrl: z.string().optional(),
  notAfter: z.iso.datetime(),
});

/** Queues an account e-mail; it is composed and sent by the job worker. */
export type SendAccountMail = (mail: AccountMail) => void;

/**
 * Account e-mails (confirmation, sign-in link, reset, notices) go through the job queue, as order mails do
 * (docs/decisions/029): a mail server that is away is tried again with backoff, by whichever instance is up,
 * even after a restart. They are queued after the answer, for an address with an account and one without
 * alike, so the answer's timing says nothing about the account (docs/decisions/018); a crash in the moment
 * between the answer and the queue loses that one mail, which the shopper can ask for again.
 *
 * Staff can read the jobs table (the admin's job list), and a sign-in link read there signs in as its owner:
 * the job holds which mail to whom, the link sealed (server/secrets.ts), and the mail is composed only when
 * it is sent (docs/decisions/053). The sealed link is forgotten once the job is settled
 * (`forgetWhenSettled`, server/jobs/job-queue.ts), and a link past its validity is not sent at all.
 */
export function accountMailSender(db: Db, secret: string, jobs: JobSignal): SendAccountMail {
  return (mail) => {
    const notAfter = new Date(Date.now() + LINK_MINUTES[mail.template] * 60_000).toISOString();
    const payload = {
      template: mail.template,
      to: mail.to,
      ...("url" in mail ? { sealedUrl: sealSecret(secret, SEAL_PURPOSE, mail.url) } : {}),
      notAfter,
      forgetWhenSettled: true,
    };
    setImmediate(() => {
      enqueueJob(db, { kind: ACCOUNT_MAIL_JOB, payload })
        .then(() => jobs.wake())
        .catch((error) => log.error({ err: serializeError(error) }, "an account e-mail could not be queued"));
    });
  };
}

/** The mail itself, with the shop's signature as the owner's details stand when it is sent. */
export function composeAccountMail(env: Env, mail: AccountMail, signature: MailSignature): Mail {
  const content = (() => {
    switch (mail.template) {
      case "sign-in-link":
        return magicLinkMail(env, { url: mail.url, minutes: MAGIC_LINK_MINUTES }, signature);
      case "reset-password":
        return resetPasswordMail(env, { url: mail.url, minutes: RESET_LINK_MINUTES }, signature);
      case "confirm-email":
        return confirmEmailMail(env, { url: mail.url, hours: CONFIRM_LINK_HOURS }, signature);
      case "existing-account":
        return existingAccountMail(env, signature);
      case "sign-in-locked":
        return signInLockedMail(env, { minutes: env.AUTH_ACCOUNT_LOCK_MINUTES }, signature);
    }
  })();
  return { to: mail.to, ...content };
}

/**
 * The job worker's side: opens the link, composes the mail and sends it, unless its link expired meanwhile.
 * `deps.env` carries the owner's shop name as it stands now (the job worker reads it before each message).
 */
export async function deliverAccountMail(
  deps: { db: Db; env: Env; mailer: Mailer; secret: string },
  payload: Record<string, unknown>,
) {
  // A failed job queued again by staff: its link was forgotten, and the shopper asks for a new one.
  if (payload.forgotten) return;
  const { template, to, sealedUrl, notAfter } = accountMailPayload.parse(payload);
  if (Date.now() > Date.parse(notAfter)) {
    log.warn({ template }, "account e-mail not sent: its link expired while it waited");
    return;
  }
  const mail = (
    template === "existing-account" || template === "sign-in-locked"
      ? { template, to }
      : { template, to, url: unsealSecret(deps.secret, SEAL_PURPOSE, sealedUrl ?? "") }
  ) satisfies AccountMail;
  await deps.mailer.send(composeAccountMail(deps.env, mail, await readMailSignature(deps.db, deps.env)));
}
