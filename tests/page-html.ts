import { HTMLElement, type Node, parse, TextNode } from "node-html-parser";

/**
 * Pages as the server sends them, read without a browser: for checks of what a first visit gets (the
 * server-rendered HTML, statuses, redirects), which cost a fetch and a parse where a browser context and a
 * page load cost a CPU-second or two (docs/decisions/092).
 */
export type ServerPage = {
  status: number;
  /** Where the answer came from, after any redirect. */
  url: string;
  document: HTMLElement;
};

/** `path` (or a whole address) from the shop, as a visitor without cookies asks for it; redirects followed. */
export async function fetchPage(shop: { url: string }, path: string): Promise<ServerPage> {
  const response = await fetch(new URL(path, shop.url));
  return { status: response.status, url: response.url, document: parse(await response.text()) };
}

/** HTML already fetched (with headers of the test's own, say), read as `fetchPage` reads it. */
export const readHtml = (html: string): Pick<ServerPage, "document"> => ({ document: parse(html) });

/** The page's `<main>`: the page itself, without the header, the footer or the data the app hydrates from. */
export function mainOf(page: ServerPage): HTMLElement {
  const main = page.document.querySelector("main");
  if (!main) throw new Error(`${page.url} (${page.status}) has no <main>`);
  return main;
}

/** The page's `<title>`, as the browser shows it in its tab. */
export const titleOf = (page: Pick<ServerPage, "document">) =>
  page.document.querySelector("title")?.textContent;

/** The content of `<meta name="...">` or, for Open Graph's tags, `<meta property="...">`; entities decoded. */
export const metaOf = (page: Pick<ServerPage, "document">, key: string) =>
  page.document.querySelector(`meta[name="${key}"], meta[property="${key}"]`)?.getAttribute("content");

/** The page's JSON-LD blocks, parsed. */
export const structuredDataOf = (page: Pick<ServerPage, "document">) =>
  page.document
    .querySelectorAll('script[type="application/ld+json"]')
    .map((script) => JSON.parse(script.textContent) as Record<string, unknown>);

/** The texts of the page's `<h1>` elements (a page should have one). */
export const h1Of = (page: ServerPage) => page.document.querySelectorAll("h1").map((h1) => h1.textContent);

// Elements that run on inside a sentence of prose (a link or bold words in a policy page); any other element
// is laid out apart from its neighbours (a block, a flex item, a badge, a visually hidden label).
const INLINE = new Set(
  "a abbr b bdi bdo cite code data dfn em i kbd mark q s samp small strong sub sup time u var".split(" "),
);
const UNSEEN = new Set(["script", "style", "template", "noscript", "title"]);

/**
 * The text a reader sees in `element`, as browser tests read it (`innerText` with its whitespace collapsed):
 * tags dropped, and with them the `<!-- -->` React writes between adjacent texts; entities decoded; what is laid
 * out apart kept apart by a space; whitespace collapsed. Scripts and `hidden` elements are not read. No CSS is
 * applied: a label the stylesheet shows in capitals reads as it is written.
 */
export function visibleText(element: HTMLElement): string {
  const parts: string[] = [];
  const read = (node: Node) => {
    if (node instanceof TextNode) {
      parts.push(node.text);
      return;
    }
    if (!(node instanceof HTMLElement)) return;
    const tag = node.rawTagName?.toLowerCase() ?? "";
    if (UNSEEN.has(tag) || node.hasAttribute("hidden")) return;
    const apart = !INLINE.has(tag);
    if (apart) parts.push(" ");
    for (const child of node.childNodes) read(child);
    if (apart) parts.push(" ");
  };
  read(element);
  return parts.join("").replace(/\s+/g, " ").trim();
}

/**
 * The accessible name of a button or link, as far as these pages need it: its `aria-label`, else its visible
 * text (`aria-labelledby` and the `alt` of a picture inside are not read).
 */
export const accessibleName = (element: HTMLElement) =>
  element.getAttribute("aria-label")?.trim() || visibleText(element);

/**
 * The elements whose accessible name matches `name` as Playwright's `getByRole(..., { name })` matches it: a
 * string anywhere in the name, ignoring case, or a regular expression.
 */
export function named(elements: HTMLElement[], name: string | RegExp): HTMLElement[] {
  const matches =
    typeof name === "string"
      ? (text: string) => text.toLowerCase().includes(name.replace(/\s+/g, " ").trim().toLowerCase())
      : (text: string) => name.test(text);
  return elements.filter((element) => matches(accessibleName(element)));
}

/** Whether a form control is disabled as Playwright's `isDisabled` sees it: `disabled`, or `aria-disabled`. */
export const isDisabled = (element: HTMLElement) =>
  element.hasAttribute("disabled") || element.getAttribute("aria-disabled") === "true";
