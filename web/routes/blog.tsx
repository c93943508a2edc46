import { Link, useLoaderData } from "react-router";
import { Breadcrumbs } from "../components/breadcrumbs.tsx";
import { formatPostDate } from "../features/blog/format-post-date.ts";
import { loadPosts } from "../features/content/content-pages.ts";
import { fillPlaceholders } from "../features/content/placeholders.ts";
import { pageTitle, type RouteHandle, shopImage } from "../lib/document-head.ts";
import { getShopConfig } from "../lib/shop-config.ts";

export async function loader() {
  const [config, posts] = await Promise.all([getShopConfig(), loadPosts()]);
  return {
    shopName: config.shopName,
    posts: posts.map(({ slug, title, description, publishedOn, author }) => ({
      slug,
      title: fillPlaceholders(title, config),
      description: fillPlaceholders(description, config),
      date: publishedOn,
      author: fillPlaceholders(author, config),
    })),
  };
}

export const handle: RouteHandle = {
  meta: ({ shop: { config, combos } }) => ({
    title: pageTitle("Blog", config.shopName),
    description: "Guides to natural hair care, skin care, bath powders and traditional Indian nutrition.",
    image: shopImage(combos),
    structuredData: [{ type: "breadcrumbs", steps: [{ name: "Home", path: "/" }, { name: "Blog" }] }],
  }),
};

export function Component() {
  const { shopName, posts } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Blog" }]} />
      <h1 className="font-serif text-3xl font-semibold sm:text-4xl">Blog</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        Practical guides to natural hair care, skin care and traditional Indian food, from the {shopName}{" "}
        team.
      </p>
      <ol className="mt-8 space-y-5">
        {posts.map((post) => (
          <li key={post.slug}>
            <article className="relative rounded-xl border border-stone-200 bg-white p-5 shadow-sm transition hover:shadow-md dark:border-stone-800 dark:bg-stone-900">
              <p className="text-sm text-stone-600 dark:text-stone-400">
                <time dateTime={post.date}>{formatPostDate(post.date)}</time> · {post.author}
              </p>
              <h2 className="mt-1 font-serif text-xl font-semibold sm:text-2xl">
                <Link
                  to={`/blog/${post.slug}`}
                  className="after:absolute after:inset-0 after:content-[''] hover:text-brand-700 dark:hover:text-brand-100"
                >
                  {post.title}
                </Link>
              </h2>
              <p className="mt-2 text-stone-700 dark:text-stone-300">{post.description}</p>
            </article>
          </li>
        ))}
      </ol>
    </div>
  );
}
