import { Link } from "react-router";
import { dropPercent, FUNNEL_STEP_LABELS, FUNNEL_STEPS, type FunnelFigures } from "../../../common/funnel.ts";
import { formatDate } from "../../../common/india-time.ts";
import { cardClass } from "../../components/card.tsx";
import { Notice } from "../../components/notice.tsx";
import { toQuery } from "../../lib/api.ts";
import { BarRows, FiguresTable } from "./charts.tsx";

const count = new Intl.NumberFormat("en-IN");

/** The drop from the step before, as the page says it: "75 % drop", or a rise when more came back to a step. */
function dropText(drop: number | null): string {
  if (drop === null) return "–";
  if (drop < 0) return `${-drop} % more`;
  return `${drop} % drop`;
}

/** The days' table heads: the steps in a word each, so six columns fit a phone. */
const SHORT_LABELS = ["Views", "Carts", "Checkouts", "Orders", "Paid"];

const dayAndMonth = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", timeZone: "UTC" });

/**
 * The funnel (issue 44, docs/decisions/090): for the period "Sales at a glance" shows, the sessions the shop
 * counted at each step from its own requests, the drop between steps, and the days in a table with a CSV.
 */
export default function FunnelPanel({ figures }: { figures: FunnelFigures }) {
  const { period, totals, byDay, counting, canSwitch } = figures;
  const span =
    period.from === period.to
      ? formatDate(period.from)
      : `${formatDate(period.from)} – ${formatDate(period.to)}`;
  const query = toQuery({
    period: period.key,
    from: period.key === "range" ? period.from : undefined,
    to: period.key === "range" ? period.to : undefined,
  });
  const steps = FUNNEL_STEPS.map((step, index) => {
    const before = FUNNEL_STEPS[index - 1];
    return {
      step,
      label: FUNNEL_STEP_LABELS[step],
      sessions: totals[step],
      drop: before ? dropPercent(totals[before], totals[step]) : null,
    };
  });
  // Within one year the days' table names a day without it, so its six columns fit a phone.
  const sameYear = period.from.slice(0, 4) === period.to.slice(0, 4);
  const nothing = steps.every((step) => step.sessions === 0);
  return (
    <section aria-labelledby="funnel" className="space-y-4">
      <div>
        <h2 id="funnel" className="font-serif text-xl font-semibold">
          The funnel
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {span}: sessions (one visitor on one day) that viewed a product, added to the cart, reached
          checkout, placed an order and paid, counted by the shop itself. No cookies and no outside scripts;
          visitors who ask not to be tracked, and robots, are left out.
        </p>
      </div>
      {counting ? null : (
        <Notice tone="info">
          Counting is off: visits are not being counted.{" "}
          {canSwitch ? (
            <Link to="/admin/settings#funnel-counting" className="font-medium underline underline-offset-2">
              Turn it on in Settings
            </Link>
          ) : (
            "The owner can turn it on in Settings."
          )}
        </Notice>
      )}
      <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <section aria-labelledby="funnel-steps" className={`${cardClass} min-w-0`}>
          <h3 id="funnel-steps" className="mb-3 font-serif text-lg font-semibold">
            From a look to a sale
          </h3>
          {nothing ? (
            <p className="text-sm">No visit was counted in this period.</p>
          ) : (
            <>
              <BarRows
                summary={`Sessions at each step: ${steps
                  .map((step) => `${step.label.toLowerCase()} ${step.sessions}`)
                  .join(", ")}.`}
                rows={steps.map((step) => ({
                  key: step.step,
                  label: step.label,
                  value: step.sessions,
                  shown:
                    step.drop === null
                      ? count.format(step.sessions)
                      : `${count.format(step.sessions)} (${dropText(step.drop)})`,
                }))}
              />
              <FiguresTable
                open
                caption="Sessions at each step of the funnel, and the drop from the step before"
                head={["Step", "Sessions", "From the step before"]}
                rows={steps.map((step) => [step.label, count.format(step.sessions), dropText(step.drop)])}
              />
            </>
          )}
          <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            Paid: the online payment received, or a cash-on-delivery order confirmed. Each step counts the
            sessions that took it that day, so a shopper back for a cart filled earlier can make a step larger
            than the one before.
          </p>
        </section>
        <section aria-labelledby="funnel-days" className={`${cardClass} min-w-0`}>
          <h3 id="funnel-days" className="mb-3 font-serif text-lg font-semibold">
            Day by day
          </h3>
          <FiguresTable
            open
            dense
            caption="Sessions at each step of the funnel, day by day"
            head={["Day", ...SHORT_LABELS]}
            rows={byDay.map((day) => [
              <span key="day" className="whitespace-nowrap">
                {sameYear ? dayAndMonth.format(new Date(`${day.date}T00:00:00Z`)) : formatDate(day.date)}
              </span>,
              ...FUNNEL_STEPS.map((step) => count.format(day[step])),
            ])}
            csvHref={`/api/admin/analytics/funnel/days.csv${query}`}
          />
        </section>
      </div>
    </section>
  );
}
