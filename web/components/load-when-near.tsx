import { type ReactNode, Suspense, useEffect, useRef, useState, useSyncExternalStore } from "react";

type LoadWhenNearProps = {
  /** Lazily loaded content: it is rendered, and so downloaded, only once its place comes near. */
  children: ReactNode;
  /** Holds the room the content will take, so nothing jumps when it arrives. */
  placeholderClassName: string;
  /** Render it now, wherever it is: for instance when the address points inside it. */
  now?: boolean;
  /**
   * Wait, even when near, until every other placeholder on the page has been filled. For what closes the
   * page (the footer): shown while a section above it is still on its way, it would be pushed down when
   * that section arrives, a jump under the reader's eyes.
   */
  last?: boolean;
};

// A screen's height ahead: by the time a visitor scrolls (or tabs) there, it has arrived.
const AHEAD = "100% 0px";

// How many placeholders (other than the last ones) are showing now.
let waiting = 0;
const listeners = new Set<() => void>();
function setWaiting(change: number) {
  waiting += change;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const nothingWaiting = () => waiting === 0;

/** Content below the fold that a visit which never scrolls there never downloads. */
export function LoadWhenNear({
  children,
  placeholderClassName,
  now = false,
  last = false,
}: LoadWhenNearProps) {
  // Starts as the server rendered it (the server never knows the address's hash), then follows `now`.
  const [near, setNear] = useState(false);
  const placeholder = useRef<HTMLDivElement>(null);
  // The server renders every placeholder, so it never waits.
  const othersFilled = useSyncExternalStore(subscribe, nothingWaiting, () => true);

  useEffect(() => {
    if (now) setNear(true);
  }, [now]);

  useEffect(() => {
    const element = placeholder.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);

  const fallback = <Placeholder ref={placeholder} className={placeholderClassName} counted={!last} />;
  return near && (othersFilled || !last) ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}

function Placeholder({
  ref,
  className,
  counted,
}: {
  ref: React.Ref<HTMLDivElement>;
  className: string;
  counted: boolean;
}) {
  useEffect(() => {
    if (!counted) return;
    setWaiting(1);
    return () => setWaiting(-1);
  }, [counted]);
  // Marked, so a reader's scroll in the tests can tell when everything below has arrived.
  return <div ref={ref} className={className} data-load-when-near="" />;
}
