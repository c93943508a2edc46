import type { MarkdownDocument } from "../../lib/markdown-document.ts";

// Each page is its own chunk, fetched when the page is opened.
const pages = import.meta.glob<MarkdownDocument>("../../../content/pages/*.md");

/** content/pages/{name}.md, or undefined when there is no such page. */
export async function loadContentPage(name: string): Promise<MarkdownDocument | undefined> {
  const load = pages[`../../../content/pages/${name}.md`];
  if (!load) return undefined;
  const { title, description, html } = await load();
  return { title, description, html };
}
