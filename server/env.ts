import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { z } from "zod";

// Empty strings come from blank lines in .env files and CI variables; they mean "not set".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());
const blankIsDefault = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema);

/** A non-negative whole number with a default, e.g. an amount in paise; blank means the default. */
const count = (fallback: number, message = "must be a whole number") =>
  z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.coerce.number().int(message).min(0, "must be 0 or more").default(fallback),
  );

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"),
  ),
  PUBLIC_URL: optional(z.url()),
  BETTER_AUTH_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")),
  MAIL_FROM: optional(z.email()),
  SHOP_NAME: z.string().min(1).default("Prakriti Naturals"),
  SHOP_PHONE: z.string().min(6).default("+91 98765 43210"),
  SHOP_EMAIL: z.email().default("care@prakritinaturals.in"),
  CONTACT_FORWARD_URL: optional(z.url()),
  CONTACT_FORWARD_EMAIL: optional(z.email()),
  // Checkout and orders
  FREE_SHIPPING_MIN_PAISE: count(49_900, "must be whole paise (₹499 is 49900)"),
  SHIPPING_FEE_PAISE: count(4_900, "must be whole paise (₹49 is 4900)"),
  COD_ENABLED: z.preprocess((value) => (value === "" ? undefined : value), z.stringbool().default(true)),
  COD_MAX_ORDER_PAISE: count(500_000, "must be whole paise (₹5,000 is 500000)"),
  /** The first value of the owner's setting: hours a COD order may wait for the shopper's confirmation. */
  COD_CONFIRM_HOURS: blankIsDefault(z.coerce.number().int().min(1).max(720).default(24)),
  // ---- WhatsApp through Meta's Cloud API (docs/decisions/065); without the token and number id, none is sent
  WHATSAPP_ACCESS_TOKEN: optional(z.string().min(1)),
  WHATSAPP_PHONE_NUMBER_ID: optional(z.string().regex(/^\d+$/, "must be the phone number's id (digits)")),
  /** The WhatsApp Business Account's id: only `npm run check:services` reads it, to list the approved templates. */
  WHATSAPP_BUSINESS_ACCOUNT_ID: optional(
    z.string().regex(/^\d+$/, "must be the business account's id (digits)"),
  ),
  /** The Meta app's secret: the webhook's X-Hub-Signature-256 is an HMAC of the body with it. */
  WHATSAPP_APP_SECRET: optional(z.string().min(1)),
  /** The token typed into the app's webhook settings; Meta sends it back when it checks the URL. */
  WHATSAPP_VERIFY_TOKEN: optional(z.string().min(8, "must be at least 8 characters")),
  /** The Graph API version in the path is checked at start (GRAPH_API_UNTIL); tests point it at a local fake. */
  WHATSAPP_API_URL: blankIsDefault(z.url().default("https://graph.facebook.com/v26.0")),
  /** An approved template with the order number, total and delivery town, and Confirm / Cancel quick replies. */
  WHATSAPP_TEMPLATE_COD_CONFIRM: optional(z.string().min(1)),
  /** An approved template with the order number, its news and a link. */
  WHATSAPP_TEMPLATE_ORDER_UPDATE: optional(z.string().min(1)),
  /**
   * An approved MARKETING template for a cart left behind (docs/decisions/096): body {{1}} name, {{2}} the
   * lines, {{3}} the shop; URL buttons <PUBLIC_URL>/cart-back/{{1}} and <PUBLIC_URL>/unsubscribe?{{1}}.
   */
  WHATSAPP_TEMPLATE_CART_REMINDER: optional(z.string().min(1)),
  /** The language the templates were approved in. */
  WHATSAPP_TEMPLATE_LANGUAGE: blankIsDefault(z.string().min(2).default("en")),
  RAZORPAY_KEY_ID: optional(z.string().min(1)),
  RAZORPAY_KEY_SECRET: optional(z.string().min(1)),
  RAZORPAY_WEBHOOK_SECRET: optional(z.string().min(1)),
  RAZORPAY_API_BASE: optional(z.url()).transform((url) => url ?? "https://api.razorpay.com"),
  RAZORPAY_CHECKOUT_URL: optional(z.url()).transform(
    (url) => url ?? "https://checkout.razorpay.com/v1/checkout.js",
  ),
  // ---- Shipping through Shiprocket (docs/decisions/052); without the e-mail and password staff ship by hand
  /** An API user made in Shiprocket's panel (Settings > API), not the owner's own sign-in. */
  SHIPROCKET_EMAIL: optional(z.email()),
  SHIPROCKET_PASSWORD: optional(z.string().min(1)),
  /** The pickup address's name ("nickname") in Shiprocket; parcels are collected from there. */
  SHIPROCKET_PICKUP_LOCATION: optional(z.string().min(1)),
  /** Only tests change it (a local fake). */
  SHIPROCKET_API_BASE: blankIsDefault(z.url().default("https://apiv2.shiprocket.in/v1/external")),
  /** The token Shiprocket sends in x-api-key with each tracking update; without it the webhook answers nothing. */
  SHIPROCKET_WEBHOOK_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
  /** An order paid online that is still unpaid after this long is cancelled (it holds no stock: decision 083). */
  PAYMENT_WINDOW_MINUTES: count(30),
  PAYMENT_HOLD_MINUTES: count(10),
  /** The most units of one product or combo an order waiting for online payment may ask for (decision 050). */
  UNPAID_ORDER_MAX_UNITS: blankIsDefault(z.coerce.number().int().min(1).default(10)),
  LOW_STOCK_THRESHOLD: count(10),
  /** The largest request body the API reads, in bytes; larger ones are refused with 413 while arriving. */
  API_BODY_LIMIT_BYTES: blankIsDefault(
    z.coerce
      .number()
      .int("must be a whole number of bytes")
      .min(1024, "must be at least 1024 bytes")
      .max(100 * 1024 * 1024, "must be at most 104857600 bytes (100 MB)")
      .default(1024 * 1024),
  ),

  // ---- Accounts
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((value, context) => {
      const emails = value
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean);
      for (const email of emails) {
        if (!z.email().safeParse(email).success) {
          context.addIssue({ code: "custom", message: `"${email}" is not an e-mail address` });
        }
      }
      return emails;
    }),
  GOOGLE_CLIENT_ID: optional(z.string()),
  GOOGLE_CLIENT_SECRET: optional(z.string()),
  /** Where Google's OpenID configuration is read from; tests point it at a local OpenID Connect server. */
  GOOGLE_ISSUER: blankIsDefault(z.url().default("https://accounts.google.com")),
  FACEBOOK_CLIENT_ID: optional(z.string()),
  FACEBOOK_CLIENT_SECRET: optional(z.string()),
  GITHUB_CLIENT_ID: optional(z.string()),
  GITHUB_CLIENT_SECRET: optional(z.string()),
  TWITTER_CLIENT_ID: optional(z.string()),
  TWITTER_CLIENT_SECRET: optional(z.string()),
  /** Where each provider's sign-in pages and APIs are; only tests change them (local fakes). */
  FACEBOOK_WEB_BASE: blankIsDefault(z.url().default("https://www.facebook.com")),
  FACEBOOK_GRAPH_BASE: blankIsDefault(z.url().default("https://graph.facebook.com")),
  GITHUB_WEB_BASE: blankIsDefault(z.url().default("https://github.com")),
  GITHUB_API_BASE: blankIsDefault(z.url().default("https://api.github.com")),
  TWITTER_WEB_BASE: blankIsDefault(z.url().default("https://x.com")),
  TWITTER_API_BASE: blankIsDefault(z.url().default("https://api.x.com")),
  /** Attempts per client IP address per AUTH_RATE_LIMIT_WINDOW seconds. */
  /**
   * How long a signed copy of the session in a cookie is trusted without asking the database; changes are
   * heard at once through NOTIFY whatever this is (docs/decisions/069).
   */
  SESSION_CACHE_SECONDS: blankIsDefault(z.coerce.number().int().min(1).max(600).default(60)),
  AUTH_RATE_LIMIT_WINDOW: blankIsDefault(z.coerce.number().int().min(1).default(60)),
  AUTH_RATE_LIMIT_SIGN_IN: blankIsDefault(z.coerce.number().int().min(1).default(5)),
  AUTH_RATE_LIMIT_SIGN_UP: blankIsDefault(z.coerce.number().int().min(1).default(5)),
  AUTH_RATE_LIMIT_EMAIL: blankIsDefault(z.coerce.number().int().min(1).default(3)),
  /**
   * Per e-mail address, whatever the client address (docs/decisions/017): wrong passwords before each further
   * attempt waits (1 s, doubling), wrong passwords that lock password sign-in, and for how long.
   */
  AUTH_ACCOUNT_SLOW_AFTER: blankIsDefault(z.coerce.number().int().min(1).default(5)),
  AUTH_ACCOUNT_LOCK_AFTER: blankIsDefault(z.coerce.number().int().min(1).default(10)),
  AUTH_ACCOUNT_LOCK_MINUTES: blankIsDefault(z.coerce.number().int().min(1).default(15)),
  /** E-mail links, reset and confirmation e-mails, and sign-up mails one address is sent per window. */
  AUTH_EMAIL_PER_ADDRESS: blankIsDefault(z.coerce.number().int().min(1).default(3)),
  AUTH_EMAIL_PER_ADDRESS_MINUTES: blankIsDefault(z.coerce.number().int().min(1).default(15)),
  /**
   * Sign-in with a mobile number (docs/decisions/042): codes sent to one number, and asked for by one client
   * address, per AUTH_SMS_WINDOW_MINUTES, whichever instance is asked.
   */
  AUTH_SMS_PER_NUMBER: blankIsDefault(z.coerce.number().int().min(1).default(3)),
  AUTH_SMS_PER_CLIENT: blankIsDefault(z.coerce.number().int().min(1).default(10)),
  AUTH_SMS_WINDOW_MINUTES: blankIsDefault(z.coerce.number().int().min(1).default(15)),
  /**
   * Orders placed without an account (docs/decisions/050), per GUEST_ORDER_WINDOW_MINUTES, whichever instance
   * is asked: by one client IP address (generous, since a mobile carrier puts many shoppers behind one), and
   * with one e-mail or one mobile. Wrong guest-order links one client may try per window.
   */
  GUEST_ORDER_PER_CLIENT: blankIsDefault(z.coerce.number().int().min(1).default(10)),
  GUEST_ORDER_PER_CONTACT: blankIsDefault(z.coerce.number().int().min(1).default(5)),
  GUEST_ORDER_WINDOW_MINUTES: blankIsDefault(z.coerce.number().int().min(1).default(60)),
  GUEST_ORDER_LINK_MISSES_PER_CLIENT: blankIsDefault(z.coerce.number().int().min(1).default(20)),
  /**
   * Cart streams (GET /api/cart/events, one per visible tab) one client address may hold open on one instance at
   * once: each is an open socket, and a process may open only so many files (systemd's default is 1,024).
   */
  STREAMS_PER_CLIENT: blankIsDefault(z.coerce.number().int().min(1).default(32)),
  /**
   * Sign-in codes the whole shop sends per hour, across instances: each SMS is paid for, and many numbers
   * from many addresses would pass the allowances above. Past it, codes are refused (503) until the hour ends.
   */
  SMS_MAX_PER_HOUR: blankIsDefault(z.coerce.number().int().min(1).default(500)),
  // ---- SMS: MSG91 or Twilio; without either, codes are logged and written to DATA_DIR/sms/ (development only)
  MSG91_AUTH_KEY: optional(z.string().min(1)),
  /** The DLT-approved Flow template whose `##otp##` variable carries the code. */
  MSG91_TEMPLATE_ID: optional(z.string().min(1)),
  /** A second DLT template for order notices to accounts without e-mail: ##number##, ##status##, ##link##. */
  MSG91_ORDER_TEMPLATE_ID: optional(z.string().min(1)),
  MSG91_API_BASE: blankIsDefault(z.url().default("https://control.msg91.com")),
  TWILIO_ACCOUNT_SID: optional(
    z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must be AC followed by 32 hex digits"),
  ),
  TWILIO_AUTH_TOKEN: optional(z.string().min(1)),
  /** The sender: a Twilio number in E.164 (+1...), an alphanumeric sender id, or a Messaging Service (MG...). */
  TWILIO_FROM: optional(z.string().min(1)),
  TWILIO_API_BASE: blankIsDefault(z.url().default("https://api.twilio.com")),
  /**
   * India's DLT registration, required with Twilio (README, "SMS to Indian numbers"): the brand's principal
   * entity (PE) id and the ids of the two content templates the shop's texts match. Twilio's Messages API takes
   * no DLT parameter; the ids go to Twilio on its India sender ID registration form.
   */
  TWILIO_DLT_ENTITY_ID: optional(z.string().regex(/^\d+$/, "must be the DLT entity (PE) id: digits only")),
  TWILIO_DLT_SIGN_IN_TEMPLATE_ID: optional(
    z.string().regex(/^\d+$/, "must be a DLT template id: digits only"),
  ),
  TWILIO_DLT_ORDER_TEMPLATE_ID: optional(z.string().regex(/^\d+$/, "must be a DLT template id: digits only")),
  // ---- Operations
  /** Connections each instance keeps to PostgreSQL at most. */
  DB_POOL_MAX: blankIsDefault(z.coerce.number().int().min(2).default(10)),
  /**
   * How long a database connection nobody uses stays open: a kept one has the order triggers compiled and their
   * plans made, so a sale after a quiet spell does not start on cold connections.
   */
  DB_IDLE_TIMEOUT_MS: blankIsDefault(z.coerce.number().int().min(1_000).default(300_000)),
  /** Longest wait for a database connection before the request is answered 503. */
  DB_CONNECT_TIMEOUT_MS: blankIsDefault(z.coerce.number().int().min(100).default(5_000)),
  /** Longest a statement may run; a database that does not answer (frozen) is given up 2 s later. */
  DB_STATEMENT_TIMEOUT_MS: blankIsDefault(z.coerce.number().int().min(100).default(5_000)),
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish before the process exits. */
  SHUTDOWN_GRACE_MS: blankIsDefault(z.coerce.number().int().min(0).default(10_000)),
  /**
   * Worker processes sharing PORT through node:cluster (docs/decisions/073): a number, or "auto" for one per core.
   * 1 runs the shop as one process, without a cluster.
   */
  SHOP_WORKERS: blankIsDefault(z.string().default("1")).transform((value, context) => {
    if (value === "auto") return availableParallelism();
    if (/^[1-9][0-9]{0,2}$/.test(value)) return Number(value);
    context.addIssue({
      code: "custom",
      message: `must be a whole number of worker processes (1 or more) or "auto" (one per core), not "${value}"`,
    });
    return z.NEVER;
  }),
  /** How often each instance's job worker looks for due jobs (a job queued by this instance wakes it at once). */
  JOB_POLL_MS: blankIsDefault(z.coerce.number().int().min(10).default(1_000)),
  /** Wait before a failed job's second try; each further try waits twice as long (5 tries in all). */
  JOB_RETRY_BASE_MS: blankIsDefault(z.coerce.number().int().min(1).default(30_000)),
  /** Bearer token for GET /metrics; unset, /metrics does not exist (404). */
  METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
  /** Reverse proxies in front of the shop (IPs or CIDR ranges) whose X-Forwarded-For is believed. */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value, context) => {
      const entries = value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const entry of entries) {
        const [address = "", prefix] = entry.split("/");
        const family = isIP(address);
        const validPrefix =
          prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
        if (!family || !validPrefix) {
          context.addIssue({ code: "custom", message: `"${entry}" is not an IP address or CIDR range` });
        }
      }
      return entries;
    }),
});

