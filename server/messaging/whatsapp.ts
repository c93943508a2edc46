import { createHmac, timingSafeEqual } from "node:crypto";
import type { Env } from "../env.ts";

/**
 * Meta's WhatsApp Business Cloud API (docs/decisions/065): template messages sent as
 * POST {WHATSAPP_API_URL}/{phone-number-id}/messages with the access token as a Bearer token, and replies
 * received on a webhook whose body is signed (X-Hub-Signature-256) with the app's secret.
 */
export type WhatsAppConfig = {
  accessToken: string;
  phoneNumberId: string;
  apiUrl: string;
  language: string;
  templates: { codConfirm: string | null; orderUpdate: string | null; cartReminder: string | null };
};

export function whatsAppConfig(env: Env): WhatsAppConfig | null {
  if (!env.WHATSAPP_ACCESS_TOKEN || !env.WHATSAPP_PHONE_NUMBER_ID) return null;
  return {
    accessToken: env.WHATSAPP_ACCESS_TOKEN,
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
    apiUrl: env.WHATSAPP_API_URL.replace(/\/$/, ""),
    language: env.WHATSAPP_TEMPLATE_LANGUAGE,
    templates: {
      codConfirm: env.WHATSAPP_TEMPLATE_COD_CONFIRM ?? null,
      orderUpdate: env.WHATSAPP_TEMPLATE_ORDER_UPDATE ?? null,
      cartReminder: env.WHATSAPP_TEMPLATE_CART_REMINDER ?? null,
    },
  };
}

/** One approved template: its body's numbered variables, and a payload for each quick-reply button in turn. */
export type TemplateMessage = {
  /** The recipient as WhatsApp wants it: country code and number, digits only (91 and 10 digits). */
  to: string;
  template: string;
  bodyParameters: string[];
  quickReplyPayloads?: string[];
  /**
   * The text each URL button's variable takes, by the button's index: WhatsApp appends it to the URL the
   * template was approved with (a button parameter of type "text").
   */
  urlSuffixes?: string[];
};

/** A failure the next try may not have: the job is retried. Meta's HTTP status and error code are kept. */
export type WhatsAppError = Error & { httpStatus: number; metaCode: number | null };

const whatsAppError = (message: string, httpStatus: number, metaCode: number | null): WhatsAppError =>
  Object.assign(new Error(message), { httpStatus, metaCode });

/** A provider that does not answer in this time has failed this try; the job tries again later. */
const TIMEOUT_MS = 10_000;

/** The request body the Cloud API takes for a template message. */
export function templateRequest(config: WhatsAppConfig, message: TemplateMessage) {
  const components: Record<string, unknown>[] = [
    { type: "body", parameters: message.bodyParameters.map((text) => ({ type: "text", text })) },
    ...(message.quickReplyPayloads ?? []).map((payload, index) => ({
      type: "button",
      sub_type: "quick_reply",
      index: String(index),
      parameters: [{ type: "payload", payload }],
    })),
    ...(message.urlSuffixes ?? []).map((text, index) => ({
      type: "button",
      sub_type: "url",
      index: String(index),
      parameters: [{ type: "text", text }],
    })),
  ];
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: message.to,
    type: "template",
    template: { name: message.template, language: { code: config.language }, components },
  };
}

/** Sends one template message; returns WhatsApp's message id ("wamid..."). Throws a WhatsAppError otherwise. */
export async function sendTemplate(config: WhatsAppConfig, message: TemplateMessage): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${config.apiUrl}/${config.phoneNumberId}/messages`, {
      method: "POST",
      headers: { Authorization: `Bearer ${config.accessToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(templateRequest(config, message)),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause as Error | undefined)?.message || error.message : "";
    throw whatsAppError(`WhatsApp could not be reached: ${reason}`.slice(0, 300), 0, null);
  }
  const body = (await response.json().catch(() => null)) as {
    messages?: { id?: string }[];
    error?: { message?: string; code?: number };
  } | null;
  const id = body?.messages?.[0]?.id;
  if (response.ok && id) return id;
  const code = typeof body?.error?.code === "number" ? body.error.code : null;
  const detail = body?.error?.message?.slice(0, 200) ?? "no error message";
  throw whatsAppError(
    `WhatsApp refused the message (${response.status}${code === null ? "" : `, code ${code}`}): ${detail}`,
    response.status,
    code,
  );
}

/** A read-only Graph API call for `npm run check:services`; throws Meta's error message and code. */
async function graphGet<T>(config: WhatsAppConfig, path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${config.apiUrl}/${path}`, {
      headers: { Authorization: `Bearer ${config.accessToken}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause as Error | undefined)?.message || error.message : "";
    throw whatsAppError(`WhatsApp could not be reached: ${reason}`.slice(0, 300), 0, null);
  }
  const body = (await response.json().catch(() => null)) as
    | (T & { error?: { message?: string; code?: number } })
    | null;
  if (response.ok && body && !body.error) return body;
  const code = typeof body?.error?.code === "number" ? body.error.code : null;
  throw whatsAppError(
    `Meta refused (${response.status}${code === null ? "" : `, code ${code}`}): ${body?.error?.message?.slice(0, 200) ?? "no error message"}`,
    response.status,
    code,
  );
}

/** The phone number node (GET /{phone-number-id}): its display number and verified name. */
export const fetchWhatsAppNumber = (config: WhatsAppConfig) =>
  graphGet<{ id: string; display_phone_number?: string; verified_name?: string }>(
    config,
    `${config.phoneNumberId}?fields=display_phone_number,verified_name`,
  );

/** The business account's templates (GET /{waba-id}/message_templates): name, status and language of each. */
export const fetchWhatsAppTemplates = (config: WhatsAppConfig, businessAccountId: string) =>
  graphGet<{ data: { name: string; status: string; language: string }[] }>(
    config,
    `${businessAccountId}/message_templates?fields=name,status,language&limit=250`,
  );

/** 98765 43210 -> 919876543210: an Indian mobile as WhatsApp addresses it. */
export const whatsAppNumber = (mobile: string) => `91${mobile.replace(/\D/g, "").slice(-10)}`;

/** The X-Hub-Signature-256 header Meta sends: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export function webhookSignature(appSecret: string, rawBody: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody, "utf8").digest("hex")}`;
}

export function webhookSignatureMatches(appSecret: string, rawBody: string, header: string): boolean {
  const expected = Buffer.from(webhookSignature(appSecret, rawBody));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
