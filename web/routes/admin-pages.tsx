import { Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { formatDateTime } from "../../common/india-time.ts";
import type { ContentListItem } from "../../common/schemas/content-pages.ts";
import { buttonClass } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { OwnerOnlyError } from "../features/admin/owner-only.tsx";
import { formatPostDate } from "../features/blog/format-post-date.ts";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireOwnerUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOwnerUser(request);
  return (await api<{ items: ContentListItem[] }>("/admin/pages")).items;
}

export const ErrorBoundary = OwnerOnlyError;

export const handle: RouteHandle = { meta: privatePage("Admin: blog and pages") };

/** Where the shop shows it. */
export const shopPath = (item: Pick<ContentListItem, "kind" | "slug">) =>
  item.kind === "post" ? `/blog/${item.slug}` : `/${item.slug}`;

export function StatusBadge({ published }: { published: boolean }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${
        published
          ? "bg-brand-50 text-brand-800 dark:bg-brand-900 dark:text-brand-50"
          : "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
      }`}
    >
      {published ? "Published" : "Draft"}
    </span>
  );
}

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
  const items = useLoaderData<typeof loader>();
  const pages = items.filter((item) => item.kind === "page");
  const posts = items.filter((item) => item.kind === "post");
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Blog and pages</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Written in Markdown. A published change shows on the shop, its search listing and the sitemap as soon
        as it is saved; a draft is seen only here.
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