export type Env = z.infer<typeof envSchema> & { PUBLIC_URL: string };

// A shop on its own PostgreSQL server is a production shop: its cookie-signing secret must be configured,
// never generated into a data folder that a second instance would not share.
const productionRules = envSchema.superRefine((env, context) => {
  if (env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
    context.addIssue({
      code: "custom",
      path: ["BETTER_AUTH_SECRET"],
      message: "required when DATABASE_URL is set (32+ random characters, e.g. `openssl rand -base64 32`)",
    });
  }
  if (Boolean(env.RAZORPAY_KEY_ID) !== Boolean(env.RAZORPAY_KEY_SECRET)) {
    context.addIssue({
      code: "custom",
      path: [env.RAZORPAY_KEY_ID ? "RAZORPAY_KEY_SECRET" : "RAZORPAY_KEY_ID"],
      message: "set both RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET, or neither",
    });
  }
  // Half a Shiprocket account would offer "Book shipment" that can only fail.
  const shiprocket = [env.SHIPROCKET_EMAIL, env.SHIPROCKET_PASSWORD, env.SHIPROCKET_PICKUP_LOCATION];
  if (shiprocket.some(Boolean) && !shiprocket.every(Boolean)) {
    const names = ["SHIPROCKET_EMAIL", "SHIPROCKET_PASSWORD", "SHIPROCKET_PICKUP_LOCATION"];
    const missing = names.filter((_, i) => !shiprocket[i]);
    context.addIssue({
      code: "custom",
      path: [missing[0] ?? "SHIPROCKET_EMAIL"],
      message: `set SHIPROCKET_EMAIL, SHIPROCKET_PASSWORD and SHIPROCKET_PICKUP_LOCATION together (missing ${missing.join(", ")})`,
    });
  }
  // WhatsApp sends with the token and the number's id together; a half pair would queue messages that fail.
  if (Boolean(env.WHATSAPP_ACCESS_TOKEN) !== Boolean(env.WHATSAPP_PHONE_NUMBER_ID)) {
    context.addIssue({
      code: "custom",
      path: [env.WHATSAPP_ACCESS_TOKEN ? "WHATSAPP_PHONE_NUMBER_ID" : "WHATSAPP_ACCESS_TOKEN"],
      message: "set both WHATSAPP_ACCESS_TOKEN and WHATSAPP_PHONE_NUMBER_ID, or neither",
    });
  }
  // A Graph API version Meta no longer serves fails every message; refused at start (docs/decisions/078).
  const graph = /\/v(\d+)\.\d+(\/|$)/.exec(env.WHATSAPP_API_URL);
  if (env.WHATSAPP_ACCESS_TOKEN && graph) {
    const version = Number(graph[1]);
    const until = GRAPH_API_UNTIL[version];
    if (version < OLDEST_GRAPH_API || (until && new Date(`${until}T00:00:00Z`) <= new Date())) {
      context.addIssue({
        code: "custom",
        path: ["WHATSAPP_API_URL"],
        message: `Graph API v${version}.0 is no longer served by Meta${until ? ` (only until ${until})` : ""}; use https://graph.facebook.com/v${CURRENT_GRAPH_API}.0`,
      });
    }
  }
  // One SMS provider, wholly configured, or none.
  const msg91 = [env.MSG91_AUTH_KEY, env.MSG91_TEMPLATE_ID];
  const twilio = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM];
  if (msg91.some(Boolean) && twilio.some(Boolean)) {
    context.addIssue({
      code: "custom",
      path: ["MSG91_AUTH_KEY"],
      message: "configure one SMS provider: MSG91_* or TWILIO_*, not both",
    });
  } else if (msg91.some(Boolean) && !msg91.every(Boolean)) {
    context.addIssue({
      code: "custom",
      path: [env.MSG91_AUTH_KEY ? "MSG91_TEMPLATE_ID" : "MSG91_AUTH_KEY"],
      message: "set both MSG91_AUTH_KEY and MSG91_TEMPLATE_ID, or neither",
    });
  } else if (twilio.some(Boolean) && !twilio.every(Boolean)) {
    const missing = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"].filter((_, i) => !twilio[i]);
    context.addIssue({
      code: "custom",
      path: [missing[0] ?? "TWILIO_ACCOUNT_SID"],
      message: `set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM together (missing ${missing.join(", ")})`,
    });
  } else if (twilio.every(Boolean)) {
    for (const issue of twilioDltIssues(env)) context.addIssue({ code: "custom", ...issue });
  }
  // A half-configured provider would show a button that can only fail.
  for (const provider of ["GOOGLE", "FACEBOOK", "GITHUB", "TWITTER"] as const) {
    const id = env[`${provider}_CLIENT_ID`];
    const secret = env[`${provider}_CLIENT_SECRET`];
    if (Boolean(id) !== Boolean(secret)) {
      const missing = id ? `${provider}_CLIENT_SECRET` : `${provider}_CLIENT_ID`;
      context.addIssue({
        code: "custom",
        path: [missing],
        message: `required when ${id ? `${provider}_CLIENT_ID` : `${provider}_CLIENT_SECRET`} is set`,
      });
    }
  }
});

