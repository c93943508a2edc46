import { Form, Link, type LoaderFunctionArgs, useLoaderData } from "react-router";
import { formatDate } from "../../common/india-time.ts";
import { formatRupees } from "../../common/money.ts";
import {
  formatPerMille,
  RTO_GROUP_LABELS,
  RTO_GROUPS,
  RTO_LIST_LIMIT,
  type RtoFigures,
  type RtoStats,
} from "../../common/rto.ts";
import { Button } from "../components/button.tsx";
import { cardClass } from "../components/card.tsx";
import { Field, Options, Select } from "../components/field.tsx";
import { CodTabs, PeriodFields } from "../features/cod/cod-tabs.tsx";
import { api, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  const params = new URL(request.url).searchParams;
  return api<RtoStats>(
    `/admin/rto/stats${toQuery({ from: params.get("from"), to: params.get("to"), by: params.get("by") })}`,
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: returns to origin") };

/** Parcels returned to origin over a period: the rate by PIN, district, state or customer, and what it cost. */
export function Component() {
  const stats = useLoaderData<typeof loader>();
  const period = `${formatDate(stats.from)} – ${formatDate(stats.to)}`;
  return (
    <div>
      <CodTabs />
      <h1 className="font-serif text-3xl font-semibold">Returns to origin</h1>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Parcels shipped {period} that came back refused or undeliverable, and the shipping paid both ways.
      </p>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-2" aria-label="Period and grouping">
        <PeriodFields period={stats} />
        <Field label="By">
          <Select name="by" defaultValue={stats.by}>
            <Options values={RTO_GROUPS} labels={RTO_GROUP_LABELS} />
          </Select>
        </Field>
        <Button type="submit" variant="secondary">
          Show
        </Button>
      </Form>
      <dl className="mt-4 grid gap-3 sm:grid-cols-3">
        <Figure label="All parcels" figures={stats.total} />
        <Figure label="Cash on delivery" figures={stats.cod} />
        <Figure label="Paid online" figures={stats.prepaid} />
      </dl>
      <section aria-labelledby="rto-rows" className="mt-6">
        <h2 id="rto-rows" className="font-serif text-xl font-semibold">
          By {stats.by === "pin" ? RTO_GROUP_LABELS.pin : RTO_GROUP_LABELS[stats.by].toLowerCase()}
        </h2>
        {stats.rows.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            No parcel came back in this period.
          </p>
        ) : (
          <ul
            aria-label={`Returns to origin by ${RTO_GROUP_LABELS[stats.by].toLowerCase()}`}
            className="mt-2 divide-y divide-stone-200 rounded-lg border border-stone-200 dark:divide-stone-700 dark:border-stone-700"
          >
            {stats.rows.map((row) => (
              <li key={row.key} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3">
                <span className="font-medium">{row.label}</span>
                <span className="text-sm tabular-nums text-stone-700 dark:text-stone-300">
                  {row.returned} of {row.shipped} back · <strong>{formatPerMille(row.ratePerMille)}</strong> ·{" "}
                  {formatRupees(row.costPaise)}
                </span>
              </li>
            ))}
          </ul>
        )}
        {stats.groups > stats.rows.length && (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            The {RTO_LIST_LIMIT} with the most parcels back of {stats.groups} are shown; the totals above
            count them all.
          </p>
        )}
      </section>
      <p className="mt-6 text-sm text-stone-600 dark:text-stone-400">
        Turn what you see into a rule on the{" "}
        <Link to="/admin/cod/rules" className="underline">
          Rules
        </Link>{" "}
        tab.
      </p>
    </div>
  );
}

function Figure({ label, figures }: { label: string; figures: RtoFigures }) {
  return (
    <div className={cardClass}>
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{formatPerMille(figures.ratePerMille)}</dd>
      <dd className="text-sm text-stone-600 dark:text-stone-400">
        {figures.returned} of {figures.shipped} parcels back · {formatRupees(figures.costPaise)} shipping
      </dd>
    </div>
  );
}
