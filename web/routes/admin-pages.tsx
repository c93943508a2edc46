import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { formatDateTime } from "../../common/india-time.ts";
import type { ContentDetail, ContentListItem } from "../../common/schemas/content-pages.ts";
import { buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { formatPostDate } from "../features/blog/format-post-date.ts";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";
import { PageEditor, StatusBadge, shopPath } from "./admin-page.tsx";

/**
 * /admin/pages lists the blog and the pages; /admin/pages/:id edits one, /admin/pages/new a new article.
 * One route for both keeps the route table, which every shopper's first visit downloads, a route smaller.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  if (!params.id) {
    return {
      screen: "list" as const,
      items: (await api<{ items: ContentListItem[] }>("/admin/pages")).items,
    };
  }
  const page =
    params.id === "new" ? null : await api<ContentDetail>(`/admin/pages/${encodeURIComponent(params.id)}`);
  return { screen: "editor" as const, page };
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: blog and pages") };

function ItemList({ items, label }: { items: ContentListItem[]; label: string }) {
  return (
    <ul aria-label={label} className="mt-3 grid gap-3">
      {items.map((item) => (
        <li key={item.id} className={`${cardClass} relative flex flex-wrap items-start gap-x-4 gap-y-1`}>
          <div className="min-w-0 flex-1 basis-60">
            <Link
              to={`/admin/pages/${item.id}`}
              className="font-medium underline-offset-2 after:absolute after:inset-0 after:content-[''] hover:underline"
            >
              {item.title}
            </Link>
            <p className="mt-0.5 text-sm break-all text-stone-600 dark:text-stone-400">{shopPath(item)}</p>
          </div>
          <div className="text-sm text-stone-600 sm:text-right dark:text-stone-400">
            <StatusBadge published={item.published} />
            <p className="mt-1">
              {item.kind === "post" && item.publishedOn
                ? formatPostDate(item.publishedOn)
                : `Saved ${formatDateTime(item.updatedAt)}`}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function Component() {
  const data = useLoaderData<typeof loader>();
  // A fresh editor for each page, so an article just created opens with what the server saved.
  if (data.screen === "editor") return <PageEditor key={data.page?.id ?? "new"} page={data.page} />;
  return <PageList items={data.items} />;
}

function PageList({ items }: { items: ContentListItem[] }) {
  const pages = items.filter((item) => item.kind === "page");
  const posts = items.filter((item) => item.kind === "post");
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Blog and pages</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Written as plain text, with a few marks for headings, bold and links (each page's editor shows how,
        and a preview beside it). A published change shows on the shop, its search listing and the sitemap as
        soon as it is saved; a draft is seen only here.
      </p>

      <section aria-labelledby="pages-blog" className="mt-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="pages-blog" className="font-serif text-xl font-semibold">
            Blog articles
          </h2>
          <Link to="/admin/pages/new" className={buttonClass({ size: "sm" })}>
            New article
          </Link>
        </div>
        {posts.length === 0 ? (
          <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">No articles yet.</p>
        ) : (
          <ItemList items={posts} label="Blog articles" />
        )}
      </section>

      <section aria-labelledby="pages-fixed" className="mt-8">
        <h2 id="pages-fixed" className="font-serif text-xl font-semibold">
          Policy and contact pages
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          The footer links to these, so they are always published: edit their text, they cannot be deleted.
        </p>
        <ItemList items={pages} label="Policy and contact pages" />
      </section>
    </div>
  );
}
