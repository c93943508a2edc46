import { useState } from "react";
import { Form, Link, useRevalidator } from "react-router";
import {
  changePercent,
  refundRowsOf,
  type SalesFigures,
  type SalesPeriod,
  type SalesTable,
  type SalesTotals,
} from "../../../common/analytics.ts";
import { formatDate } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { api, toQuery } from "../../lib/api.ts";
import { BarRows, DailyColumns, FiguresTable } from "./charts.tsx";

const count = new Intl.NumberFormat("en-IN");

const PERIODS: { key: Exclude<SalesPeriod, "range">; label: string }[] = [
  { key: "today", label: "Today" },
  { key: "7d", label: "7 days" },
  { key: "30d", label: "30 days" },
];

const METHOD_LABELS = { cod: "Cash on delivery", razorpay: "Paid online" } as const;

const shareOf = (part: number, whole: number) => (whole ? `${Math.round((part * 100) / whole)} %` : "–");

function Change({ now, before, money }: { now: number; before: number; money?: boolean }) {
  const percent = changePercent(now, before);
  const was = money ? formatRupees(Math.round(before / 100) * 100) : count.format(before);
  if (percent === null) return <span>none the period before</span>;
  const word = percent > 0 ? "up" : percent < 0 ? "down" : "level";
  return (
    <span>
      <span
        className={
          percent > 0
            ? "font-medium text-emerald-700 dark:text-emerald-300"
            : percent < 0
              ? "font-medium text-red-700 dark:text-red-300"
              : "font-medium"
        }
      >
        {percent > 0 ? "▲" : percent < 0 ? "▼" : "="} {Math.abs(percent)} %
      </span>{" "}
      <span className="sr-only">{word} </span>
      against {was}
    </span>
  );
}

