/**
 * The admin's charts, drawn with visx (docs/decisions/080): React components over d3's scales that render
 * plain SVG, so each chart is an image with a summary for screen readers, and its numbers are always in a
 * table beside it (FiguresTable). Only admin screens import this module, and they load it on demand.
 */
import { AxisBottom, AxisLeft } from "@visx/axis";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

const compactRupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  notation: "compact",
  maximumFractionDigits: 1,
});

const shortDay = (date: string) =>
  new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );

const HEIGHT = 220;
const MARGIN = { top: 10, right: 8, bottom: 28, left: 56 };

/**
 * The width the chart has on the screen, so it is drawn at that size and its labels stay 12 px on a phone as
 * on a desktop (a fixed viewBox would shrink them with the chart).
 */
function useWidth(initial: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    // Measured before the first paint, so the chart never shows (or overflows) at the first guess.
    setWidth(Math.max(200, Math.round(element.getBoundingClientRect().width)));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.max(200, Math.round(entry.contentRect.width)));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** Sales per day as columns, with rupee and day axes; tooltips name each day's figure. */
export function DailyColumns({
  days,
  summary,
}: {
  days: { date: string; orders: number; salesPaise: number }[];
  summary: string;
}) {
  const [ref, width] = useWidth(640);
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<string>({ domain: days.map((day) => day.date), range: [0, innerWidth], padding: 0.2 });
  const max = Math.max(...days.map((day) => day.salesPaise), 100);
  const y = scaleLinear<number>({ domain: [0, max / 100], range: [innerHeight, 0], nice: true });
  // A label every few days, so they never overlap however long the period.
  const every = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(innerWidth / 72))));
  return (
    <div ref={ref} className="min-w-0 overflow-hidden">
      <svg
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        className="block"
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          {days.map((day) => {
            const top = y(day.salesPaise / 100) ?? innerHeight;
            return (
              <Bar
                key={day.date}
                x={x(day.date)}
                y={top}
                width={x.bandwidth()}
                height={Math.max(innerHeight - top, day.salesPaise > 0 ? 1 : 0)}
                rx={1.5}
                className="fill-brand-600 dark:fill-brand-100"
              >
                <title>{`${shortDay(day.date)}: ₹${(day.salesPaise / 100).toLocaleString("en-IN")}, ${day.orders} order${day.orders === 1 ? "" : "s"}`}</title>
              </Bar>
            );
          })}
          <AxisLeft
            scale={y}
            numTicks={4}
            tickFormat={(value) => compactRupees.format(Number(value))}
            stroke="currentColor"
            tickStroke="currentColor"
            tickLabelProps={{ fill: "currentColor", fontSize: 12, textAnchor: "end", dx: -4, dy: 4 }}
            axisClassName="text-stone-600 dark:text-stone-400"
          />
          <AxisBottom
            top={innerHeight}
            scale={x}
            tickValues={days.filter((_, index) => index % every === 0).map((day) => day.date)}
            tickFormat={shortDay}
            stroke="currentColor"
            tickStroke="currentColor"
            tickLabelProps={{ fill: "currentColor", fontSize: 12, textAnchor: "middle" }}
            axisClassName="text-stone-600 dark:text-stone-400"
          />
        </Group>
      </svg>
    </div>
  );
}

/**
 * Horizontal bars, one row per entry: the label and the figure are HTML (they wrap and scale with the text on
 * a phone); only the bar is SVG, its length from a visx scale. The list is hidden from screen readers, who
 * read the same figures in the table beside it.
 */
export function BarRows({
  rows,
  summary,
}: {
  rows: { key: string; label: string; value: number; shown: string }[];
  summary: string;
}) {
  const max = Math.max(...rows.map((row) => row.value), 1);
  const length = scaleLinear<number>({ domain: [0, max], range: [0, 100] });
  return (
    <figure>
      <figcaption className="sr-only">{summary}</figcaption>
      <ul aria-hidden="true" className="space-y-2">
        {rows.map((row) => (
          <li key={row.key} className="text-sm">
            <div className="flex justify-between gap-3">
              <span className="truncate">{row.label}</span>
              <span className="shrink-0 font-medium">{row.shown}</span>
            </div>
            <svg
              aria-hidden="true"
              viewBox="0 0 100 4"
              preserveAspectRatio="none"
              className="mt-1 h-2 w-full"
            >
              <rect width={100} height={4} rx={1} className="fill-stone-100 dark:fill-stone-800" />
              <Bar
                width={length(row.value)}
                height={4}
                rx={1}
                className="fill-brand-600 dark:fill-brand-100"
              />
            </svg>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** One headline figure of a report card, inside its <dl>: what it counts, the number, and a note under it. */
export function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="text-xl font-semibold tabular-nums">{value}</dd>
      {note ? <dd className="text-xs text-stone-600 dark:text-stone-400">{note}</dd> : null}
    </div>
  );
}

/** A chart's numbers as a table, behind "Show figures" or open beside it: for screen readers and copying. */
export function FiguresTable({
  caption,
  head,
  rows,
  open = false,
  csvHref,
  dense = false,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
  open?: boolean;
  csvHref?: string;
  /** Smaller type on a phone, for a table of many columns that must fit its width. */
  dense?: boolean;
}) {
  const table = <Figures caption={caption} head={head} rows={rows} dense={dense} />;
  const csv = csvHref ? (
    <a
      href={csvHref}
      download
      className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100"
    >
      Download CSV
      {/* Each table's link is told apart by what it downloads, for whoever lists a page's links. */}
      <span className="sr-only">: {caption}</span>
    </a>
  ) : null;
  if (open) {
    return (
      <div>
        {table}
        {csv}
      </div>
    );
  }
  return (
    // The CSV link sits on the toggle's line, out of the flow, so the open table takes the panel's whole width
    // and its last column lines up with the chart's figures above it.
    <div className="relative mt-2">
      <details className="text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center">Show figures</summary>
        {table}
      </details>
      {csv ? <div className="absolute top-0 right-0">{csv}</div> : null}
    </div>
  );
}

/** The table itself: a header row, then each row headed by its first cell, figures aligned right. */
function Figures({
  caption,
  head,
  rows,
  dense,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
  dense: boolean;
}) {
  return (
    <div className="mt-2 max-h-72 overflow-auto">
      <table className={`w-full text-left ${dense ? "text-xs sm:text-sm" : "text-sm"}`}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((cell, index) => (
              <th
                key={cell}
                scope="col"
                className={`border-b border-stone-200 py-1 font-medium dark:border-stone-700 ${index > 0 ? "pl-2 text-right" : "pr-2"}`}
              >
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are fixed for one render and have no id of their own
            <tr key={rowIndex} className="border-b border-stone-100 dark:border-stone-800">
              {row.map((cell, index) =>
                index === 0 ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the column's place is its identity
                  <th key={index} scope="row" className="py-1 pr-2 font-normal">
                    {cell}
                  </th>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the column's place is its identity
                  <td key={index} className="py-1 pl-2 text-right tabular-nums">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
