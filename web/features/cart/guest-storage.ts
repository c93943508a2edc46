import { CART_ITEM_KINDS, type CartEntry, MAX_CART_LINES, MAX_QUANTITY } from "../../../common/cart.ts";
import { newRandomId } from "../../lib/random-id.ts";
import { APPLIED_CODE_KEY, CART_KEY, MERGE_ID_KEY, SENT_CODES_KEY, USED_CODES_KEY } from "./storage-keys.ts";

/** A guest's line: what the server needs (id, kind, quantity), the name to show before prices arrive, and the price seen when it was added. */
export type GuestEntry = CartEntry & { name: string; addedPricePaise?: number };

// What the browser kept is checked by hand: zod, even zod/mini, adds about 15 kB of gzip to every
// page that shows the cart badge, for four fields. Anything that does not fit is thrown away whole.
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

const isWhole = (value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

function isGuestEntry(value: unknown): value is GuestEntry {
  const entry = value as Partial<GuestEntry> | null;
  return (
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.id === "string" &&
    entry.id !== "" &&
    CART_ITEM_KINDS.includes(entry.kind as (typeof CART_ITEM_KINDS)[number]) &&
    typeof entry.name === "string" &&
    isWhole(entry.quantity, 1, MAX_QUANTITY) &&
    (entry.addedPricePaise === undefined || isWhole(entry.addedPricePaise, 0))
  );
}

export function parseStoredCart(text: string): GuestEntry[] {
  const items = (JSON.parse(text) as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length > MAX_CART_LINES || !items.every(isGuestEntry)) {
    throw new Error("not a saved cart");
  }
  return items.map(({ id, kind, name, quantity, addedPricePaise }) =>
    addedPricePaise === undefined
      ? { id, kind, name, quantity }
      : { id, kind, name, quantity, addedPricePaise },
  );
}

function parseStringList(text: string): string[] {
  const list: unknown = JSON.parse(text);
  if (!isStringArray(list)) throw new Error("not a list of codes");
  return list;
}

// Storage can be switched off or full (private windows, quotas); the cart then lives only in memory.
function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null) {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch (error) {
    console.error(`Could not save ${key} in the browser's storage.`, error);
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

/** Spec 4 and 8: a cart that cannot be read is logged and treated as empty; the shopper sees no error. */
export function readGuestCart(): GuestEntry[] {
  const text = read(local, CART_KEY);
  if (text === null) return [];
  try {
    return parseStoredCart(text);
  } catch (error) {
    console.error("The saved cart could not be read; starting with an empty cart.", error);
    return [];
  }
}

export function writeGuestCart(items: readonly GuestEntry[]) {
  write(local, CART_KEY, items.length === 0 ? null : JSON.stringify({ items }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id to send the saved cart's merge under: the one a try that was never answered used (so the server
 * can tell if it landed after all), or a new one.
 */
export function mergeIdForSavedCart(): string {
  const kept = read(local, MERGE_ID_KEY);
  const id = kept && UUID.test(kept) ? kept : newRandomId();
  write(local, MERGE_ID_KEY, id);
  return id;
}

/** The merge was answered, or the saved cart changed: the next merge is a new one. */
export function forgetMergeId() {
  write(local, MERGE_ID_KEY, null);
}

export function readUsedCodes(): string[] {
  const text = read(session, USED_CODES_KEY);
  if (text === null) return [];
  try {
    return parseStringList(text);
  } catch (error) {
    console.error("The used discount codes could not be read.", error);
    return [];
  }
}

export function addUsedCode(code: string) {
  const used = readUsedCodes();
  if (!used.includes(code)) write(session, USED_CODES_KEY, JSON.stringify([...used, code]));
}

export function readAppliedCode(): string | null {
  return read(session, APPLIED_CODE_KEY);
}

export function writeAppliedCode(code: string | null) {
  write(session, APPLIED_CODE_KEY, code);
}

function readSent(): Record<string, string[]> {
  const text = read(session, SENT_CODES_KEY);
  if (text === null) return {};
  try {
    const sent: unknown = JSON.parse(text);
    const valid =
      typeof sent === "object" &&
      sent !== null &&
      !Array.isArray(sent) &&
      Object.values(sent).every(isStringArray);
    return valid ? (sent as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

/** The guest's used codes this account has not been sent yet. */
export function unsentUsedCodes(userId: string): string[] {
  const sent = new Set(readSent()[userId] ?? []);
  return readUsedCodes().filter((code) => !sent.has(code));
}

export function markCodesSent(userId: string, codes: readonly string[]) {
  const sent = readSent();
  write(
    session,
    SENT_CODES_KEY,
    JSON.stringify({ ...sent, [userId]: [...new Set([...(sent[userId] ?? []), ...codes])] }),
  );
}
