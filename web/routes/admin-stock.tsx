import { useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator, useSearchParams } from "react-router";
import type { StockItem, StockList } from "../../common/orders.ts";
import { Button } from "../components/button.tsx";
import { controlClass } from "../components/field.tsx";
import { RouteError } from "../components/route-error.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  return api<StockList>("/admin/stock");
}

export const ErrorBoundary = RouteError;

export function Component() {
  const { items, lowStockThreshold } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const lowOnly = params.get("low") === "1";
  const shown = lowOnly ? items.filter((item) => item.low) : items;
  const lowCount = items.filter((item) => item.low).length;
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">Stock</h1>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {lowCount} item{lowCount === 1 ? "" : "s"} at or below {lowStockThreshold} units are flagged low.{" "}
        {lowOnly ? (
          <Link to="/admin/stock" className="underline">
            Show all
          </Link>
        ) : (
          <Link to="?low=1" className="underline">
            Show only low stock
          </Link>
        )}
      </p>
      {/* One line per item on a wide screen; on a phone each wraps into a small card, field and button below the name. */}
      <ul
        aria-label="Stock"
        className="mt-4 divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white dark:divide-stone-700 dark:border-stone-700 dark:bg-stone-900"
      >
        {shown.map((item) => (
          <StockRow key={`${item.kind}-${item.id}-${item.stock}`} item={item} />
        ))}
      </ul>
    </div>
  );
}

/** The item's name, kind, and whether it is sold and running low. */
function StockItemLabel({ item }: { item: StockItem }) {
  return (
    <div className="min-w-0 flex-1 basis-48">
      <p className="font-medium break-words">{item.name}</p>
      <p className="mt-0.5 flex flex-wrap gap-x-2 gap-y-1 text-xs text-stone-600 dark:text-stone-400">
        <span className="capitalize">{item.kind}</span>
        {!item.active && <span>not sold</span>}
        {item.low && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
            {item.stock === 0 ? "Out of stock" : "Low stock"}
          </span>
        )}
      </p>
    </div>
  );
}

function StockRow({ item }: { item: StockItem }) {
  const revalidator = useRevalidator();
  const [value, setValue] = useState(String(item.stock));
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const inputId = `stock-${item.kind}-${item.id}`;
  const changed = value !== String(item.stock);

  async function save() {
    const stock = Number(value);
    if (!Number.isInteger(stock) || stock < 0) {
      setMessage({ kind: "error", text: "Enter a whole number, 0 or more." });
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      await api(`/admin/stock/${item.kind}/${item.id}`, {
        method: "PUT",
        body: { stock, previousStock: item.stock },
      });
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: isApiError(caught) ? caught.message : "Could not save." });
      if (isApiError(caught) && caught.status === 409) revalidator.revalidate();
    } finally {
      setSaving(false);
    }
  }

  return (
    <li className="flex flex-wrap items-start gap-x-3 gap-y-2 p-3">
      <StockItemLabel item={item} />
      <div className="flex items-start gap-2">
        <div>
          <label htmlFor={inputId} className="sr-only">
            Stock of {item.name}
          </label>
          <input
            id={inputId}
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && changed) save();
            }}
            aria-describedby={message ? `${inputId}-message` : undefined}
            className={`${controlClass} mt-0 w-24 sm:w-28`}
          />
          {message && (
            <p
              id={`${inputId}-message`}
              role="alert"
              className="mt-1 max-w-48 text-xs text-red-700 dark:text-red-400"
            >
              {message.text}
            </p>
          )}
        </div>
        <Button type="button" variant="secondary" disabled={!changed || saving} onClick={save}>
          {saving ? "Saving…" : `Save`}
          <span className="sr-only"> stock of {item.name}</span>
        </Button>
      </div>
    </li>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: stock") };
