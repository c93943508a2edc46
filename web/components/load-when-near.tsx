import { type ReactNode, Suspense, useEffect, useRef, useState } from "react";

type LoadWhenNearProps = {
  /** Lazily loaded content: it is rendered, and so downloaded, only once its place comes near. */
  children: ReactNode;
  /** Holds the room the content will take, so nothing jumps when it arrives. */
  placeholderClassName: string;
  /** Render it now, wherever it is: for instance when the address points inside it. */
  now?: boolean;
};

// A screen's height ahead: by the time a visitor scrolls (or tabs) there, it has arrived.
const AHEAD = "100% 0px";

/** Content below the fold that a visit which never scrolls there never downloads. */
export function LoadWhenNear({ children, placeholderClassName, now = false }: LoadWhenNearProps) {
  // Starts as the server rendered it (the server never knows the address's hash), then follows `now`.
  const [near, setNear] = useState(false);
  const placeholder = useRef<HTMLDivElement>(null);

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

  // Marked, so a reader's scroll in the tests can tell when everything below has arrived.
  const fallback = <div ref={placeholder} className={placeholderClassName} data-load-when-near="" />;
  return near ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}
