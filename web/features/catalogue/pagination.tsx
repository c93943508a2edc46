import { MAX_PAGE_BUTTONS } from "../../../common/catalogue.ts";
import { pageWindow } from "../../../common/catalogue-rules.ts";
import { ChevronLeftIcon, ChevronRightIcon } from "../../components/icons.tsx";

const buttonClass =
  "inline-flex size-10 items-center justify-center rounded-full border border-stone-300 text-sm font-medium hover:border-brand-600 disabled:cursor-not-allowed disabled:opacity-40 dark:border-stone-700";
const currentClass =
  "border-brand-700 bg-brand-700 text-white hover:border-brand-700 dark:border-brand-100 dark:bg-brand-100 dark:text-brand-900";

/** Previous, at most five page numbers around the current one, next. */
export function Pagination({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Product pages" className="mt-8 flex items-center justify-center gap-2">
      <button
        type="button"
        className={buttonClass}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label="Previous page"
      >
        <ChevronLeftIcon />
      </button>
      {pageWindow(page, pages, MAX_PAGE_BUTTONS).map((number) => (
        <button
          key={number}
          type="button"
          className={`${buttonClass} ${number === page ? currentClass : ""}`}
          aria-current={number === page ? "page" : undefined}
          aria-label={`Page ${number}`}
          onClick={() => onPage(number)}
        >
          {number}
        </button>
      ))}
      <button
        type="button"
        className={buttonClass}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        aria-label="Next page"
      >
        <ChevronRightIcon />
      </button>
    </nav>
  );
}
