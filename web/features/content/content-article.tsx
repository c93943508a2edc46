import type { MouseEvent, ReactNode } from "react";
import { useNavigate } from "react-router";

/** Typography for the shop's Markdown pages; sizes follow the site's serif headings. */
export const proseClass =
  "prose prose-stone max-w-none dark:prose-invert prose-headings:font-serif prose-headings:font-semibold " +
  "prose-a:text-brand-700 prose-a:underline-offset-2 dark:prose-a:text-brand-100 prose-table:block prose-table:overflow-x-auto sm:prose-table:table";

/**
 * A page or article the owner wrote in Markdown. `html` was rendered and made safe on the server
 * (server/content/render-markdown.ts: raw HTML shown as text, links and pictures only to safe
 * addresses), with the placeholders then filled and escaped (fillHtmlPlaceholders); nothing a
 * customer typed ever reaches it.
 */
export function ContentArticle({ title, html, byline }: { title: string; html: string; byline?: ReactNode }) {
  const navigate = useNavigate();

  // Links between our pages ([Privacy Policy](/privacy)) stay in the app instead of reloading it.
  const followInternalLink = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest("a");
    const href = link?.getAttribute("href");
    if (!href?.startsWith("/") || href.startsWith("//")) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };

  return (
    <article>
      <h1 className="font-serif text-3xl font-semibold sm:text-4xl">{title}</h1>
      {byline}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the links inside, which keep their own keyboard behaviour */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Enter on a link fires this click too */}
      <div
        className={`${proseClass} mt-6`}
        onClick={followInternalLink}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML made safe on the server, see above
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </article>
  );
}
