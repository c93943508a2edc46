import { escapeHtml } from "../common/escape-html.ts";
import type { ShopDetails } from "../common/schemas/shop.ts";
import type { Db } from "./db/client.ts";
import type { Env } from "./env.ts";
import { getShopDetails } from "./shop/shop.data.ts";

/** What mailer.send needs besides the recipient. */
export type MailContent = { subject: string; text: string; html: string };

/**
 * One message in the shop's layout. Every e-mail the shop sends (sign-in, orders, answers to questions)
 * is built from these parts, so they all look alike and all carry a plain-text part.
 */
export type MailParts = {
  subject: string;
  /** The line mail apps show beside the subject in the inbox. */
  preview: string;
  heading: string;
  paragraphs: string[];
  /** The one thing to do, shown as a button (and as a bare link for mail apps that hide buttons). */
  action?: { label: string; url: string };
  /** Label and value rows, e.g. an order's items and total. */
  details?: { label: string; value: string }[];
  /** Small print under the button: why the mail came, what to do if it was not expected. */
  footnotes?: string[];
  /** A marketing mail's one-tap unsubscribe link, shown as a link in the small print. */
  unsubscribeUrl?: string;
};

/**
 * Who the shop's mails say to call or write to, and the seller's legal name: the owner's details once the
 * owner has saved them (/admin/shop), the environment's SHOP_PHONE and SHOP_EMAIL until then. The legal
 * name is shown only when the owner has set one other than the brand (SHOP_NAME, which stays the heading).
 */
export type MailSignature = { legalName: string | null; phone: string; email: string };

export function mailSignature(env: Env, details: ShopDetails | null): MailSignature {
  const owners = details?.updatedAt ? details : null;
  const legalName = owners?.legalName.trim();
  return {
    legalName: legalName && legalName !== env.SHOP_NAME ? legalName : null,
    phone: owners?.phone.trim() || env.SHOP_PHONE,
    email: owners?.email.trim() || env.SHOP_EMAIL,
  };
}

/** The signature as the shop's details stand now, read when a mail is composed. */
export async function readMailSignature(db: Pick<Db, "select">, env: Env): Promise<MailSignature> {
  return mailSignature(env, await getShopDetails(db));
}

const BRAND = "#14532d";
const INK = "#1c1917";
const MUTED = "#57534e";
const PAPER = "#fafaf9";

export function composeMail(
  env: Env,
  parts: MailParts,
  signature: MailSignature = mailSignature(env, null),
): MailContent {
  return {
    subject: parts.subject,
    text: composeText(env, parts, signature),
    html: composeHtml(env, parts, signature),
  };
}

function composeText(env: Env, parts: MailParts, signature: MailSignature): string {
  const lines = [parts.heading, "", ...parts.paragraphs.flatMap((paragraph) => [paragraph, ""])];
  if (parts.details?.length) {
    lines.push(...parts.details.map(({ label, value }) => `${label}: ${value}`), "");
  }
  if (parts.action) lines.push(`${parts.action.label}:`, parts.action.url, "");
  if (parts.footnotes?.length) lines.push(...parts.footnotes.flatMap((note) => [note, ""]));
  if (parts.unsubscribeUrl) lines.push("Unsubscribe in one tap:", parts.unsubscribeUrl, "");
  lines.push(
    "--",
    env.SHOP_NAME,
    ...(signature.legalName ? [`Sold by ${signature.legalName}`] : []),
    `${signature.phone} · ${signature.email}`,
    env.PUBLIC_URL,
  );
  return `${lines.join("\n")}\n`;
}

function composeHtml(env: Env, parts: MailParts, signature: MailSignature): string {
  const paragraph = (text: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:1.6;color:${INK}">${escapeHtml(text)}</p>`;
  const details = parts.details?.length
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 20px;border-collapse:collapse">${parts.details
        .map(
          ({ label, value }) =>
            `<tr><td style="padding:8px 0;border-bottom:1px solid #e7e5e4;font-size:15px;color:${MUTED}">${escapeHtml(label)}</td><td align="right" style="padding:8px 0;border-bottom:1px solid #e7e5e4;font-size:15px;color:${INK}">${escapeHtml(value)}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  const action = parts.action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:8px;background:${BRAND}"><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:14px 28px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:8px">${escapeHtml(parts.action.label)}</a></td></tr></table>
<p style="margin:0 0 20px;font-size:13px;line-height:1.5;color:${MUTED}">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(parts.action.url)}" style="color:${BRAND};word-break:break-all">${escapeHtml(parts.action.url)}</a></p>`
    : "";
  const footnotes = (parts.footnotes ?? [])
    .map(
      (note) =>
        `<p style="margin:0 0 12px;font-size:13px;line-height:1.5;color:${MUTED}">${escapeHtml(note)}</p>`,
    )
    .join("");
  const unsubscribe = parts.unsubscribeUrl
    ? `<p style="margin:0 0 12px;font-size:13px;line-height:1.5;color:${MUTED}"><a href="${escapeHtml(parts.unsubscribeUrl)}" style="color:${BRAND}">Unsubscribe</a> from reminders and offers in one tap.</p>`
    : "";

  return `<!doctype html>
<html lang="en-IN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(parts.subject)}</title>
</head>
<body style="margin:0;padding:0;background:${PAPER};font-family:Georgia,'Noto Serif',serif">
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(parts.preview)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${PAPER}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e7e5e4;border-radius:12px">
<tr><td style="padding:20px 28px;background:${BRAND};border-radius:12px 12px 0 0">
<a href="${escapeHtml(env.PUBLIC_URL)}" style="font-size:22px;font-weight:bold;color:#ffffff;text-decoration:none">${escapeHtml(env.SHOP_NAME)}</a>
</td></tr>
<tr><td style="padding:28px 28px 8px;font-family:ui-sans-serif,system-ui,'Segoe UI',Roboto,sans-serif">
<h1 style="margin:0 0 16px;font-family:Georgia,'Noto Serif',serif;font-size:24px;line-height:1.3;color:${INK}">${escapeHtml(parts.heading)}</h1>
${parts.paragraphs.map(paragraph).join("\n")}
${details}
${action}
${footnotes}
${unsubscribe}
</td></tr>
<tr><td style="padding:16px 28px 24px;border-top:1px solid #e7e5e4;font-family:ui-sans-serif,system-ui,'Segoe UI',Roboto,sans-serif;font-size:13px;line-height:1.5;color:${MUTED}">
${escapeHtml(env.SHOP_NAME)} · natural hair, skin and body care<br>
${signature.legalName ? `Sold by ${escapeHtml(signature.legalName)}<br>\n` : ""}Questions? Call <a href="tel:${escapeHtml(signature.phone.replace(/\s/g, ""))}" style="color:${BRAND}">${escapeHtml(signature.phone)}</a> or write to <a href="mailto:${escapeHtml(signature.email)}" style="color:${BRAND}">${escapeHtml(signature.email)}</a>.
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
