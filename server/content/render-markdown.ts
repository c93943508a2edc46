import { Marked, type Tokens } from "marked";
import { escapeHtml } from "../../common/escape-html.ts";

/**
 * Where a link or picture may point: a path of the shop, a fragment, or a web, mail or phone address.
 * Anything else (javascript:, data:, vbscript:, an address the browser would read as another scheme) is
 * dropped. Browsers ignore tabs and line breaks inside a scheme ("java\tscript:"), so those are removed
 * before the check; marked has already decoded entities such as &#106;.
 */
function safeUrl(href: string, forImage: boolean): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: what a browser skips in an address is what is removed.
  const url = href.replace(/[\u0000-\u0020\u007f]/g, "");
  if (url.startsWith("/") && !url.startsWith("//")) return href;
  if (!forImage && url.startsWith("#")) return href;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "https" || scheme === "http") return href;
  if (!forImage && (scheme === "mailto" || scheme === "tel")) return href;
  return undefined;
}

/**
 * The owner's Markdown as the shop shows it. marked writes every tag itself and escapes the text and the
 * attributes it writes, so the only ways for an owner's page to carry markup of its own are raw HTML in the
 * Markdown and the addresses of links and pictures: raw HTML is shown as the text it is, and an address
 * outside safeUrl's schemes leaves only the link's words. The page's Content-Security-Policy (server/app.ts)
 * still stands behind this.
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const words = this.parser.parseInline(tokens);
      const safe = safeUrl(href, false);
      if (safe === undefined) return words;
      const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(safe)}"${titleAttribute}>${words}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      const safe = safeUrl(href, true);
      if (safe === undefined) return escapeHtml(text);
      const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
      return `<img src="${escapeHtml(safe)}" alt="${escapeHtml(text)}"${titleAttribute} loading="lazy">`;
    },
  },
});

/** Safe HTML for a page's Markdown; {shopName} and the other placeholders stay for the page to fill. */
export function renderMarkdown(source: string): string {
  return markdown.parse(source, { async: false });
}
