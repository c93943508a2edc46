import { formatRupees } from "../../../common/money.ts";

type Day = { date: string; orders: number; revenuePaise: number };

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 4, left: 8 };

const shortDate = (date: string) =>
  new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );

/**
 * Revenue per day as an SVG bar chart. Screen readers get a summary on the figure and the full figures in
 * a table; sighted users get a tooltip per bar and the same table behind "Show figures".
 */
export function RevenueChart({ days }: { days: Day[] }) {
  const max = Math.max(...days.map((day) => day.revenuePaise), 1);
  const total = days.reduce((sum, day) => sum + day.revenuePaise, 0);
  const best = days.reduce(
    (top, day) => (day.revenuePaise > top.revenuePaise ? day : top),
    days[0] ?? { date: "", orders: 0, revenuePaise: 0 },
  );
  const slot = (WIDTH - PAD.left - PAD.right) / Math.max(days.length, 1);
  const barWidth = Math.max(2, slot * 0.7);
  const chartHeight = HEIGHT - PAD.top - PAD.bottom;
  const first = days[0];
  const last = days.at(-1);
  const summary = `Revenue per day over ${days.length} days: ${formatRupees(total)} in total${
    best.revenuePaise > 0 ? `, highest ${formatRupees(best.revenuePaise)} on ${shortDate(best.date)}` : ""
  }.`;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        className="h-auto w-full text-brand-600 dark:text-brand-100"
        preserveAspectRatio="none"
      >
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
          className="stroke-stone-300 dark:stroke-stone-600"
        />
        {days.map((day, index) => {
          const height = (day.revenuePaise / max) * chartHeight;
          return (
            <rect
              key={day.date}
              x={PAD.left + index * slot + (slot - barWidth) / 2}
              y={HEIGHT - PAD.bottom - height}
              width={barWidth}
              height={Math.max(height, day.revenuePaise > 0 ? 1 : 0)}
              rx={1.5}
              fill="currentColor"
            >
              <title>{`${shortDate(day.date)}: ${formatRupees(day.revenuePaise)}, ${day.orders} order${day.orders === 1 ? "" : "s"}`}</title>
            </rect>
          );
        })}
      </svg>
      <div aria-hidden="true" className="flex justify-between text-xs text-stone-600 dark:text-stone-400">
        <span>{first ? shortDate(first.date) : ""}</span>
        <span>{last ? shortDate(last.date) : ""}</span>
      </div>
      <figcaption className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Highest day:{" "}
        {best.revenuePaise > 0
          ? `${formatRupees(best.revenuePaise)} on ${shortDate(best.date)}`
          : "no sales yet"}
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer">Show figures</summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <table className="w-full text-left">
            <caption className="sr-only">Revenue and orders per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="text-right">
                  Orders
                </th>
                <th scope="col" className="text-right">
                  Revenue
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row" className="font-normal">
                    {shortDate(day.date)}
                  </th>
                  <td className="text-right">{day.orders}</td>
                  <td className="text-right">{formatRupees(day.revenuePaise)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
