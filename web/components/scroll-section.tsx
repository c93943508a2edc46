import type { ReactNode } from "react";

/**
 * A part of the home page that the header's links scroll to: it takes the focus when scrolled to, so that the
 * next Tab goes on from there, and is named by its heading, whose id is `<id>-heading`.
 */
export function ScrollSection({
  id,
  className,
  children,
}: {
  id: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <section id={id} tabIndex={-1} aria-labelledby={`${id}-heading`} className={className}>
      {children}
    </section>
  );
}
