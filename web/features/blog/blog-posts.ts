import type { MarkdownDocument } from "../../lib/markdown-document.ts";

export type BlogPost = Required<MarkdownDocument> & { slug: string };

// Four articles of a few kilobytes each: one chunk holds them all, for the index and every article.
const modules = import.meta.glob<MarkdownDocument>("../../../content/blog/*.md", { eager: true });

/** Newest first; the slug is the file name. */
export const blogPosts: BlogPost[] = Object.entries(modules)
  .map(([file, post]) => ({
    slug: file.slice(file.lastIndexOf("/") + 1, -".md".length),
    title: post.title,
    description: post.description,
    html: post.html,
    date: post.date ?? "",
    author: post.author ?? "",
  }))
  .sort((a, b) => b.date.localeCompare(a.date) || a.title.localeCompare(b.title, "en"));

export const findBlogPost = (slug: string) => blogPosts.find((post) => post.slug === slug);
