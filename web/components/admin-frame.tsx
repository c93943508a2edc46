import { type ReactNode, useState } from "react";
import { Link, useActionData } from "react-router";
import { type KeysetPage, type ListTotal, totalFigure } from "../../common/lists.ts";
import type { ListPosition } from "../lib/list-position.ts";

/**
 * The frame of the questions, reviews and messages pages inside the admin layout (whose error boundary
 * answers an account without the role): a title, the page, and the last action's notice.
 */
export function AdminFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h1 className="mb-4 font-serif text-2xl font-semibold">{title}</h1>
      {children}
      <ActionNotice />
    </div>
  );
}

/** Filter tabs as links, so a filtered list has its own address and the back button works. */
export function FilterTabs({
  label,
  options,
  current,
}: {
  label: string;
  options: { value: string; label: string; count?: ListTotal; href: string }[];
  current: string;
}) {
  return (
    <nav aria-label={label} className="mb-4">
      <ul className="flex flex-wrap gap-2">
        {options.map((option) => {
          const active = option.value === current;
          return (
            <li key={option.value}>
              <Link
                to={option.href}
                aria-current={active ? "page" : undefined}
                className={`inline-flex min-h-11 items-center gap-1.5 rounded-full border px-3 text-sm font-medium ${
                  active
                    ? "border-brand-700 bg-brand-700 text-white dark:border-brand-100 dark:bg-brand-100 dark:text-brand-900"
                    : "border-stone-300 bg-white text-stone-800 hover:bg-stone-100 dark:border-stone-600 dark:bg-stone-900 dark:text-stone-200 dark:hover:bg-stone-800"
                }`}
              >
                {option.label}
                {option.count !== undefined && (
                  <span className="tabular-nums">({totalFigure(option.count)})</span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A staff list: a card per item, what to say when there is none, and Newer / Older links by cursor. */
export function AdminList<T extends { id: string }>({
  page,
  empty,
  hrefFor,
  children,
}: {
  page: KeysetPage<T>;
  empty: string;
  hrefFor: (position: ListPosition) => string;
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      {page.items.length === 0 ? (
        <p className="text-stone-700 dark:text-stone-300">{empty}</p>
      ) : (
        <ul className="space-y-4">
          {page.items.map((item) => (
            <li key={item.id}>{children(item)}</li>
          ))}
        </ul>
      )}
      {(page.previous || page.next) && (
        <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-3">
          {page.previous ? (
            <Link to={hrefFor({ before: page.previous })} className="underline">
              ← Newer
            </Link>
          ) : (
            <span />
          )}
          {page.next ? (
            <Link to={hrefFor({ after: page.next })} className="underline">
              Older →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  );
}

/**
 * What the last staff action did, kept in view at the bottom of the screen: the card it came from may
 * have left the list (an approved review leaves "Awaiting approval").
 */
export function ActionNotice() {
  const data = useActionData() as { ok: boolean; notice?: string } | undefined;
  const [dismissed, setDismissed] = useState<unknown>(undefined);
  const notice = data?.ok && dismissed !== data ? data.notice : undefined;
  return (
    <div role="status" className="fixed inset-x-4 bottom-4 z-20 empty:hidden md:right-6 md:left-auto md:w-96">
      {notice && (
        <div className="flex items-start justify-between gap-3 rounded-lg bg-stone-900 p-4 text-white shadow-lg dark:bg-stone-100 dark:text-stone-900">
          <p>{notice}</p>
          <button
            type="button"
            onClick={() => setDismissed(data)}
            className="-m-2 min-h-11 min-w-11 rounded p-2 text-sm font-medium underline"
          >
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
