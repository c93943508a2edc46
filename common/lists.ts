import { z } from "zod";
import { plainText } from "./schemas/text.ts";

/**
 * Long lists page by a cursor, the (created_at, id) of the last row seen, never by an offset: page 4,000 costs
 * what page 1 costs. A total is exact up to LIST_TOTAL_CAP and shown as "10,000+" beyond, so no page view
 * counts a whole table.
 */
export const LIST_TOTAL_CAP = 10_000;

export type ListTotal = { count: number; exact: boolean };

/** Opaque to the browser: it only hands back what the server gave it. */
export type ListCursors = { next: string | null; previous: string | null };

export type KeysetCursor = { at: string; id: string };

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const fromBase64Url = (text: string) =>
  new TextDecoder().decode(
    Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0)),
  );

export function encodeCursor(cursor: KeysetCursor): string {
  return toBase64Url(`${cursor.at}|${cursor.id}`);
}

export function decodeCursor(text: string): KeysetCursor | null {
  try {
    const decoded = fromBase64Url(text);
    const split = decoded.indexOf("|");
    const at = decoded.slice(0, split);
    const id = decoded.slice(split + 1);
    return split > 0 && CURSOR_AT.test(at) && id.length > 0 && id.length <= 100 ? { at, id } : null;
  } catch {
    return null;
  }
}

const cursor = plainText()
  .max(200)
  .transform((text, context) => {
    const decoded = decodeCursor(text);
    if (!decoded) {
      context.addIssue({ code: "custom", message: "is not a cursor this list gave" });
      return z.NEVER;
    }
    return decoded;
  });

/** `after` pages to older rows, `before` back to newer ones; one at a time. */
export const keysetQueryFields = { after: cursor.optional(), before: cursor.optional() };

/** One page of a keyset list: its rows, the total as far as it was counted, and the cursors either way. */
export type KeysetPage<Item> = { items: Item[]; pageSize: number; total: ListTotal } & ListCursors;

/** "10,000+" past the cap, the exact figure below it. */
export function totalFigure(total: ListTotal): string {
  return `${total.count.toLocaleString("en-IN")}${total.exact ? "" : "+"}`;
}

/** "1 order", "10,000+ orders". */
export function describeTotal(total: ListTotal, one: string, many: string): string {
  const figure = total.count.toLocaleString("en-IN");
  if (!total.exact) return `${figure}+ ${many}`;
  return `${figure} ${total.count === 1 ? one : many}`;
}
