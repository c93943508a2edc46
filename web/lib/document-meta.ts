import { useEffect } from "react";

/** "Face Glow Oil | Prakriti Naturals" */
export const pageTitle = (title: string, shopName: string) => `${title} | ${shopName}`;

/**
 * Sets the tab title and the meta description while a screen is shown, and puts back
 * index.html's when it goes, so a screen without its own never shows a stale one.
 */
export function useDocumentMeta({ title, description }: { title: string; description?: string }) {
  useEffect(() => {
    const previousTitle = document.title;
    const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    const previousDescription = meta?.content;
    document.title = title;
    if (meta && description) meta.content = description;
    return () => {
      document.title = previousTitle;
      if (meta && previousDescription !== undefined) meta.content = previousDescription;
    };
  }, [title, description]);
}
