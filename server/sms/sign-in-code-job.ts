import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { MOBILE_CODE_MINUTES } from "../../common/mobile-sign-in.ts";
import type { Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log } from "../log.ts";
import type { SmsSender } from "./sms-sender.ts";

export const SIGN_IN_CODE_JOB = "sms-sign-in-code";

/**
 * The job row keeps the code sealed (AES-256-GCM under a key derived from the auth secret): the code is
 * stored hashed where it is checked, and a jobs table kept for a week must not hold it in the clear either.
 */
const sealKey = (secret: string) => createHash("sha256").update(`sms-sign-in-code:${secret}`).digest();

function seal(secret: string, code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(code, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

function unseal(secret: string, text: string): string {
  const [iv = "", tag = "", sealed = ""] = text.split(".");
  const decipher = createDecipheriv("aes-256-gcm", sealKey(secret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}

/** Queues the SMS carrying a sign-in code; it is sent by the job worker, and retried while the code is valid. */
export async function enqueueSignInCode(
  db: Db,
  secret: string,
  sms: { to: string; code: string; expiresAt: Date },
): Promise<void> {
  await enqueueJob(db, {
    kind: SIGN_IN_CODE_JOB,
    payload: { to: sms.to, sealedCode: seal(secret, sms.code), expiresAt: sms.expiresAt.toISOString() },
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
  const code = unseal(deps.secret, String(payload.sealedCode));
  await deps.sms.send({ to, code, text: signInCodeText(deps.env, code) });
}
