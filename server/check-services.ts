import type { Env } from "./env.ts";
import { verifySmtp } from "./mail.ts";
import {
  fetchWhatsAppNumber,
  fetchWhatsAppTemplates,
  type WhatsAppConfig,
  whatsAppConfig,
} from "./messaging/whatsapp.ts";
import { listRazorpayOrders, razorpayConfig } from "./money/razorpay.ts";
import { createShiprocket, shiprocketConfig } from "./shipping/shiprocket.ts";
import { fetchTwilioAccount, smsProvider, TWILIO_DLT_TEMPLATES } from "./sms/sms-sender.ts";

/**
 * `npm run check:services`: the brand's real accounts tried before the first sale, with the shop's own clients
 * and only calls that read (or, for SMTP, a greeting with no mail). Each service is ready, not configured (the
 * shop works without it), or not ready, with what is wrong and where to fix it.
 */
export type ServiceCheck = {
  service: string;
  state: "ready" | "not configured" | "NOT READY";
  detail: string;
};

const ready = (service: string, detail: string): ServiceCheck => ({ service, state: "ready", detail });
const notReady = (service: string, detail: string): ServiceCheck => ({ service, state: "NOT READY", detail });
const notConfigured = (service: string, detail: string): ServiceCheck => ({
  service,
  state: "not configured",
  detail,
});
/** The error's message as a sentence, so the advice after it reads apart. */
const messageOf = (error: unknown) => {
  const message = (error instanceof Error ? error.message : String(error)).trim();
  return /[.!?]$/.test(message) ? message : `${message}.`;
};

async function checkShiprocket(env: Env): Promise<ServiceCheck> {
  const name = "Shiprocket";
  const config = shiprocketConfig(env);
  if (!config)
    return notConfigured(name, "staff book couriers by hand (SHIPROCKET_EMAIL, _PASSWORD, _PICKUP_LOCATION)");
  const shiprocket = createShiprocket(config);
  let pin: string;
  try {
    // Signs in (auth/login), then reads the pickup addresses (settings/company/pickup).
    pin = await shiprocket.pickupPostcode();
  } catch (error) {
    return notReady(name, messageOf(error));
  }
  try {
    const couriers = await shiprocket.couriersFor({
      pin,
      parcel: { weightGrams: 500, lengthCm: 10, breadthCm: 10, heightCm: 10 },
      cod: true,
      declaredValuePaise: 50_000,
    });
    return ready(
      name,
      `signed in as ${config.email}; pickup "${config.pickupLocation}" (PIN ${pin}) is served by ${couriers.length} courier(s) for COD`,
    );
  } catch (error) {
    return notReady(
      name,
      `serviceability from the pickup's own PIN ${pin}: ${messageOf(error)} Check the pickup address in Shiprocket (Settings > Pickup Addresses) and the couriers enabled for the account.`,
    );
  }
}

async function checkRazorpay(env: Env): Promise<ServiceCheck> {
  const name = "Razorpay";
  const config = razorpayConfig(env);
  if (!config)
    return notConfigured(name, "the shop takes cash on delivery only (RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET)");
  try {
    await listRazorpayOrders(config);
  } catch (error) {
    const { upstreamStatus, upstreamDescription } = error as {
      upstreamStatus?: number;
      upstreamDescription?: string | null;
    };
    if (upstreamStatus === 401) {
      return notReady(
        name,
        `Razorpay refused the key (401: ${upstreamDescription ?? "no description"}). Fix RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET: Dashboard > Account & Settings > API Keys.`,
      );
    }
    return notReady(
      name,
      upstreamStatus
        ? `Razorpay answered ${upstreamStatus}: ${upstreamDescription ?? "no description"}`
        : messageOf(error),
    );
  }
  const mode = config.keyId.startsWith("rzp_live_")
    ? "live mode"
    : "TEST mode: no real money moves; use the rzp_live_ key to sell";
  const webhook = config.webhookSecret
    ? ""
    : "; RAZORPAY_WEBHOOK_SECRET is not set (payments are then confirmed only by the shopper's browser)";
  return ready(name, `the key ${config.keyId} works (${mode})${webhook}`);
}

async function checkWhatsApp(env: Env): Promise<ServiceCheck> {
  const name = "WhatsApp";
  const config = whatsAppConfig(env);
  if (!config)
    return notConfigured(
      name,
      "COD questions and notices go by SMS (WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID)",
    );
  let number: Awaited<ReturnType<typeof fetchWhatsAppNumber>>;
  try {
    number = await fetchWhatsAppNumber(config);
  } catch (error) {
    return notReady(
      name,
      `the phone number id ${config.phoneNumberId}: ${messageOf(error)} Check WHATSAPP_ACCESS_TOKEN (a system user's permanent token) and WHATSAPP_PHONE_NUMBER_ID (WhatsApp Manager > Phone numbers, or the app's API Setup).`,
    );
  }
  const wanted = [
    ["WHATSAPP_TEMPLATE_COD_CONFIRM", config.templates.codConfirm],
    ["WHATSAPP_TEMPLATE_ORDER_UPDATE", config.templates.orderUpdate],
    ["WHATSAPP_TEMPLATE_CART_REMINDER", config.templates.cartReminder],
  ].filter((pair): pair is [string, string] => Boolean(pair[1]));
  if (!wanted.length) {
    return notReady(
      name,
      "no template is named: set WHATSAPP_TEMPLATE_COD_CONFIRM and WHATSAPP_TEMPLATE_ORDER_UPDATE",
    );
  }
  if (!env.WHATSAPP_BUSINESS_ACCOUNT_ID) {
    return notReady(
      name,
      "the templates cannot be checked: set WHATSAPP_BUSINESS_ACCOUNT_ID (WhatsApp Manager > Account tools, or the app's API Setup)",
    );
  }
  return checkTemplates(name, config, env.WHATSAPP_BUSINESS_ACCOUNT_ID, wanted, number);
}

