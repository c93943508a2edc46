const dayMonthYear = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "short", year: "numeric" });
const withTime = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/** "21 Nov 2026" */
export function formatDate(iso: string): string {
  return dayMonthYear.format(new Date(iso));
}

/** "21 Nov 2026, 7:45 pm" */
export function formatDateTime(iso: string): string {
  return withTime.format(new Date(iso));
}
