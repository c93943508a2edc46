import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, magicLink, phoneNumber } from "better-auth/plugins";
import { formatMobile } from "../../common/india.ts";
import { mobileAccountEmail } from "../../common/mobile-account.ts";
import {
  MOBILE_CODE_LENGTH,
  MOBILE_CODE_MINUTES,
  MOBILE_CODE_TRIES,
  nationalDigits,
} from "../../common/mobile-sign-in.ts";
import { ACCOUNT_NAME_MAX, accountImageSchema, CONTROL_CHARACTERS } from "../../common/schemas/account.ts";
import type { Db } from "../db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../db/schema.ts";
import type { Env } from "../env.ts";
import type { JobSignal } from "../jobs/job-queue.ts";
import { log, redact, serializeLogArgument } from "../log.ts";
import type { Live } from "../notify/live.ts";
import { resolveAuthSecret } from "../secrets.ts";
import { enqueueSignInCode } from "../sms/sign-in-code-job.ts";
import { forgetPendingLinks, grantAdminByEmail } from "./account-data.ts";
import {
  accountMailSender,
  CONFIRM_LINK_HOURS,
  MAGIC_LINK_MINUTES,
  RESET_LINK_MINUTES,
} from "./account-mail.ts";
import { createAuthHooks } from "./auth-hooks.ts";
import { mobileCodeIdentifier, verifyMobileCode, withHashedCode } from "./mobile-codes.ts";
import { socialProviderConfigs } from "./social-providers.ts";

export type Auth = ReturnType<typeof createAuth>;

/** The sign-in methods a shopper can pick, in the order the buttons show. */
export const SOCIAL_PROVIDERS = [
  { id: "google", name: "Google" },
  { id: "facebook", name: "Facebook" },
  { id: "github", name: "GitHub" },
  { id: "twitter", name: "X (Twitter)" },
] as const;

export type SocialProviderId = (typeof SOCIAL_PROVIDERS)[number]["id"];

/** A provider's button shows only when its client id and secret are both configured (env.ts refuses one alone). */
export function configuredProviders(env: Env) {
  return SOCIAL_PROVIDERS.filter(({ id }) => {
    const key = id.toUpperCase() as Uppercase<SocialProviderId>;
    return Boolean(env[`${key}_CLIENT_ID`] && env[`${key}_CLIENT_SECRET`]);
  });
}

