import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../env.ts";

/** One sign-in code for one number; `text` is the whole message where the provider sends free text. */
export type SmsCode = { to: string; code: string; text: string };
/**
 * A short notice (an order placed, shipped or cancelled) to an account that has no e-mail: the free text, and
 * its variables for a provider that sends only registered templates.
 */
export type SmsNotice = { to: string; text: string; vars: { number: string; status: string; link: string } };
export type SmsSender = {
  provider: "msg91" | "twilio" | "file";
  send: (sms: SmsCode) => Promise<void>;
  /**
   * False when the notice cannot be sent: MSG91 sends only DLT-registered templates, and without
   * MSG91_ORDER_TEMPLATE_ID the shop has one for sign-in codes only (docs/decisions/045).
   */
  sendNotice: (notice: SmsNotice) => Promise<boolean>;
};

/**
 * The two texts the shop sends through Twilio, in the form a brand registers them on its DLT portal ({#var#} for
 * each variable part). Indian operators deliver a message only when its text matches a template registered for
 * its sender header, so the shop sends nothing else through Twilio; each has its template id in the env.
 */
export const TWILIO_DLT_TEMPLATES = {
  signIn: {
    idVariable: "TWILIO_DLT_SIGN_IN_TEMPLATE_ID",
    text: "{#var#} is your {#var#} sign-in code. It works for {#var#} minutes. Never share it: we will never ask for it.",
  },
  orderNotice: {
    idVariable: "TWILIO_DLT_ORDER_TEMPLATE_ID",
    text: "{#var#}: order {#var#} is {#var#}. See it: {#var#}",
  },
} as const;
export type TwilioDltTemplate = keyof typeof TWILIO_DLT_TEMPLATES;

/** The template with each {#var#} filled in turn. */
export const fillDltTemplate = (template: string, values: string[]) => {
  let next = 0;
  return template.replace(/\{#var#\}/g, () => values[next++] ?? "");
};

/** Which registered template a text matches, if any: the literal parts exactly, each variable non-empty. */
export function matchDltTemplate(text: string): TwilioDltTemplate | null {
  for (const [name, template] of Object.entries(TWILIO_DLT_TEMPLATES)) {
    const pattern = template.text
      .split("{#var#}")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".+");
    if (new RegExp(`^${pattern}$`, "s").test(text)) return name as TwilioDltTemplate;
  }
  return null;
}

/**
 * A number as the providers take it, in E.164: an order's delivery phone is stored as ten digits (9876543210),
 * which Twilio refuses (21211) and MSG91 cannot route without its country code.
 */
export function e164(to: string) {
  const digits = to.replace(/\D/g, "");
  if (/^[6-9]\d{9}$/.test(digits)) return `+91${digits}`;
  if (/^0[6-9]\d{9}$/.test(digits)) return `+91${digits.slice(1)}`;
  return to.startsWith("+") ? to : `+${digits}`;
}

/** A provider that does not answer in this time has failed this try; the job tries again later. */
const PROVIDER_TIMEOUT_MS = 10_000;

/** The SMS provider env.ts accepted: MSG91, Twilio, or none. */
export function smsProvider(env: Env): "msg91" | "twilio" | null {
  if (env.MSG91_AUTH_KEY && env.MSG91_TEMPLATE_ID) return "msg91";
  if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM) return "twilio";
  return null;
}

/**
 * Whether an order notice (the COD question among them) can reach a shopper's phone: Twilio sends its DLT order
 * template, * MSG91 only with its order template; without a provider notices are only written to DATA_DIR/sms/.
 */
export const smsReachesShoppers = (env: Env) => {
  const provider = smsProvider(env);
  return provider === "twilio" || (provider === "msg91" && Boolean(env.MSG91_ORDER_TEMPLATE_ID));
};

/**
 * Sign-in with a mobile is offered when codes can reach a phone, or in development, where they are written to
 * DATA_DIR/sms/ (a shop in production without a provider would show a button that sends nothing).
 */
export const mobileSignInAvailable = (env: Env) =>
  smsProvider(env) !== null || env.NODE_ENV === "development";

