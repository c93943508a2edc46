import { randomBytes } from "node:crypto";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { isMobileAccountEmail } from "../../common/mobile-account.ts";
import { MOBILE_CODE_LENGTH, toE164Mobile } from "../../common/mobile-sign-in.ts";
import { accountImageSchema, accountNameSchema } from "../../common/schemas/account.ts";
import type { Db } from "../db/client.ts";
import { verifications } from "../db/schema.ts";
import type { Env } from "../env.ts";
import { log, serializeError } from "../log.ts";
import { mobileSignInAvailable } from "../sms/sms-sender.ts";
import {
  forgetOldThrottles,
  MINUTE_MS,
  type ThrottleDecision,
  takeAllowance,
} from "../throttles/throttle.ts";
import type { SendAccountMail } from "./account-mail.ts";
import { clientAddressFromChain } from "./client-address.ts";
import { refuseForeignTargets } from "./redirect-check.ts";
import {
  clearSignInAttempts,
  lockAfterFailure,
  type MailKind,
  normaliseEmail,
  takeMailAllowance,
  takeSignInAttempt,
} from "./throttles.ts";

type HookDeps = {
  db: Db;
  env: Env;
  /** Sends a mail off the request path (server/auth/account-mail.ts). */
  sendLater: SendAccountMail;
};

/** The endpoints that send one address an e-mail, and whose allowance each uses. */
const MAIL_KINDS: Record<string, MailKind> = {
  "/sign-in/magic-link": "sign-in-link",
  "/request-password-reset": "reset",
  "/send-verification-email": "confirm",
  // A sign-up mails the address a confirmation link, or "you already have an account".
  "/sign-up/email": "confirm",
};

/** The mobile endpoints the shop uses and the fields each takes; the plugin's others are refused. */
const MOBILE_FIELDS: Record<string, string[]> = {
  "/phone-number/send-otp": ["phoneNumber"],
  // updatePhoneNumber: a signed-in shopper adds a proved number to their account.
  "/phone-number/verify": ["phoneNumber", "code", "updatePhoneNumber"],
};

/** The one answer to a sign-up, whether or not the address has an account (docs/decisions/005). */
export const SIGN_UP_ANSWER = { status: true } as const;

const bodyOf = (ctx: { body?: unknown }): Record<string, unknown> =>
  ctx.body && typeof ctx.body === "object" && !Array.isArray(ctx.body)
    ? (ctx.body as Record<string, unknown>)
    : {};

/**
 * A refusal in Better Auth's own error shape. Answered by the hook rather than thrown: Better Auth logs every
 * error thrown from a hook as a server error, and these are the client's.
 */
