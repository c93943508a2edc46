import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Db } from "../db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "../db/schema.ts";
import type { Env } from "../env.ts";
import type { Mailer } from "../mail.ts";
import { resolveAuthSecret } from "../secrets.ts";

export type Auth = ReturnType<typeof createAuth>;

export function createAuth({ db, env }: { db: Db; env: Env; mailer: Mailer }) {
  return betterAuth({
    appName: env.SHOP_NAME,
    baseURL: env.PUBLIC_URL,
    basePath: "/api/auth",
    secret: resolveAuthSecret(env),
    trustedOrigins: [new URL(env.PUBLIC_URL).origin],
    database: drizzleAdapter(db, {
      provider: "pg",
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
    },
    user: {
      additionalFields: {
        // Never settable by the client: roles are granted by ADMIN_EMAILS or `npm run admin`.
        role: { type: "string", required: false, defaultValue: "customer", input: false },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
    },
    advanced: {
      useSecureCookies: env.PUBLIC_URL.startsWith("https://"),
      // Better Auth skips origin checks under test runners; the shop is tested as it runs.
      disableOriginCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    telemetry: { enabled: false },
  });
}
