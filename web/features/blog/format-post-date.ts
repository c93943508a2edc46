import { format, parseISO } from "date-fns";

/** "2026-10-20" as "20 October 2026", read as a calendar date so no time zone moves it a day. */
export const formatPostDate = (date: string) => format(parseISO(date), "d MMMM yyyy");