function refusal(
  status: 400 | 404 | 429 | 503,
  body: { code: string; message: string },
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

function refuseUnlessValid(schema: z.ZodType, value: unknown, code: string): Response | null {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? null
    : refusal(400, { code, message: parsed.error.issues[0]?.message ?? "Invalid value." });
}

function refuseUnlessAllowed(decision: ThrottleDecision, code: string, message: string): Response | null {
  return decision.allowed
    ? null
    : refusal(429, { code, message }, { "X-Retry-After": String(decision.retryAfterSeconds) });
}

const hasToken = (value: unknown): value is Record<string, unknown> =>
  Boolean(value && typeof value === "object" && "token" in value);
const strip = (value: unknown) => {
  if (!hasToken(value)) return value;
  const { token: _token, ...rest } = value;
  return rest;
};

/**
 * Session tokens are the cookie's business: no JSON answer carries one (get-session, list-sessions, sign-in,
 * change-password ...). Null when the answer has none, so it is passed on untouched.
 */
function withoutTokens(returned: unknown): unknown {
  if (Array.isArray(returned)) return returned.some(hasToken) ? returned.map(strip) : null;
  if (!returned || typeof returned !== "object" || returned instanceof Response) return null;
  const session = (returned as { session?: unknown }).session;
  if (!hasToken(returned) && !hasToken(session)) return null;
  const top = strip(returned) as Record<string, unknown>;
  return hasToken(session) ? { ...top, session: strip(session) } : top;
}

/**
 * Rules Better Auth does not have, applied to its own endpoints (and to auth.api calls, which run the same
 * hooks): account names and pictures, throttles per e-mail address, one sign-up answer, no session tokens in
 * answers, and a password change that always ends the other sessions.
 */
export function createAuthHooks({ db, env, sendLater }: HookDeps) {
  const publicOrigin = new URL(env.PUBLIC_URL).origin;
  const before = createAuthMiddleware(async (ctx) => {
    refuseForeignTargets(ctx, publicOrigin);
    const body = bodyOf(ctx);
    const email = typeof body.email === "string" ? body.email : null;

    // The phone-number plugin's own hook reads `"phoneNumber" in body` here and fails (500) on a missing body.
    if (ctx.path === "/update-user" && (!ctx.body || typeof ctx.body !== "object")) {
      return refusal(400, { code: "INVALID_BODY", message: "The request needs a JSON object body." });
    }

    for (const typed of [body.email, body.newEmail]) {
      if (typeof typed === "string" && isMobileAccountEmail(typed)) {
        return refusal(400, { code: "INVALID_EMAIL", message: "Please enter a valid e-mail address." });
      }
    }

    if (ctx.path.startsWith("/phone-number/") || ctx.path === "/sign-in/phone-number") {
      const refused = await checkMobileRequest(ctx, body);
      if (refused) return refused;
      return { context: { body: { ...body, phoneNumber: toE164Mobile(String(body.phoneNumber)) } } };
    }

    if (ctx.path === "/sign-up/email" || ctx.path === "/update-user") {
      const badName =
        (ctx.path === "/sign-up/email" || "name" in body) &&
        refuseUnlessValid(accountNameSchema, body.name, "INVALID_NAME");
      const badImage = "image" in body && refuseUnlessValid(accountImageSchema, body.image, "INVALID_IMAGE");
      if (badName || badImage) return badName || badImage;
    }

    // Rows of finished throttles are cleared now and then, by whichever request comes along, except the
    // session read every page load makes: answered from the cookie's copy, it touches no database (decision 069).
    if (ctx.path !== "/get-session" && Math.random() < 0.01) {
      forgetOldThrottles(db).catch((error) =>
        log.error({ err: serializeError(error) }, "clearing old sign-in throttles failed"),
      );
    }

    const mailKind = MAIL_KINDS[ctx.path];
    if (mailKind && email) {
      const refused = refuseUnlessAllowed(
        await takeMailAllowance(db, env, mailKind, email),
        "TOO_MANY_EMAILS",
        "Too many e-mails were asked for this address. Please try again later.",
      );
      if (refused) return refused;
    }

    if (ctx.path === "/sign-in/email" && email) {
      const refused = refuseUnlessAllowed(
        await takeSignInAttempt(db, env, email),
        "SIGN_IN_PAUSED",
        "Too many attempts for this address. Please try again later, or sign in with an e-mail link.",
      );
      if (refused) return refused;
    }

    // A new password is chosen because the old one may be known to someone else: every other session ends,
    // whatever the client asked for.
    if (ctx.path === "/change-password") {
      return { context: { body: { ...body, revokeOtherSessions: true } } };
    }
  });

  /**
   * Sign-in with a mobile: only the code endpoints, bodies with the plugin's fields and nothing else, an Indian
   * mobile, and codes sent within the allowances per client address and per number (docs/decisions/042).
   * Its password endpoints are refused: they would try passwords past the per-address throttle above.
   */
  async function checkMobileRequest(
    ctx: { path: string; request?: Request; headers?: Headers },
    body: Record<string, unknown>,
  ): Promise<Response | null> {
    const fields = MOBILE_FIELDS[ctx.path];
    if (!fields || !mobileSignInAvailable(env)) {
      return refusal(404, { code: "NOT_FOUND", message: "There is no such sign-in page." });
    }
    const extra = Object.keys(body).find((key) => !fields.includes(key));
    if (extra)
      return refusal(400, { code: "UNKNOWN_FIELD", message: `${extra}: this field is not accepted.` });
    if (typeof body.phoneNumber !== "string" || !toE164Mobile(body.phoneNumber)) {
      return refusal(400, {
        code: "INVALID_PHONE_NUMBER",
        message: "phoneNumber: enter a 10-digit Indian mobile number, starting with 6, 7, 8 or 9.",
      });
    }
    if (ctx.path === "/phone-number/verify") {
      if (typeof body.code !== "string" || !new RegExp(`^[0-9]{${MOBILE_CODE_LENGTH}}$`).test(body.code)) {
        return refusal(400, {
          code: "INVALID_OTP_FORMAT",
          message: `code: enter the ${MOBILE_CODE_LENGTH}-digit code from the SMS.`,
        });
      }
      if ("updatePhoneNumber" in body && typeof body.updatePhoneNumber !== "boolean") {
        return refusal(400, { code: "INVALID_BODY", message: "updatePhoneNumber: must be true or false." });
      }
      return null;
    }
    const number = toE164Mobile(body.phoneNumber) ?? "";
    const forwarded = ctx.headers?.get("x-forwarded-for") ?? ctx.request?.headers.get("x-forwarded-for");
    const client = clientAddressFromChain(forwarded, env) ?? "unknown";
    const windowMs = env.AUTH_SMS_WINDOW_MINUTES * MINUTE_MS;
    return (
      refuseUnlessAllowed(
        await takeAllowance(db, `sms:client:${client}`, env.AUTH_SMS_PER_CLIENT, windowMs),
        "TOO_MANY_SMS",
        "Too many codes were asked for from this network. Please try again later.",
      ) ??
      refuseUnlessAllowed(
        await takeAllowance(db, `sms:number:${number}`, env.AUTH_SMS_PER_NUMBER, windowMs),
        "TOO_MANY_SMS",
        "Too many codes were sent to this number. Please check your messages, or try again later.",
      ) ??
      // Last, so a request the allowances above refuse does not use up the shop's hour.
      refuseOverShopCap(await takeAllowance(db, "sms:shop:all", env.SMS_MAX_PER_HOUR, 60 * MINUTE_MS))
    );
  }

  /** When the shop last logged that its hourly cap was reached: once a minute per instance is enough. */
  let capWarnedAt = 0;

  /**
   * The shop's hourly cap on sign-in codes: a 503, since it is no fault of this shopper's, with the hour's
   * end as Retry-After. The owner learns of it from the log (many numbers asked for at once is an attack on
   * the SMS bill, or a shop busier than the cap was set for).
   */
  function refuseOverShopCap(decision: ThrottleDecision): Response | null {
    if (decision.allowed) return null;
    if (Date.now() - capWarnedAt > 60_000) {
      capWarnedAt = Date.now();
      log.warn(
        { cap: env.SMS_MAX_PER_HOUR, retryAfterSeconds: decision.retryAfterSeconds },
        "the shop's hourly cap on sign-in codes by SMS is reached: codes are refused until the hour ends (SMS_MAX_PER_HOUR)",
      );
    }
    const wait = String(decision.retryAfterSeconds);
    return refusal(
      503,
      {
        code: "SMS_PAUSED",
        message: "Codes by SMS are paused for a while. Please sign in with your e-mail, or try again later.",
      },
      { "Retry-After": wait, "X-Retry-After": wait },
    );
  }

  const after = createAuthMiddleware(async (ctx) => {
    const returned = ctx.context.returned;
    const failed = isAPIError(returned);

    if (ctx.path === "/sign-in/email") {
      const email = bodyOf(ctx).email;
      if (typeof email === "string") await afterPasswordAttempt(email, returned);
    }
    if (failed) return;
    if (ctx.path === "/sign-up/email") return ctx.json(SIGN_UP_ANSWER);
    if (ctx.path === "/request-password-reset") await writeDecoyResetToken();
    const stripped = withoutTokens(returned);
    if (stripped) return ctx.json(stripped);

    /**
     * Better Auth writes a reset token only for an address with an account, and only reads for one without:
     * the one write is what a clock could tell apart (docs/decisions/018). An address without an account gets
     * a token row too, already expired, for no user, removed after the answer.
     */
    async function writeDecoyResetToken() {
      const email = bodyOf(ctx).email;
      if (typeof email !== "string") return;
      if (await ctx.context.internalAdapter.findUserByEmail(normaliseEmail(email))) return;
      const decoy = await ctx.context.internalAdapter.createVerificationValue({
        identifier: `reset-password:${randomBytes(18).toString("base64url")}`,
        value: "",
        expiresAt: new Date(),
      });
      setImmediate(() => {
        db.delete(verifications)
          .where(eq(verifications.id, decoy.id))
          .catch((error) => log.error({ err: serializeError(error) }, "removing a decoy reset token failed"));
      });
    }

    async function afterPasswordAttempt(email: string, outcome: unknown) {
      const wrongPassword = isAPIError(outcome) && outcome.statusCode === 401;
      // The right password of an address not yet confirmed counts as right: the password is not being guessed.
      const rightPassword =
        !isAPIError(outcome) || (outcome.statusCode === 403 && outcome.body?.code === "EMAIL_NOT_VERIFIED");
      if (rightPassword) await clearSignInAttempts(db, email);
      if (!wrongPassword || !(await lockAfterFailure(db, env, email))) return;
      const owner = await ctx.context.internalAdapter.findUserByEmail(normaliseEmail(email));
      if (owner) {
        sendLater({ template: "sign-in-locked", to: owner.user.email });
      }
    }
  });

  return { before, after };
}