/**
 * What Twilio lacks to reach Indian numbers under TRAI's DLT rules. Indian operators deliver only messages from
 * a DLT-registered sender header whose text matches a DLT-registered template; Twilio carries them once the
 * header, entity id and templates are registered with it (its India sender ID registration), and overwrites a
 * numeric sender with a random short code (twilio.com/guidelines/in/sms), so a phone number cannot be the sender.
 */
export function twilioDltIssues(env: {
  TWILIO_FROM?: string | undefined;
  TWILIO_DLT_ENTITY_ID?: string | undefined;
  TWILIO_DLT_SIGN_IN_TEMPLATE_ID?: string | undefined;
  TWILIO_DLT_ORDER_TEMPLATE_ID?: string | undefined;
}): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const names = [
    "TWILIO_DLT_ENTITY_ID",
    "TWILIO_DLT_SIGN_IN_TEMPLATE_ID",
    "TWILIO_DLT_ORDER_TEMPLATE_ID",
  ] as const;
  const missing = names.filter((name) => !env[name]);
  if (missing.length) {
    issues.push({
      path: [missing[0] ?? "TWILIO_DLT_ENTITY_ID"],
      message: `Twilio SMS to Indian numbers need the brand's DLT registration: set ${missing.join(", ")} (README, "SMS to Indian numbers")`,
    });
  }
  const from = env.TWILIO_FROM ?? "";
  if (from && !/^MG[0-9a-fA-F]{32}$/.test(from) && !/^[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*$/.test(from)) {
    issues.push({
      path: ["TWILIO_FROM"],
      message:
        "must be the DLT-registered sender header (letters, e.g. PRKRTI) or a Messaging Service (MG...) holding it: Twilio replaces a number with a random short code on Indian phones",
    });
  }
  return issues;
}

/** Parses the environment once; a bad value yields a readable list instead of a stack trace. */
/**
 * The Graph API versions Meta serves and until when, from its changelog
 * (developers.facebook.com/docs/graph-api/changelog/versions, read November 2026); v26.0, the current one,
 * has no end date yet.
 */
export const GRAPH_API_UNTIL: Record<number, string> = {
  20: "2026-09-24",
  21: "2027-01-21",
  22: "2027-05-20",
  23: "2027-10-08",
  24: "2028-02-18",
  25: "2028-07-29",
};
const OLDEST_GRAPH_API = 20;
export const CURRENT_GRAPH_API = 26;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = productionRules.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const env = result.data;
  return { ...env, PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` };
}
