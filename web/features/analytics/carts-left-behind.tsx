import { Fragment } from "react";
import { type CartReminderReport, WON_BACK_DAYS } from "../../../common/cart-reminders.ts";
import { formatDate } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { cardClass } from "../../components/card.tsx";
import { Figure, FiguresTable } from "./charts.tsx";

const count = new Intl.NumberFormat("en-IN");

const EMPTY_DAY = {
  date: "",
  leftBehind: 0,
  reminded: 0,
  remindersSent: 0,
  whatsappSent: 0,
  wonBack: 0,
  revenuePaise: 0,
};
const CAPTION = "Carts left behind by the day they were left: reminded, won back and revenue";

/** One day's figures, labelled as the table's columns. */
const dayFacts = (day: CartReminderReport["days"][number]): [string, string][] => [
  ["Left", count.format(day.leftBehind)],
  ["Reminded", count.format(day.reminded)],
  ["E-mails", count.format(day.remindersSent)],
  ["WhatsApp", count.format(day.whatsappSent)],
  ["Won back", count.format(day.wonBack)],
  ["Revenue", formatRupees(day.revenuePaise)],
];

const share = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}% of them` : "");

/**
 * "Carts left behind" (issue 44, docs/decisions/089): for the period chosen above, by the day each cart was
 * left, the carts that rested past the owner's delay without an order, those reminded, the carts won back and
 * what they brought in, so the owner sees whether the reminders pay. Shown to whoever sees the sales.
 */
export default function CartsLeftBehindPanel({
  report,
  query,
}: {
  report: CartReminderReport;
  query: string;
}) {
  const { period, totals, notReminded, days, settings } = report;
  const span =
    period.from === period.to
      ? formatDate(period.from)
      : `${formatDate(period.from)} – ${formatDate(period.to)}`;
  return (
    <section aria-labelledby="carts-left" className={`${cardClass} min-w-0`}>
      <h2 id="carts-left" className="font-serif text-xl font-semibold">
        Carts left behind
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        {span}: carts left for{" "}
        {settings.delayMinutes >= 60 && settings.delayMinutes % 60 === 0
          ? `${settings.delayMinutes / 60} h`
          : `${settings.delayMinutes} min`}{" "}
        or more without an order, and the reminders sent for them.{" "}
        {settings.enabled ? "" : "Reminders are off (Settings, Cart reminders)."}
      </p>
      {totals.leftBehind === 0 ? (
        <p className="mt-3 text-sm">No cart was left behind in this period.</p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Figure label="Carts left behind" value={count.format(totals.leftBehind)} />
            <Figure
              label="Reminded"
              value={count.format(totals.reminded)}
              note={`${count.format(totals.remindersSent)} by e-mail, ${count.format(totals.whatsappSent)} on WhatsApp`}
            />
            <Figure
              label="Won back"
              value={count.format(totals.wonBack)}
              note={share(totals.wonBack, totals.reminded)}
            />
            <Figure label="Revenue won back" value={formatRupees(totals.revenuePaise)} note="GST included" />
          </dl>
          <p className="mt-3 text-sm">
            Not reminded: {count.format(notReminded.noConsent)} without the shopper's opt-in,{" "}
            {count.format(notReminded.unsubscribed)} unsubscribed, {count.format(notReminded.other)} for other
            reasons (no e-mail, reminded of another cart this week, reminders off).
          </p>
          {/* Below lg the seven columns cannot fit a phone: each day is a card of the same facts, label and
              value, as the orders list shows its orders; the table from lg. */}
          <ul aria-label={CAPTION} className="mt-2 max-h-96 space-y-2 overflow-y-auto lg:hidden">
            {days.map((day) => (
              <li
                key={day.date}
                className="rounded-lg border border-stone-200 bg-white p-3 text-sm dark:border-stone-700 dark:bg-stone-900"
              >
                <p className="font-medium">{formatDate(day.date)}</p>
                <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1">
                  {dayFacts(day).map(([label, value]) => (
                    <Fragment key={label}>
                      <dt className="text-stone-500 dark:text-stone-400">{label}</dt>
                      <dd className="text-right tabular-nums">{value}</dd>
                    </Fragment>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
          <div className="hidden lg:block">
            <FiguresTable
              open
              caption={CAPTION}
              head={["Day left", ...dayFacts(days[0] ?? EMPTY_DAY).map(([label]) => label)]}
              rows={days.map((day) => [formatDate(day.date), ...dayFacts(day).map(([, value]) => value)])}
            />
          </div>
          <a
            href={`/api/admin/cart-reminders/report.csv${query}`}
            download
            className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100"
          >
            Download CSV
            <span className="sr-only">: {CAPTION}</span>
          </a>
          <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            Won back: the shopper reminded ordered within {WON_BACK_DAYS} days of the first reminder (an order
            not cancelled); revenue is that order's total. E-mails and WhatsApp: the reminders sent on each.
          </p>
        </>
      )}
    </section>
  );
}
