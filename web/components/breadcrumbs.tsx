import { Link } from "react-router";

export type Crumb = { label: string; to?: string };

/** The trail above a page; the last crumb is the page itself. */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-6 text-sm text-stone-600 dark:text-stone-400">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li
              key={items
                .slice(0, index + 1)
                .map((crumb) => crumb.label)
                .join("/")}
              className="flex items-center gap-2"
            >
              {item.to && !last ? (
                <Link
                  to={item.to}
                  className="rounded underline decoration-stone-400 underline-offset-2 hover:text-stone-900 dark:hover:text-stone-100"
                >
                  {item.label}
                </Link>
              ) : (
                <span
                  aria-current={last ? "page" : undefined}
                  className={last ? "font-medium text-stone-900 dark:text-stone-100" : undefined}
                >
                  {item.label}
                </span>
              )}
              {!last && (
                <span aria-hidden="true" className="text-stone-400 dark:text-stone-500">
                  /
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
