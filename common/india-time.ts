/**
 * India time, in one place. India keeps one offset all year (UTC+5:30, no daylight saving), so a day in India
 * is a fixed 24-hour span of UTC and a moment's India wall clock is the moment shifted by 5 h 30 min.
 */
export const INDIA_TIME_ZONE = "Asia/Kolkata";
export const INDIA_UTC_OFFSET = "+05:30";
const INDIA_OFFSET_MS = 330 * 60_000;

/** The moment shifted to India's wall clock: read it with getUTCFullYear, getUTCMonth, getUTCDate ... */
export const indianWallClock = (moment: Date) => new Date(moment.getTime() + INDIA_OFFSET_MS);

/** The calendar date in India of a moment: 2026-03-02. */
export const indianDate = (moment: Date) => indianWallClock(moment).toISOString().slice(0, 10);

/** The moment an India calendar date (2026-03-02) begins. */
export const startOfIndianDay = (date: string) => new Date(`${date}T00:00:00${INDIA_UTC_OFFSET}`);

/** A moment as the India wall-clock time a datetime-local input shows: 2026-03-02T10:05. */
export const toIndianDateTimeInput = (moment: Date) => indianWallClock(moment).toISOString().slice(0, 16);

/** What someone typed into a datetime-local input, read as India time whatever the device's own zone. */
export const fromIndianDateTimeInput = (value: string) => `${value}:00${INDIA_UTC_OFFSET}`;

const dateTime = new Intl.DateTimeFormat("en-IN", {
  timeZone: INDIA_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});
const dateTimeSeconds = new Intl.DateTimeFormat("en-IN", {
  timeZone: INDIA_TIME_ZONE,
  dateStyle: "medium",
  timeStyle: "medium",
});
const dateOnly = new Intl.DateTimeFormat("en-IN", {
  timeZone: INDIA_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
});
const dayMonth = new Intl.DateTimeFormat("en-IN", {
  timeZone: INDIA_TIME_ZONE,
  day: "numeric",
  month: "short",
});

// Dates and times as shoppers in India read them, whatever the device's (or the server's) time zone.
const asDate = (moment: string | Date) => (typeof moment === "string" ? new Date(moment) : moment);
/** 2 Mar 2026, 10:05 am */
export const formatDateTime = (moment: string | Date) => dateTime.format(asDate(moment));
/** 2 Mar 2026, 10:05:09 am: where the order of events within a minute matters (the audit log). */
export const formatDateTimeSeconds = (moment: string | Date) => dateTimeSeconds.format(asDate(moment));
/** 2 Mar 2026 */
export const formatDate = (moment: string | Date) => dateOnly.format(asDate(moment));
/** 2 Mar */
export const formatDayMonth = (moment: string | Date) => dayMonth.format(asDate(moment));
