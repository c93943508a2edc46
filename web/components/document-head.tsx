import { useEffect, useRef } from "react";
import { useLocation, useMatches } from "react-router";
import { describePage, HEAD_TAG_MARK } from "../lib/document-head.ts";
import { HYDRATION_DATA_ID } from "../lib/hydration.ts";

/**
 * Keeps <title> in step with the page shown. The page's description, canonical, link-preview tags and
 * JSON-LD are for search engines and link previews, which read the server's HTML of each address
 * (web/entry-server.tsx): in the browser they would be work and bytes on every first visit for no reader,
 * so the server's are removed once another page shows, rather than left describing the wrong one.
 */
export function DocumentHead() {
  const { pathname } = useLocation();
  const { title } = describePage(useMatches(), pathname);
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page, even with the same title
  useEffect(() => {
    // A page the server rendered has its head already.
    const rendered = first.current && document.getElementById(HYDRATION_DATA_ID) !== null;
    first.current = false;
    if (rendered) return;
    document.title = title;
    for (const old of document.head.querySelectorAll(`[${HEAD_TAG_MARK}]`)) old.remove();
  }, [title, pathname]);
  return null;
}
