/** Dates and times as shoppers in India read them, whatever the device's time zone. */
const dateTime = new Intl.DateTimeFormat("en-IN", {
  timeZone: "Asia/Kolkata",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const dateOnly = new Intl.DateTimeFormat("en-IN", {
  timeZone: "Asia/Kolkata",
  day: "numeric",
  month: "short",
  year: "numeric",
});
const dayMonth = new Intl.DateTimeFormat("en-IN", {
  timeZone: "Asia/Kolkata",
  day: "numeric",
  month: "short",
});

/** 2 Mar 2026, 10:05 am */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
/** 2 Mar 2026 */
export const formatDate = (iso: string) => dateOnly.format(new Date(iso));
/** 2 Mar */
export const formatDayMonth = (iso: string) => dayMonth.format(new Date(iso));
