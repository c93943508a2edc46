import { type CartReminderReport, WON_BACK_DAYS } from "../../../common/cart-reminders.ts";
import { formatDate } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { cardClass } from "../../components/card.tsx";
import { FiguresTable } from "./charts.tsx";

const count = new Intl.NumberFormat("en-IN");

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
      {note ? <dd className="text-xs text-stone-600 dark:text-stone-400">{note}</dd> : null}
    </div>
  );
}

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
          <FiguresTable
            open
            csvHref={`/api/admin/cart-reminders/report.csv${query}`}
            caption="Carts left behind by the day they were left: reminded, won back and revenue"
            head={["Day left", "Left", "Reminded", "E-mails", "WhatsApp", "Won back", "Revenue"]}
            rows={days.map((day) => [
              formatDate(day.date),
              count.format(day.leftBehind),
              count.format(day.reminded),
              count.format(day.remindersSent),
              count.format(day.whatsappSent),
              count.format(day.wonBack),
              formatRupees(day.revenuePaise),
            ])}
          />
          <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
            Won back: the shopper reminded ordered within {WON_BACK_DAYS} days of the first reminder (an order
            not cancelled); revenue is that order's total. E-mails and WhatsApp: the reminders sent on each.
          </p>
        </>
      )}
    </section>
  );
}