export function createAuth({ db, env, jobs, live }: { db: Db; env: Env; jobs: JobSignal; live: Live }) {
  const secret = resolveAuthSecret(env);
  const publicUrl = (path: string) => new URL(path, env.PUBLIC_URL).toString();
  const limit = (max: number) => ({ window: env.AUTH_RATE_LIMIT_WINDOW, max });
  const sendLater = accountMailSender(db, secret, jobs);

  return betterAuth({
    appName: env.SHOP_NAME,
    baseURL: env.PUBLIC_URL,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [new URL(env.PUBLIC_URL).origin],
    database: drizzleAdapter(db, {
      provider: "pg",
      // Sign-up writes the user and its password account together, or neither.
      transaction: true,
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        rateLimit: rateLimits,
      },
    }),

    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // Sign-up answers the same whether or not the address already has an account (see
      // docs/decisions/005): a new account signs in by confirming its address, the owner of an
      // existing one is told by e-mail.
      requireEmailVerification: true,
      onExistingUserSignUp: async ({ user }) => {
        sendLater({ template: "existing-account", to: user.email });
      },
      resetPasswordTokenExpiresIn: RESET_LINK_MINUTES * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        sendLater({ template: "reset-password", to: user.email, url });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // An unconfirmed account that signs in with the right password gets a fresh link.
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: CONFIRM_LINK_HOURS * 3600,
      sendVerificationEmail: async ({ user, url }) => {
        sendLater({ template: "confirm-email", to: user.email, url });
      },
    },

    account: {
      // A provider that vouches for the e-mail signs in to the account that already has it (whose own
      // address must be confirmed too: Better Auth's requireLocalEmailVerified), instead of a duplicate.
      // Connecting a provider from Settings is done signed in, so its address may differ from the account's.
      accountLinking: { enabled: true, allowDifferentEmails: true },
    },

    plugins: [
      magicLink({
        expiresIn: MAGIC_LINK_MINUTES * 60,
        storeToken: "hashed",
        rateLimit: limit(env.AUTH_RATE_LIMIT_EMAIL),
        sendMagicLink: async ({ email, url }) => {
          // The link opens a page of the shop with a button, not the API itself: mail scanners that
          // fetch every link would otherwise use up the single-use token before the shopper clicks.
          const landing = new URL(url);
          landing.pathname = "/login/email-link/verify";
          sendLater({ template: "sign-in-link", to: email, url: landing.toString() });
        },
      }),
      // Google, Facebook, GitHub and X, each at base URLs tests can point at local fakes.
      genericOAuth({ config: socialProviderConfigs(env) }),
      // Sign-in with a mobile number (docs/decisions/042). The hooks (auth-hooks.ts) take numbers as typed
      // and hand the plugin E.164, refuse its password endpoints, and count codes sent per number and client.
      phoneNumber({
        otpLength: MOBILE_CODE_LENGTH,
        expiresIn: MOBILE_CODE_MINUTES * 60,
        allowedAttempts: MOBILE_CODE_TRIES,
        phoneNumberValidator: (number) => /^\+91[6-9][0-9]{9}$/.test(number),
        // Called after the answer's code row is written, outside any transaction of ours: the SMS is a job,
        // so a provider that is down is retried and never fails the request.
        sendOTP: async ({ phoneNumber: to, code }) => {
          await enqueueSignInCode(db, secret, {
            to,
            code,
            expiresAt: new Date(Date.now() + MOBILE_CODE_MINUTES * 60_000),
          });
          jobs.wake();
        },
        verifyOTP: async ({ phoneNumber: number, code }, ctx) => {
          if (!ctx) return false;
          const row = await ctx.context.internalAdapter.findVerificationValue(mobileCodeIdentifier(number));
          return verifyMobileCode(db, secret, row, code);
        },
        // A number no account has yet makes one: Better Auth needs an e-mail, the shop never mails this one.
        signUpOnVerification: {
          getTempEmail: mobileAccountEmail,
          getTempName: (number) => formatMobile(nationalDigits(number)),
        },
      }),
    ],

    session: {
      // A signed copy of the session and its user in a cookie, trusted without a database read for this long
      // while its label matches what this instance has heard of the user (docs/decisions/069): a sign-out, a
      // password, role or address change, or a deleted account anywhere changes the label within milliseconds.
      cookieCache: {
        enabled: true,
        maxAge: env.SESSION_CACHE_SECONDS,
        strategy: "compact",
        version: (_session, user) => live.sessionVersion(user.id),
      },
    },
    user: {
      additionalFields: {
        // Never settable by the client: roles are granted by ADMIN_EMAILS or `npm run admin`. Without a
        // defaultValue here, a request that sends one is refused (400) instead of silently ignored; the
        // column's own default makes new accounts customers.
        role: { type: "string", required: false, input: false },
      },
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => {
          await forgetPendingLinks(db, user);
        },
      },
    },
    hooks: createAuthHooks({ db, env, sendLater }),
    databaseHooks: {
      verification: {
        create: {
          before: async (row, context) =>
            context?.path === "/phone-number/send-otp" ? { data: withHashedCode(secret, row) } : undefined,
        },
      },
      user: {
        // Names and pictures that arrive from a provider rather than a form (the forms are checked by the
        // hooks above): kept to what the forms accept instead of refusing the sign-in.
        create: { before: async (user) => ({ data: { ...user, ...fitProfile(user) } }) },
        update: { before: async (user) => ({ data: { ...user, ...fitProfile(user) } }) },
      },
      session: {
        create: {
          // Every sign-in method ends in a new session: the one place ADMIN_EMAILS is applied.
          after: async (session, context) => {
            if (await grantAdminByEmail(context?.context.internalAdapter, env, session.userId)) {
              // The copy this sign-in's answer writes carries the user as read before: not to be trusted.
              live.changedHere(session.userId);
            }
          },
        },
      },
    },

    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": limit(env.AUTH_RATE_LIMIT_SIGN_IN),
        "/sign-in/social": limit(env.AUTH_RATE_LIMIT_SIGN_IN),
        "/sign-up/email": limit(env.AUTH_RATE_LIMIT_SIGN_UP),
        "/sign-in/magic-link": limit(env.AUTH_RATE_LIMIT_EMAIL),
        "/request-password-reset": limit(env.AUTH_RATE_LIMIT_EMAIL),
        "/send-verification-email": limit(env.AUTH_RATE_LIMIT_EMAIL),
        "/change-password": limit(env.AUTH_RATE_LIMIT_SIGN_IN),
        "/delete-user": limit(env.AUTH_RATE_LIMIT_SIGN_IN),
        "/phone-number/send-otp": limit(env.AUTH_RATE_LIMIT_EMAIL),
        "/phone-number/verify": limit(env.AUTH_RATE_LIMIT_SIGN_IN),
        // Read on every page load; it proves nothing and needs no limit.
        "/get-session": false,
      },
    },
    verification: {
      // Reset tokens are stored hashed like e-mail link tokens, so a leaked table grants nothing.
      // So are mobile numbers waiting for a code: the table keeps no list of numbers strangers typed.
      storeIdentifier: {
        default: "plain",
        overrides: { "reset-password:": "hashed", "phone-number-otp-": "hashed" },
      },
    },
    // Errors of redirect flows (a provider refusing, an expired state) land on the sign-in page. Anything
    // thrown that is not one of Better Auth's own answers (a database whose connections are cut, inside an
    // endpoint or one of the shop's hooks) goes on to the shop's onError, as on every other path: a 503 in the
    // error shape, where Better Auth would answer a bare 500. Its own answers (a 401 for a wrong password) are
    // still its own.
    onAPIError: { errorURL: publicUrl("/login"), throw: true },
    advanced: {
      useSecureCookies: env.PUBLIC_URL.startsWith("https://"),
      // Better Auth skips origin checks under test runners; the shop is tested as it runs.
      disableOriginCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      // server/auth/client-address.ts puts the connecting address at the end of X-Forwarded-For;
      // with TRUSTED_PROXIES, Better Auth walks that chain past the proxies to the shopper.
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"], trustedProxies: env.TRUSTED_PROXIES },
    },
    // Better Auth logs expected failures ("User not found") as warnings, and addresses at info level.
    logger: {
      level: env.NODE_ENV === "test" ? "error" : "warn",
      // Through the shop's logger: its errors carry failed queries whose parameters are session tokens.
      log: (level, message, ...args) =>
        log[level]({ from: "better-auth", details: args.map(serializeLogArgument) }, redact(message)),
    },
    telemetry: { enabled: false },
  });
}

/** A provider's name on one line and within the length a form allows; its picture only if it is one of ours. */
function fitProfile(user: { name?: unknown; image?: unknown }) {
  const fitted: { name?: string; image?: string | null } = {};
  if (typeof user.name === "string") {
    const oneLine = user.name.replace(new RegExp(`${CONTROL_CHARACTERS.source}+`, "g"), " ").trim();
    fitted.name = Array.from(oneLine).slice(0, ACCOUNT_NAME_MAX).join("") || "Shopper";
  }
  if (user.image !== undefined) {
    fitted.image = accountImageSchema.safeParse(user.image).success ? (user.image as string | null) : null;
  }
  return fitted;
}
