import type { AfterTheOrder, RtoRow } from "../../../common/analytics.ts";
import { formatDate } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { cardClass } from "../../components/card.tsx";
import { toQuery } from "../../lib/api.ts";
import { BarRows, Figure, FiguresTable } from "./charts.tsx";

const count = new Intl.NumberFormat("en-IN");

/** Tables show the ten places with the most parcels back; the API sends a few more. */
const TOP = 10;

function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className={`${cardClass} min-w-0`}>
      <h3 id={id} className="mb-3 font-serif text-lg font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

const perThousand = (rate: number) => `${count.format(rate)} per 1,000`;

function PlacesTable({
  caption,
  place,
  rows,
  csvHref,
}: {
  caption: string;
  place: string;
  rows: RtoRow[];
  csvHref: string;
}) {
  return (
    <FiguresTable
      open
      csvHref={csvHref}
      caption={caption}
      head={[place, "Shipped", "Came back", "Per 1,000", "Cost"]}
      rows={rows
        .slice(0, TOP)
        .map((row) => [
          row.key,
          count.format(row.shipped),
          count.format(row.returned),
          count.format(row.ratePerMille),
          formatRupees(row.costPaise),
        ])}
    />
  );
}

/**
 * "After the order" (issue 44, docs/decisions/080): for the period the owner chose above, the parcels that came
 * back and what they cost, how the cash-on-delivery confirmations ended, and the cash of delivered COD orders
 * against what is recorded collected. Same rule of who sees it as the sales: the page gets it only then.
 */
export default function AfterTheOrderPanel({ figures }: { figures: AfterTheOrder }) {
  const { period, rto, confirmations, cash } = figures;
  const span =
    period.from === period.to
      ? formatDate(period.from)
      : `${formatDate(period.from)} – ${formatDate(period.to)}`;
  const outcomes = [
    { key: "confirmed", label: "Confirmed", value: confirmations.confirmed },
    { key: "refused", label: "Refused", value: confirmations.refused },
    { key: "lapsed", label: "No answer", value: confirmations.lapsed },
    { key: "cancelledByStaff", label: "Cancelled by staff", value: confirmations.cancelledByStaff },
    { key: "waiting", label: "Still waiting", value: confirmations.waiting },
  ];
  const asked = outcomes.reduce((sum, outcome) => sum + outcome.value, 0);
  const gap = cash.expectedPaise - cash.collectedPaise;
  const query = toQuery({
    period: period.key,
    from: period.key === "range" ? period.from : undefined,
    to: period.key === "range" ? period.to : undefined,
  });
  return (
    <section aria-labelledby="after-order" className="space-y-4">
      <div>
        <h2 id="after-order" className="font-serif text-xl font-semibold">
          After the order
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {span}: parcels that came back, cash-on-delivery orders asked to confirm, and the cash of delivered
          COD orders.
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <Panel id="after-rto" title="Parcels that came back">
          {rto.shipped === 0 ? (
            <p className="text-sm">No parcel was shipped in this period.</p>
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3">
                <Figure label="Parcels shipped" value={count.format(rto.shipped)} />
                <Figure
                  label="Came back"
                  value={count.format(rto.returned)}
                  note={`${perThousand(rto.ratePerMille)} shipped`}
                />
                <div className="col-span-2">
                  <Figure
                    label="Cost of parcels that came back (both ways)"
                    value={formatRupees(rto.costPaise)}
                  />
                </div>
              </dl>
              {rto.returned === 0 ? (
                <p className="mt-3 text-sm">No parcel shipped in this period came back.</p>
              ) : (
                <>
                  <h4 className="mt-4 text-sm font-semibold">By state</h4>
                  <PlacesTable
                    caption="Parcels that came back by delivery state, most first"
                    place="State"
                    rows={rto.byState}
                    csvHref={`/api/admin/analytics/after-order/states.csv${query}`}
                  />
                  <h4 className="mt-4 text-sm font-semibold">By PIN code area</h4>
                  <PlacesTable
                    caption="Parcels that came back by the first three digits of the PIN code, most first"
                    place="PIN starts"
                    rows={rto.byPinPrefix}
                    csvHref={`/api/admin/analytics/after-order/pins.csv${query}`}
                  />
                </>
              )}
              <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
                Parcels shipped in the period and how many of them came back. Cost: the courier's charge to
                send each one and to bring it back, as recorded on the return.
              </p>
            </>
          )}
        </Panel>
        <div className="space-y-4">
          <Panel id="after-confirm" title="COD orders asked to confirm">
            {asked === 0 ? (
              <p className="text-sm">No cash-on-delivery order placed in this period was asked to confirm.</p>
            ) : (
              <>
                <p className="mb-2 text-sm">
                  {count.format(asked)} {asked === 1 ? "order" : "orders"} placed in the period
                </p>
                <BarRows
                  summary={`COD orders asked to confirm: ${outcomes
                    .map((outcome) => `${outcome.label.toLowerCase()} ${outcome.value}`)
                    .join(", ")}.`}
                  rows={outcomes.map((outcome) => ({
                    key: outcome.key,
                    label: outcome.label,
                    value: outcome.value,
                    shown: count.format(outcome.value),
                  }))}
                />
                <FiguresTable
                  caption="COD orders asked to confirm, by how the question ended"
                  head={["Answer", "Orders"]}
                  rows={outcomes.map((outcome) => [outcome.label, count.format(outcome.value)])}
                />
                <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
                  No answer: the time to confirm ran out and the order was cancelled.
                </p>
              </>
            )}
          </Panel>
          <Panel id="after-cash" title="Cash from delivered COD orders">
            {cash.deliveredOrders === 0 ? (
              <p className="text-sm">No cash-on-delivery order was delivered in this period.</p>
            ) : (
              <dl className="space-y-2 text-sm">
                <div className="flex justify-between gap-3">
                  <dt>
                    Cash expected from {count.format(cash.deliveredOrders)} delivered COD{" "}
                    {cash.deliveredOrders === 1 ? "order" : "orders"}
                  </dt>
                  <dd className="font-medium tabular-nums">{formatRupees(cash.expectedPaise)}</dd>
                </div>
                <div className="flex justify-between gap-3">
                  <dt>
                    Cash recorded collected ({count.format(cash.collectedOrders)}{" "}
                    {cash.collectedOrders === 1 ? "order" : "orders"})
                  </dt>
                  <dd className="font-medium tabular-nums">{formatRupees(cash.collectedPaise)}</dd>
                </div>
                <div className="flex justify-between gap-3 border-t border-stone-200 pt-2 dark:border-stone-700">
                  <dt className="font-medium">Not yet recorded collected</dt>
                  <dd className="font-semibold tabular-nums">{formatRupees(gap)}</dd>
                </div>
              </dl>
            )}
          </Panel>
        </div>
      </div>
    </section>
  );
}
