import type { ContentKind, PostSummary, PublishedContent } from "../../../common/schemas/content-pages.ts";
import { api, isApiError } from "../../lib/api.ts";

/** A published page or article, or null when there is none (or it is a draft). */
export async function loadPublished(kind: ContentKind, slug: string): Promise<PublishedContent | null> {
  try {
    return await api<PublishedContent>(
      `/content/${kind === "post" ? "posts" : "pages"}/${encodeURIComponent(slug)}`,
    );
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** The published articles, newest first. */
export async function loadPosts(): Promise<PostSummary[]> {
  return (await api<{ posts: PostSummary[] }>("/content/posts")).posts;
}