async function checkTemplates(
  name: string,
  config: WhatsAppConfig,
  businessAccountId: string,
  wanted: [string, string][],
  number: { display_phone_number?: string; verified_name?: string },
): Promise<ServiceCheck> {
  let templates: { name: string; status: string; language: string }[];
  try {
    templates = (await fetchWhatsAppTemplates(config, businessAccountId)).data;
  } catch (error) {
    return notReady(name, `the templates of business account ${businessAccountId}: ${messageOf(error)}`);
  }
  const problems: string[] = [];
  for (const [variable, template] of wanted) {
    const versions = templates.filter((found) => found.name === template);
    const inLanguage = versions.find((found) => found.language === config.language);
    if (!versions.length) {
      problems.push(`${variable}: no template named "${template}" in the business account`);
    } else if (!inLanguage) {
      problems.push(
        `${variable}: "${template}" exists in ${versions.map((found) => found.language).join(", ")}, not in WHATSAPP_TEMPLATE_LANGUAGE=${config.language}`,
      );
    } else if (inLanguage.status !== "APPROVED") {
      problems.push(
        `${variable}: "${template}" (${config.language}) is ${inLanguage.status}, not APPROVED (WhatsApp Manager > Message templates)`,
      );
    }
  }
  if (problems.length) return notReady(name, problems.join("; "));
  return ready(
    name,
    `${number.display_phone_number ?? config.phoneNumberId} (${number.verified_name ?? "no verified name"}); templates ${wanted.map(([, template]) => `"${template}"`).join(", ")} approved in ${config.language}`,
  );
}

async function checkSmtp(env: Env): Promise<ServiceCheck> {
  const name = "SMTP";
  if (!env.SMTP_URL) return notConfigured(name, "mail is written to DATA_DIR/mail/, not sent (SMTP_URL)");
  const url = new URL(env.SMTP_URL);
  try {
    await verifySmtp(env.SMTP_URL);
  } catch (error) {
    return notReady(
      name,
      `${url.hostname}:${url.port || "(default port)"}: ${messageOf(error)} Check SMTP_URL (host, port, user and password).`,
    );
  }
  return ready(
    name,
    `${url.hostname}:${url.port || "(default port)"} greets and accepts the shop${url.username ? "'s sign-in" : ""}; no mail was sent`,
  );
}

async function checkSms(env: Env): Promise<ServiceCheck> {
  const name = "SMS";
  const provider = smsProvider(env);
  if (provider === null)
    return notConfigured(name, "no sign-in by mobile; codes are written to DATA_DIR/sms/ in development");
  if (provider === "msg91") {
    return ready(
      name,
      `MSG91 with template ${env.MSG91_TEMPLATE_ID}${env.MSG91_ORDER_TEMPLATE_ID ? ` and order template ${env.MSG91_ORDER_TEMPLATE_ID}` : " (no MSG91_ORDER_TEMPLATE_ID: order notices are not sent by SMS)"}; the account is not read (MSG91 has no read-only call the shop uses)`,
    );
  }
  try {
    const account = await fetchTwilioAccount(env);
    if (account.status !== "active") {
      return notReady(
        name,
        `the Twilio account ${env.TWILIO_ACCOUNT_SID} is ${account.status}, not active (Twilio Console > Account)`,
      );
    }
  } catch (error) {
    return notReady(
      name,
      `${messageOf(error)} Check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (Twilio Console > Account Info).`,
    );
  }
  const ids = Object.values(TWILIO_DLT_TEMPLATES)
    .map((template) => `${template.idVariable}=${env[template.idVariable]}`)
    .join(", ");
  return ready(
    name,
    `Twilio account ${env.TWILIO_ACCOUNT_SID} is active; sender ${env.TWILIO_FROM}, DLT entity ${env.TWILIO_DLT_ENTITY_ID}, ${ids} (these must be registered with Twilio too)`,
  );
}

/** Every service, in one pass; none waits on another. */
export function checkServices(env: Env): Promise<ServiceCheck[]> {
  return Promise.all([
    checkShiprocket(env),
    checkRazorpay(env),
    checkWhatsApp(env),
    checkSmtp(env),
    checkSms(env),
  ]);
}

export const formatCheck = (check: ServiceCheck) =>
  `${check.service.padEnd(10)} ${check.state}: ${check.detail}`;
