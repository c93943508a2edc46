import { MOBILE_CODE_MINUTES } from "../../common/mobile-sign-in.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import { sealSecret, unsealSecret } from "../secrets.ts";
import type { SmsSender } from "./sms-sender.ts";

export const SIGN_IN_CODE_JOB = "sms-sign-in-code";

/**
 * The job row keeps the code sealed (server/secrets.ts): the code is stored hashed where it is checked, and a
 * jobs table kept for a week must not hold it in the clear either.
 */
const SEAL_PURPOSE = "sms-sign-in-code";

/** Queues the SMS carrying a sign-in code; it is sent by the job worker, and retried while the code is valid. */
export async function enqueueSignInCode(
  db: Db,
  secret: string,
  sms: { to: string; code: string; expiresAt: Date },
): Promise<void> {
  await enqueueJob(db, {
    kind: SIGN_IN_CODE_JOB,
    payload: {
      to: sms.to,
      sealedCode: sealSecret(secret, SEAL_PURPOSE, sms.code),
      expiresAt: sms.expiresAt.toISOString(),
    },
  });
}

export function signInCodeText(env: Env, code: string) {
  return `${code} is your ${env.SHOP_NAME} sign-in code. It works for ${MOBILE_CODE_MINUTES} minutes. Never share it: we will never ask for it.`;
}

/** Sends a queued code; one that has expired meanwhile is not sent (the shopper has asked for another). */
export async function deliverSignInCode(
  deps: { env: Env; sms: SmsSender; secret: string },
  payload: Record<string, unknown>,
): Promise<void> {
  const to = String(payload.to);
  if (Date.parse(String(payload.expiresAt)) <= Date.now()) {
    log.warn(
      { provider: deps.sms.provider },
      "a sign-in code expired before its SMS could be sent; not sent",
    );
    return;
  }
  const code = unsealSecret(deps.secret, SEAL_PURPOSE, String(payload.sealedCode));
  await deps.sms.send({ to, code, text: signInCodeText(deps.env, code) });
}