/** Throws when the provider refuses or cannot be reached, so the job is retried; errors never carry the code. */
export function createSmsSender(env: Env): SmsSender {
  const provider = smsProvider(env);
  if (provider === "msg91") {
    return {
      provider,
      send: (sms) => sendWithMsg91(env, sms),
      sendNotice: async (notice) => {
        if (!env.MSG91_ORDER_TEMPLATE_ID) return false;
        await sendMsg91Flow(env, env.MSG91_ORDER_TEMPLATE_ID, notice.to, notice.vars);
        return true;
      },
    };
  }
  if (provider === "twilio") {
    return {
      provider,
      send: (sms) => sendWithTwilio(env, sms),
      // The one registered order template stands for every notice's free text (TWILIO_DLT_TEMPLATES).
      sendNotice: async (notice) => {
        const { number, status, link } = notice.vars;
        const text = fillDltTemplate(TWILIO_DLT_TEMPLATES.orderNotice.text, [
          env.SHOP_NAME,
          number,
          status,
          link,
        ]);
        await sendWithTwilio(env, { to: notice.to, text });
        return true;
      },
    };
  }
  const folder = path.resolve(env.DATA_DIR, "sms");
  const writeSms = async (sms: { to: string; text: string }) => {
    await mkdir(folder, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const file = path.join(
      folder,
      `${stamp}-${sms.to.replace(/\D/g, "")}-${randomBytes(3).toString("hex")}.txt`,
    );
    await writeFile(file, `To: ${sms.to}\n\n${sms.text}\n`);
    if (env.NODE_ENV !== "test") console.log(`[sms] to ${sms.to}: ${sms.text}`);
  };
  return {
    provider: "file",
    send: writeSms,
    sendNotice: async (notice) => {
      await writeSms(notice);
      return true;
    },
  };
}

async function post(
  url: string,
  init: RequestInit,
  provider: string,
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      ...init,
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
    throw new Error(`${provider} could not be reached: ${reason}`.slice(0, 300));
  }
  const text = await response.text().catch(() => "");
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

const field = (body: unknown, name: string): string | undefined => {
  if (!body || typeof body !== "object") return undefined;
  const value = (body as Record<string, unknown>)[name];
  return value === undefined || value === null ? undefined : String(value).slice(0, 200);
};

/**
 * MSG91's Flow API (India's DLT rules allow only registered templates): the template's `##otp##` variable
 * gets the code. MSG91 answers `{"type":"success"}` or `{"type":"error","message":...}`, at times with 200.
 */
function sendWithMsg91(env: Env, sms: SmsCode) {
  return sendMsg91Flow(env, env.MSG91_TEMPLATE_ID ?? "", sms.to, { otp: sms.code });
}

/** One Flow API call: a template and its variables, for one number. */
async function sendMsg91Flow(env: Env, templateId: string, to: string, vars: Record<string, string>) {
  const { status, body } = await post(
    new URL("/api/v5/flow", env.MSG91_API_BASE).toString(),
    {
      headers: {
        authkey: env.MSG91_AUTH_KEY ?? "",
        "content-type": "application/json",
        accept: "application/json",
      },
      body: JSON.stringify({
        template_id: templateId,
        short_url: "0",
        recipients: [{ ...vars, mobiles: e164(to).slice(1) }],
      }),
    },
    "MSG91",
  );
  if (status >= 200 && status < 300 && field(body, "type") === "success") return;
  throw new Error(`MSG91 refused the SMS (HTTP ${status}): ${field(body, "message") ?? "no message"}`);
}

/**
 * Twilio's Messages resource: a form post with HTTP basic authentication; 201 with the message's sid. Only
 * parameters Twilio documents (To, Body, From or MessagingServiceSid); it documents none for DLT, whose ids it
 * takes at registration, so a text that matches no registered template is refused here rather than dropped by
 * the operator after Twilio has charged for it.
 */
async function sendWithTwilio(env: Env, sms: { to: string; text: string }) {
  if (!matchDltTemplate(sms.text)) {
    throw new Error(
      "Twilio SMS not sent: its text matches no DLT-registered template (TWILIO_DLT_TEMPLATES)",
    );
  }
  const sid = env.TWILIO_ACCOUNT_SID ?? "";
  const from = env.TWILIO_FROM ?? "";
  const form = new URLSearchParams({ To: e164(sms.to), Body: sms.text });
  // A Messaging Service picks the sender itself; anything else is the sender.
  form.set(/^MG[0-9a-fA-F]{32}$/.test(from) ? "MessagingServiceSid" : "From", from);
  const { status, body } = await post(
    new URL(`/2010-04-01/Accounts/${sid}/Messages.json`, env.TWILIO_API_BASE).toString(),
    {
      headers: {
        authorization: twilioAuthorization(env),
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: form.toString(),
    },
    "Twilio",
  );
  if (status >= 200 && status < 300 && field(body, "sid")) return;
  throw new Error(
    `Twilio refused the SMS (HTTP ${status}): ${field(body, "code") ?? ""} ${field(body, "message") ?? "no message"}`.trim(),
  );
}

const twilioAuthorization = (env: Env) =>
  `Basic ${Buffer.from(`${env.TWILIO_ACCOUNT_SID ?? ""}:${env.TWILIO_AUTH_TOKEN ?? ""}`).toString("base64")}`;

/**
 * Twilio's Fetch an Account (GET /2010-04-01/Accounts/{Sid}.json), read-only: the account's status ("active",
 * "suspended" or "closed") for `npm run check:services`; throws with Twilio's code when the credentials fail.
 */
export async function fetchTwilioAccount(env: Env): Promise<{ status: string; friendlyName: string }> {
  const { status, body } = await post(
    new URL(`/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID ?? ""}.json`, env.TWILIO_API_BASE).toString(),
    { method: "GET", headers: { authorization: twilioAuthorization(env), accept: "application/json" } },
    "Twilio",
  );
  if (status === 200 && field(body, "status")) {
    return { status: field(body, "status") ?? "", friendlyName: field(body, "friendly_name") ?? "" };
  }
  throw new Error(
    `Twilio refused (HTTP ${status}): ${field(body, "code") ?? ""} ${field(body, "message") ?? "no message"}`.trim(),
  );
}
