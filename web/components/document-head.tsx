import { useEffect, useRef } from "react";
import { useLocation, useMatches } from "react-router";
import { describePage, HEAD_TAG_MARK, headTags } from "../lib/document-head.ts";
import { HYDRATION_DATA_ID } from "../lib/hydration.ts";
import { useShopData } from "../lib/shop-data.ts";

/**
 * Keeps <title> and the page's meta, canonical and JSON-LD tags in step with the page shown. The server
 * wrote the same tags into the HTML (web/entry-server.tsx), from the same route handles.
 */
export function DocumentHead() {
  const { pathname } = useLocation();
  const { config } = useShopData();
  const meta = describePage(useMatches(), pathname);
  const tags = headTags(meta, config.publicUrl, pathname);
  const key = JSON.stringify([meta.title, tags]);
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for title and tags, rebuilt every render
  useEffect(() => {
    // A page the server rendered has its head already, JSON-LD included, which only the server makes.
    const rendered = first.current && document.getElementById(HYDRATION_DATA_ID) !== null;
    first.current = false;
    if (rendered) return;
    document.title = meta.title;
    for (const old of document.head.querySelectorAll(`[${HEAD_TAG_MARK}]`)) old.remove();
    for (const tag of tags) {
      const element = document.createElement(tag.tag);
      for (const [name, value] of Object.entries(tag.attrs)) element.setAttribute(name, value);
      element.setAttribute(HEAD_TAG_MARK, "");
      document.head.append(element);
    }
  }, [key]);
  return null;
}