function Headline({ totals, before }: { totals: SalesTotals; before: SalesTotals }) {
  const figures = [
    {
      label: "Net sales",
      value: formatRupees(totals.salesPaise),
      now: totals.salesPaise,
      was: before.salesPaise,
      money: true,
    },
    {
      label: "Orders",
      value: count.format(totals.orders),
      now: totals.orders,
      was: before.orders,
      money: false,
    },
    {
      label: "Average order value",
      // Whole rupees: paise in an average are noise.
      value: formatRupees(Math.round(totals.averagePaise / 100) * 100),
      now: totals.averagePaise,
      was: before.averagePaise,
      money: true,
    },
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      {figures.map((figure) => (
        <div key={figure.label} className={cardClass}>
          <dt className="text-sm text-stone-600 dark:text-stone-400">{figure.label}</dt>
          <dd className="mt-1 text-2xl font-semibold">{figure.value}</dd>
          <dd className="mt-1 text-xs text-stone-600 dark:text-stone-400">
            <Change now={figure.now} before={figure.was} money={figure.money} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Panel({
  id,
  title,
  children,
  wide,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
  wide?: boolean;
}) {
  return (
    <section aria-labelledby={id} className={`${cardClass} ${wide ? "lg:col-span-2" : ""} min-w-0`}>
      <h3 id={id} className="mb-3 font-serif text-lg font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function PeriodPicker({ figures }: { figures: SalesFigures }) {
  const current = figures.period.key;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <nav aria-label="Period" className="flex flex-wrap gap-2">
        {PERIODS.map((period) => (
          <Link
            key={period.key}
            to={`/admin${toQuery({ period: period.key })}`}
            aria-current={current === period.key ? "page" : undefined}
            preventScrollReset
            className={`inline-flex min-h-11 items-center rounded-lg border px-3 text-sm font-medium ${
              current === period.key
                ? "border-brand-700 bg-brand-700 text-white dark:border-brand-100 dark:bg-brand-100 dark:text-brand-900"
                : "border-stone-300 bg-white hover:bg-stone-100 dark:border-stone-600 dark:bg-stone-900 dark:hover:bg-stone-800"
            }`}
          >
            {period.label}
          </Link>
        ))}
      </nav>
      <Form method="get" action="/admin" preventScrollReset className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="period" value="range" />
        <label className="text-sm">
          <span className="block text-stone-600 dark:text-stone-400">From</span>
          <input
            type="date"
            name="from"
            required
            defaultValue={figures.period.from}
            className="min-h-11 rounded-lg border border-stone-300 bg-white px-2 dark:border-stone-600 dark:bg-stone-900"
          />
        </label>
        <label className="text-sm">
          <span className="block text-stone-600 dark:text-stone-400">To</span>
          <input
            type="date"
            name="to"
            required
            defaultValue={figures.period.to}
            className="min-h-11 rounded-lg border border-stone-300 bg-white px-2 dark:border-stone-600 dark:bg-stone-900"
          />
        </label>
        <Button type="submit" variant={current === "range" ? "primary" : "secondary"} size="sm">
          Show range
        </Button>
      </Form>
    </div>
  );
}

function ShareWithStaff({ shared }: { shared: boolean }) {
  const revalidator = useRevalidator();
  const [saying, setSaying] = useState("");
  const [busy, setBusy] = useState(false);
  // Shown at once as ticked or not; put back if the save fails.
  const [on, setOn] = useState(shared);
  const change = async (allowed: boolean) => {
    setBusy(true);
    setOn(allowed);
    try {
      await api("/admin/analytics/settings", { method: "PUT", body: { staffSeeSales: allowed } });
      setSaying(allowed ? "Staff now see these figures." : "Only owners see these figures now.");
      await revalidator.revalidate();
    } catch {
      setOn(!allowed);
      setSaying("Not saved: try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="text-sm">
      <label className="inline-flex min-h-11 cursor-pointer items-center gap-2">
        <input
          type="checkbox"
          className="size-5"
          checked={on}
          disabled={busy}
          onChange={(event) => void change(event.currentTarget.checked)}
        />
        Staff see these sales figures too
      </label>
      <p role="status" className="text-stone-600 dark:text-stone-400">
        {saying}
      </p>
    </div>
  );
}

/**
 * "Sales at a glance" (issue 44, docs/decisions/080): the period against the one before, sales per day, what
 * sold, where, to whom, how it was paid, what the codes cost and what went back. Every chart has its figures
 * in a table and each table a CSV download of the same rows.
 */
export default function SalesAtAGlance({
  figures,
  staffSeeSales,
  canShare,
}: {
  figures: SalesFigures;
  staffSeeSales: boolean;
  canShare: boolean;
}) {
  const { period, previous } = figures;
  const query = toQuery({
    period: period.key,
    from: period.key === "range" ? period.from : undefined,
    to: period.key === "range" ? period.to : undefined,
  });
  const csv = (table: SalesTable) => `/api/admin/analytics/sales/${table}.csv${query}`;
  const paymentTotal = figures.payments.reduce((sum, row) => sum + row.orders, 0);
  const best = figures.byDay.reduce((top, day) => (day.salesPaise > top.salesPaise ? day : top), {
    date: "",
    orders: 0,
    salesPaise: 0,
  });
  const span =
    period.from === period.to
      ? formatDate(period.from)
      : `${formatDate(period.from)} – ${formatDate(period.to)}`;
  const before =
    previous.from === previous.to
      ? formatDate(previous.from)
      : `${formatDate(previous.from)} – ${formatDate(previous.to)}`;
  return (
    <section aria-labelledby="sales-glance" className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="sales-glance" className="font-serif text-xl font-semibold">
            Sales at a glance
          </h2>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {span}, against {before}. Sales are what shoppers paid, GST and delivery included, for orders not
            cancelled, unpaid, returned or refunded; the figure net of GST is under “Refunds, credit notes and
            GST”.
          </p>
        </div>
        {canShare ? <ShareWithStaff shared={staffSeeSales} /> : null}
      </div>
      <PeriodPicker figures={figures} />
      <Headline totals={figures.totals} before={figures.previousTotals} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel id="sales-by-day" title="Sales by day" wide>
          <DailyColumns
            days={figures.byDay}
            summary={`Sales per day, ${span}: ${formatRupees(figures.totals.salesPaise)} in all${
              best.salesPaise > 0
                ? `, highest ${formatRupees(best.salesPaise)} on ${formatDate(best.date)}`
                : ""
            }.`}
          />
          <FiguresTable
            caption="Orders and sales per day"
            head={["Day", "Orders", "Sales"]}
            rows={figures.byDay.map((day) => [
              formatDate(day.date),
              count.format(day.orders),
              formatRupees(day.salesPaise),
            ])}
            csvHref={csv("days")}
          />
        </Panel>
        <Panel id="sales-items" title="Top products and combos">
          {figures.items.length === 0 ? (
            <p className="text-sm">Nothing sold in this period.</p>
          ) : (
            <>
              <BarRows
                summary="Revenue by product and combo, highest first; the table has the units too."
                rows={figures.items.slice(0, 8).map((item) => ({
                  key: `${item.kind}-${item.itemId}`,
                  label: item.name,
                  value: item.revenuePaise,
                  shown: formatRupees(item.revenuePaise),
                }))}
              />
              <FiguresTable
                caption="Products and combos by revenue, with units sold"
                head={["Item", "Units", "Revenue"]}
                rows={figures.items.map((item) => [
                  `${item.name}${item.kind === "combo" ? " (combo)" : ""}`,
                  count.format(item.units),
                  formatRupees(item.revenuePaise),
                ])}
                csvHref={csv("items")}
              />
              <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
                Revenue is each line's price before the order's discount code.
              </p>
            </>
          )}
        </Panel>
        <Panel id="sales-states" title="Sales by state">
          {figures.states.length === 0 ? (
            <p className="text-sm">No sales in this period.</p>
          ) : (
            <>
              <BarRows
                summary="Sales by delivery state, highest first."
                rows={figures.states.slice(0, 8).map((row) => ({
                  key: row.state,
                  label: row.state,
                  value: row.salesPaise,
                  shown: formatRupees(row.salesPaise),
                }))}
              />
              <FiguresTable
                caption="Orders and sales by delivery state"
                head={["State", "Orders", "Sales"]}
                rows={figures.states.map((row) => [
                  row.state,
                  count.format(row.orders),
                  formatRupees(row.salesPaise),
                ])}
                csvHref={csv("states")}
              />
            </>
          )}
        </Panel>
        <Panel id="sales-customers" title="New and returning shoppers">
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-stone-600 dark:text-stone-400">Bought in the period</dt>
              <dd className="text-xl font-semibold">{count.format(figures.customers.customers)}</dd>
            </div>
            <div>
              <dt className="text-stone-600 dark:text-stone-400">Repeat rate</dt>
              <dd className="text-xl font-semibold">{figures.customers.repeatRatePercent} %</dd>
            </div>
            <div>
              <dt className="text-stone-600 dark:text-stone-400">New</dt>
              <dd className="text-xl font-semibold">{count.format(figures.customers.newCustomers)}</dd>
            </div>
            <div>
              <dt className="text-stone-600 dark:text-stone-400">Returning</dt>
              <dd className="text-xl font-semibold">{count.format(figures.customers.returning)}</dd>
            </div>
          </dl>
          <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            Returning: bought before this period. Repeat rate: the share of these shoppers who have bought
            more than once.
          </p>
        </Panel>
        <Panel id="sales-payments" title="Cash on delivery and prepaid">
          <BarRows
            summary="Orders by way of payment."
            rows={figures.payments.map((row) => ({
              key: row.method,
              label: METHOD_LABELS[row.method],
              value: row.orders,
              shown: `${shareOf(row.orders, paymentTotal)} of orders`,
            }))}
          />
          <FiguresTable
            caption="Orders and sales by way of payment"
            head={["Payment", "Orders", "Share", "Sales"]}
            rows={figures.payments.map((row) => [
              METHOD_LABELS[row.method],
              count.format(row.orders),
              shareOf(row.orders, paymentTotal),
              formatRupees(row.salesPaise),
            ])}
            csvHref={csv("payments")}
          />
        </Panel>
        <Panel id="sales-codes" title="Discount codes">
          {figures.codes.length === 0 ? (
            <p className="text-sm">No code was used in this period.</p>
          ) : (
            <FiguresTable
              open
              caption="Discount codes used and what they cost"
              head={["Code", "Orders", "Cost", "Sales"]}
              rows={figures.codes.map((row) => [
                row.code,
                count.format(row.orders),
                formatRupees(row.discountPaise),
                formatRupees(row.salesPaise),
              ])}
              csvHref={csv("codes")}
            />
          )}
        </Panel>
        <Panel id="sales-back" title="Refunds, credit notes and GST">
          <FiguresTable
            open
            caption="Refunds and credit notes issued in the period"
            head={["Money back", "Count", "Amount"]}
            rows={refundRowsOf(figures).map((row) => [
              row.label,
              count.format(row.orders),
              formatRupees(row.amountPaise),
            ])}
            csvHref={csv("refunds")}
          />
          <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
            Refunds as the money records say, on the day the money went back. Net sales already leave out a
            refunded order and count an edited one at its lowered total. Count: orders, or credit notes.
          </p>
          <h4 className="mt-4 text-sm font-semibold">GST</h4>
          <dl className="mt-1 space-y-2 text-sm">
            <div className="flex justify-between gap-3">
              <dt>Taxable value invoiced, net of GST</dt>
              <dd className="font-medium">{formatRupees(figures.taxable.invoicedPaise)}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt>Less credit notes, net of GST</dt>
              <dd className="font-medium">{formatRupees(figures.taxable.creditedPaise)}</dd>
            </div>
            <div className="flex justify-between gap-3 border-t border-stone-200 pt-2 dark:border-stone-700">
              <dt className="font-medium">Net taxable sales</dt>
              <dd className="font-semibold">{formatRupees(figures.taxable.netPaise)}</dd>
            </div>
          </dl>
          <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            As the tax invoices and credit notes issued in the period say, the way the GST returns count them.
          </p>
        </Panel>
      </div>
    </section>
  );
}
