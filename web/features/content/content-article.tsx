import type { ReactNode } from "react";

/** Typography for our own Markdown; sizes follow the site's serif headings. */
export const proseClass =
  "prose prose-stone max-w-none dark:prose-invert prose-headings:font-serif prose-headings:font-semibold " +
  "prose-a:text-brand-700 prose-a:underline-offset-2 dark:prose-a:text-brand-100 prose-table:block prose-table:overflow-x-auto sm:prose-table:table";

/**
 * A page or article rendered from content/*.md. `html` was made at build time from our own
 * files with the placeholders already filled and escaped (fillHtmlPlaceholders); nothing a
 * customer typed ever reaches it.
 */
export function ContentArticle({ title, html, byline }: { title: string; html: string; byline?: ReactNode }) {
  return (
    <article>
      <h1 className="font-serif text-3xl font-semibold sm:text-4xl">{title}</h1>
      {byline}
      <div
        className={`${proseClass} mt-6`}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: build-time HTML from content/, see above
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </article>
  );
}
