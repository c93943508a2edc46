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
 * A value as it may stand in an address (href, src): percent-encoded, so it can neither end the attribute nor
 * change the address's scheme, host or path (a shop name "/evil.example" after "/" stays a path of the shop).
 * A phone number goes as its digits and +, as a tel: address wants it; an e-mail address keeps its @.
 */
function addressValue(config: ShopConfig, name: string): string {
  if (name === "phone") return phoneHref(config.phone).slice("tel:".length);
  const encoded = encodeURIComponent(placeholderValue(config, name));
  return name === "email" || name === "grievanceEmail" ? encoded.replaceAll("%40", "@") : encoded;
}

/** A tag and a quoted attribute as the Markdown renderer writes them: it escapes every `<` in text and `"` in values. */
const TAG = /<[^>]*>/g;
const ATTRIBUTE = /([a-zA-Z][a-zA-Z0-9-]*)="([^"]*)"/g;
const ADDRESS_ATTRIBUTES = new Set(["href", "src"]);

/**
 * Fills placeholders in the page HTML the server rendered (server/content/render-markdown.ts), each by where
 * it stands (decision 071): in text, escaped, the phone number and e-mail addresses as links (as plain text
 * inside a link's words, where a link cannot go); in an address (href, src), percent-encoded (addressValue);
 * in any other attribute (a link's title, a picture's alt text), escaped as plain text. So no value, whatever
 * the owner set, can end the attribute or element it lands in or add markup of its own.
 */
export function fillHtmlPlaceholders(html: string, config: ShopConfig): string {
  const asText = (name: string) => escapeHtml(placeholderValue(config, name));
  const link = (href: string, name: string, attributes = "") =>
    `<a href="${escapeHtml(href)}"${attributes}>${asText(name)}</a>`;
  const asLink: Record<string, (name: string) => string> = {
    // A phone number broken over two lines is easy to misread.
    phone: (name) => link(`tel:${addressValue(config, name)}`, name, ' class="whitespace-nowrap"'),
    email: (name) => link(`mailto:${addressValue(config, name)}`, name),
    grievanceEmail: (name) => link(`mailto:${addressValue(config, name)}`, name),
  };
  const fillText = (text: string, insideLink: boolean) =>
    text.replace(PLACEHOLDER, (_, name: string) => (insideLink ? asText : (asLink[name] ?? asText))(name));
  const fillTag = (tag: string) =>
    tag.replace(
      ATTRIBUTE,
      (_, attribute: string, value: string) =>
        `${attribute}="${value.replace(PLACEHOLDER, (__, name: string) =>
          ADDRESS_ATTRIBUTES.has(attribute.toLowerCase())
            ? escapeHtml(addressValue(config, name))
            : asText(name),
        )}"`,
    );

  let filled = "";
  let linksOpen = 0;
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    const tag = match[0];
    filled += fillText(html.slice(last, match.index), linksOpen > 0) + fillTag(tag);
    if (/^<a[\s>]/i.test(tag)) linksOpen++;
    else if (/^<\/a[\s>]/i.test(tag)) linksOpen = Math.max(0, linksOpen - 1);
    last = match.index + tag.length;
  }
  return filled + fillText(html.slice(last), linksOpen > 0);
}
