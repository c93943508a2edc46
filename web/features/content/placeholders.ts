import { escapeHtml } from "../../../common/escape-html.ts";
import { phoneHref, type ShopConfig } from "../../../common/shop-config.ts";

/**
 * Our content says {shopName}, {phone}, {email} and {grievanceEmail}; the values come from GET /api/config
 * (the grievance officer's address is the owner's to set at /admin/shop).
 */
const PLACEHOLDER = /\{(shopName|phone|email|grievanceEmail)\}/g;

const placeholderValue = (config: ShopConfig, name: string) =>
  name === "phone"
    ? config.phone
    : name === "email"
      ? config.email
      : name === "grievanceEmail"
        ? config.details.grievanceOfficer.email
        : config.shopName;

export function fillPlaceholders(text: string, config: ShopConfig): string {
  return text.replace(PLACEHOLDER, (_, name: string) => placeholderValue(config, name));
}

/**
 * Fills placeholders in our own build-time HTML. The values are escaped (they come from the
 * environment, not from us), and the phone number and e-mail address become links.
 */
export function fillHtmlPlaceholders(html: string, config: ShopConfig): string {
  const phone = escapeHtml(config.phone);
  const email = escapeHtml(config.email);
  const grievanceEmail = escapeHtml(config.details.grievanceOfficer.email);
  const links: Record<string, string> = {
    shopName: escapeHtml(config.shopName),
    // A phone number broken over two lines is easy to misread.
    phone: `<a href="${escapeHtml(phoneHref(config.phone))}" class="whitespace-nowrap">${phone}</a>`,
    email: `<a href="mailto:${email}">${email}</a>`,
    grievanceEmail: `<a href="mailto:${grievanceEmail}">${grievanceEmail}</a>`,
  };
  return html.replace(PLACEHOLDER, (_, name: string) => links[name] ?? "");
}
