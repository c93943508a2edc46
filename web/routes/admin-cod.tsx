import { type FormEvent, useState } from "react";
import { Form, Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import {
  type CodCollectedRow,
  type CodOrderRow,
  type CodSummary,
  REMITTANCE_PROBLEM_LABELS,
  type RemittanceImportResult,
} from "../../common/cod.ts";
import { formatDate } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Input } from "../components/field.tsx";
import { CodTabs, PeriodFields } from "../features/cod/cod-tabs.tsx";
import { api, isApiError, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  const params = new URL(request.url).searchParams;
  return api<CodSummary>(`/admin/cod${toQuery({ from: params.get("from"), to: params.get("to") })}`);
}

export const handle: RouteHandle = { meta: privatePage("Admin: cash on delivery") };

/**
 * Cash on delivery counted (docs/decisions/059): what couriers owe the shop for delivered COD parcels, what
 * is overdue, and what came in over a period; the courier's remittance report is imported here.
 */
export function Component() {
  const summary = useLoaderData<typeof loader>();
  return (
    <div>
      <CodTabs />
      <h1 className="font-serif text-3xl font-semibold">Cash on delivery</h1>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        A delivered cash-on-delivery order is cash to collect until it is recorded, here from the courier's
        remittance report or by hand on the order. It is overdue {summary.overdueDays} days after delivery.
      </p>
      <dl className="mt-4 grid gap-3 sm:grid-cols-3">
        <Figure label="Expected" count={summary.expected.count} paise={summary.expected.totalPaise} />
        <Figure
          label={`Overdue (over ${summary.overdueDays} days)`}
          count={summary.overdue.count}
          paise={summary.overdue.totalPaise}
          warn={summary.overdue.count > 0}
        />
        <Figure
          label={`Collected ${formatDate(summary.from)} – ${formatDate(summary.to)}`}
          count={summary.collected.count}
          paise={summary.collected.totalPaise}
        />
      </dl>
      <ImportForm />
      <OrderList title="Overdue" orders={summary.overdue.orders} count={summary.overdue.count} />
      <OrderList title="Expected" orders={summary.expected.orders} count={summary.expected.count} />
      <section aria-labelledby="cod-collected" className="mt-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="cod-collected" className="font-serif text-xl font-semibold">
            Collected
          </h2>
          <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Collected in a period">
            <PeriodFields period={summary} />
            <Button type="submit" variant="secondary">
              Show
            </Button>
          </Form>
        </div>
        <CollectedList rows={summary.collected.rows} count={summary.collected.count} />
      </section>
    </div>
  );
}

function Figure({
  label,
  count,
  paise,
  warn,
}: {
  label: string;
  count: number;
  paise: number;
  warn?: boolean;
}) {
  return (
    <div className={`${cardClass} ${warn ? "border-amber-400 dark:border-amber-600" : ""}`}>
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{formatRupees(paise)}</dd>
      <dd className="text-sm text-stone-600 dark:text-stone-400">
        {count} {count === 1 ? "order" : "orders"}
      </dd>
    </div>
  );
}

const moreNote = (shown: number, count: number) =>
  count > shown && (
    <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
      The first {shown} of {count} are shown; the totals above count them all.
    </p>
  );

function OrderList({ title, orders, count }: { title: string; orders: CodOrderRow[]; count: number }) {
  const id = `cod-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="mt-6">
      <h2 id={id} className="font-serif text-xl font-semibold">
        {title}
      </h2>
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">None.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-200 rounded-lg border border-stone-200 dark:divide-stone-700 dark:border-stone-700">
          {orders.map((order) => (
            <li
              key={order.number}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3"
            >
              <div className="min-w-0">
                <Link to={`/admin/orders/${order.number}`} className="font-mono font-medium underline">
                  {order.number}
                </Link>
                <p className="text-sm break-words text-stone-600 dark:text-stone-400">
                  {order.shipName}, {order.shipPin} · delivered {formatDate(order.deliveredAt)}
                  {order.awb && <span className="font-mono"> · AWB {order.awb}</span>}
                </p>
              </div>
              <span className="font-semibold tabular-nums">{formatRupees(order.totalPaise)}</span>
            </li>
          ))}
        </ul>
      )}
      {moreNote(orders.length, count)}
    </section>
  );
}

function CollectedList({ rows, count }: { rows: CodCollectedRow[]; count: number }) {
  if (rows.length === 0) {
    return (
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">No cash recorded in this period.</p>
    );
  }
  return (
    <>
      <ul className="mt-2 divide-y divide-stone-200 rounded-lg border border-stone-200 dark:divide-stone-700 dark:border-stone-700">
        {rows.map((row) => (
          <li key={row.number} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3">
            <div className="min-w-0">
              <Link to={`/admin/orders/${row.number}`} className="font-mono font-medium underline">
                {row.number}
              </Link>
              <p className="text-sm break-words text-stone-600 dark:text-stone-400">
                {row.shipName} · {formatDate(row.collectedOn)} · ref{" "}
                <span className="font-mono">{row.reference}</span>
                {row.source === "import" ? " · imported" : " · by hand"}
              </p>
            </div>
            <span className="font-semibold tabular-nums">{formatRupees(row.amountPaise)}</span>
          </li>
        ))}
      </ul>
      {moreNote(rows.length, count)}
    </>
  );
}

/** What an import recorded, and each row it did not apply with its reason. */
function ImportResult({ result }: { result: RemittanceImportResult }) {
  return (
    <div role="status" className="mt-3 text-sm">
      <p className="font-medium">
        {result.matched.length} recorded ({formatRupees(result.recordedPaise)}), {result.mismatched.length}{" "}
        not applied.
      </p>
      {result.mismatched.length > 0 && (
        <ul className="mt-2 space-y-1" aria-label="Rows not applied">
          {result.mismatched.map((row) => (
            <li key={row.line} className="rounded bg-amber-50 p-2 break-words dark:bg-amber-900/30">
              <span className="font-medium">
                Line {row.line}: {row.problem ? REMITTANCE_PROBLEM_LABELS[row.problem] : ""}
              </span>{" "}
              — {row.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The courier's remittance report: read in the browser and sent as text; the answer lists every row. */
function ImportForm() {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<RemittanceImportResult | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("file");
    if (!(file instanceof File) || file.size === 0) {
      setError("Choose the remittance report (a CSV file).");
      return;
    }
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const answer = await api<RemittanceImportResult>("/admin/cod/remittances", {
        method: "POST",
        body: { csv: await file.text() },
      });
      setResult(answer);
      revalidator.revalidate();
    } catch (caught) {
      if (!isApiError(caught)) throw caught;
      setError(caught.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="cod-import" className={`${cardClass} mt-6`}>
      <h2 id="cod-import" className="font-serif text-xl font-semibold">
        Import a remittance report
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        A CSV whose first line names its columns: the AWB or order number, the amount in rupees, the date and
        the reference (UTR or remittance id). Only rows that match a delivered cash-on-delivery order of that
        amount are recorded; importing the same file again records nothing twice.
      </p>
      <form
        onSubmit={submit}
        className="mt-3 flex flex-wrap items-end gap-3"
        aria-label="Import a remittance report"
      >
        <Field label="Report (CSV)" className="min-w-0 flex-1">
          <Input type="file" name="file" accept=".csv,text/csv" className="text-sm" />
        </Field>
        <Button type="submit" disabled={busy}>
          Import
        </Button>
      </form>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {result && <ImportResult result={result} />}
    </section>
  );
}
