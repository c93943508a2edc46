import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * After a move to another page in the browser, focus goes to the new page's main heading, so a keyboard
 * or screen-reader user starts there instead of at the top of the header. The first page of a visit,
 * and changes of the query or hash alone (filters, pages of the grid, sections), leave focus alone, and so
 * does a page that has put focus on one of its own fields (the e-mail link page's address field).
 */
export function FocusPageHeading() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (document.activeElement?.closest("main")) return;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (!heading) return;
    heading.tabIndex = -1; // focusable from script, not a stop of the Tab key
    heading.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}
