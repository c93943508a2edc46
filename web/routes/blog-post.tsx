import { data, Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { Breadcrumbs } from "../components/breadcrumbs.tsx";
import { formatPostDate } from "../features/blog/format-post-date.ts";
import { ContentArticle } from "../features/content/content-article.tsx";
import { loadPosts, loadPublished } from "../features/content/content-pages.ts";
import { fillHtmlPlaceholders, fillPlaceholders } from "../features/content/placeholders.ts";
import { pageTitle, type RouteHandle, shopImage } from "../lib/document-head.ts";
import { getShopConfig } from "../lib/shop-config.ts";

export async function loader({ params }: LoaderFunctionArgs) {
  const [config, found, posts] = await Promise.all([
    getShopConfig(),
    loadPublished("post", params.slug ?? ""),
    loadPosts(),
  ]);
  const others = posts
    .filter((post) => post.slug !== found?.slug)
    .map(({ slug, title, publishedOn }) => ({
      slug,
      title: fillPlaceholders(title, config),
      date: publishedOn,
    }));
  if (!found) return data({ post: null, others, shopName: config.shopName }, { status: 404 });
  const post = {
    title: fillPlaceholders(found.title, config),
    description: fillPlaceholders(found.description, config),
    date: found.publishedOn ?? "",
    author: fillPlaceholders(found.author ?? "", config),
    html: fillHtmlPlaceholders(found.html, config),
  };
  return { post, others, shopName: config.shopName };
}

const linkClass =
  "rounded underline decoration-stone-400 underline-offset-2 hover:text-brand-700 dark:hover:text-brand-100";

function OtherPosts({
  heading,
  posts,
}: {
  heading: string;
  posts: { slug: string; title: string; date: string }[];
}) {
  return (
    <section
      aria-labelledby="other-posts-heading"
      className="mt-12 border-t border-stone-200 pt-6 dark:border-stone-800"
    >
      <h2 id="other-posts-heading" className="font-serif text-xl font-semibold">
        {heading}
      </h2>
      <ul className="mt-3 space-y-2">
        {posts.map((post) => (
          <li key={post.slug}>
            <Link to={`/blog/${post.slug}`} className={linkClass}>
              {post.title}
            </Link>{" "}
            <span className="text-sm whitespace-nowrap text-stone-600 dark:text-stone-400">
              <time dateTime={post.date}>{formatPostDate(post.date)}</time>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-6">
        <Link to="/blog" className={linkClass}>
          All articles
        </Link>
      </p>
    </section>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export const handle: RouteHandle<LoaderData> = {
  meta: ({ data: { post }, shop: { config, combos } }) => {
    if (!post) return { title: pageTitle("Article not found", config.shopName), noindex: true };
    return {
      title: pageTitle(post.title, config.shopName),
      description: post.description,
      type: "article",
      image: shopImage(combos),
      structuredData: [
        {
          type: "breadcrumbs",
          steps: [{ name: "Home", path: "/" }, { name: "Blog", path: "/blog" }, { name: post.title }],
        },
      ],
    };
  },
};

export function Component() {
  const { post, others } = useLoaderData<typeof loader>();
  const trail = [
    { label: "Home", to: "/" },
    { label: "Blog", to: "/blog" },
  ];
  if (!post) {
    return (
      <div className="mx-auto max-w-3xl">
        <Breadcrumbs items={[...trail, { label: "Not found" }]} />
        <h1 className="font-serif text-3xl font-semibold">We couldn't find that article</h1>
        <p className="mt-3 text-stone-700 dark:text-stone-300">
          It may have moved. These are the articles on our blog:
        </p>
        <OtherPosts heading="Our articles" posts={others} />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl">
      <Breadcrumbs items={[...trail, { label: post.title }]} />
      <ContentArticle
        title={post.title}
        html={post.html}
        byline={
          <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
            {/* "By the Prakriti Naturals team", not "By The …": a name starting with "The" reads mid-sentence. */}
            By {post.author.replace(/^The /, "the ")} ·{" "}
            <time dateTime={post.date}>{formatPostDate(post.date)}</time>
          </p>
        }
      />
      <OtherPosts heading="More from our blog" posts={others} />
    </div>
  );
}
