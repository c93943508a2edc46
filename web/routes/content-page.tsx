import type { ReactNode } from "react";
import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import { Breadcrumbs } from "../components/breadcrumbs.tsx";
import { ContentArticle } from "../features/content/content-article.tsx";
import { loadPublished } from "../features/content/content-pages.ts";
import { fillHtmlPlaceholders, fillPlaceholders } from "../features/content/placeholders.ts";
import { pageTitle, type RouteHandle, shopImage } from "../lib/document-head.ts";
import { getShopConfig } from "../lib/shop-config.ts";

/** /privacy shows the owner's page "privacy", and so on for each policy page and /contact. */
export async function loader({ request }: LoaderFunctionArgs) {
  const name = new URL(request.url).pathname.replace(/^\/|\/$/g, "");
  const [page, config] = await Promise.all([loadPublished("page", name), getShopConfig()]);
  if (!page) throw new Response(`No page ${name}`, { status: 404 });
  return {
    title: fillPlaceholders(page.title, config),
    description: fillPlaceholders(page.description, config),
    html: fillHtmlPlaceholders(page.html, config),
    shopName: config.shopName,
  };
}

type ContentPageData = Awaited<ReturnType<typeof loader>>;

export const handle: RouteHandle<ContentPageData> = {
  meta: ({ data: page, shop: { config, combos } }) => ({
    title: pageTitle(page.title, config.shopName),
    description: page.description,
    image: shopImage(combos),
    structuredData: [{ type: "breadcrumbs", steps: [{ name: "Home", path: "/" }, { name: page.title }] }],
  }),
};

/** One reading column: the trail, the page's text, then whatever the screen adds below it. */
export function ContentPageView({ page, children }: { page: ContentPageData; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: page.title }]} />
      <ContentArticle title={page.title} html={page.html} />
      {children}
    </div>
  );
}

export function Component() {
  return <ContentPageView page={useLoaderData<typeof loader>()} />;
}
