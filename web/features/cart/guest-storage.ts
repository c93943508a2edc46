// zod/mini: the same validation at a fraction of the size, since this file is in every page's bundle.
import * as z from "zod/mini";
import { CART_ITEM_KINDS, type CartEntry, MAX_CART_LINES, MAX_QUANTITY } from "../../../common/cart.ts";

/** A guest's line: what the server needs (id, kind, quantity), the name to show before prices arrive, and the price seen when it was added. */
export type GuestEntry = CartEntry & { name: string; addedPricePaise?: number };

/** Spec 4: the guest cart lives in localStorage under a cart key. */
export const CART_KEY = "cart";
/** Spec 3 and 4: signed out, the used codes are kept in one session-store key. */
export const USED_CODES_KEY = "usedDiscountCodes";
export const APPLIED_CODE_KEY = "appliedDiscountCode";
/** Which of the used codes each account has been told about, so a sign-in sends each code once. */
export const SENT_CODES_KEY = "discountCodesSentToAccount";

const storedCartSchema = z.object({
  items: z
    .array(
      z.object({
        id: z.string().check(z.minLength(1)),
        kind: z.enum(CART_ITEM_KINDS),
        name: z.string(),
        quantity: z.int().check(z.minimum(1), z.maximum(MAX_QUANTITY)),
        addedPricePaise: z.optional(z.int().check(z.minimum(0))),
      }),
    )
    .check(z.maxLength(MAX_CART_LINES)),
});

const codesSchema = z.array(z.string());

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
    return storedCartSchema.parse(JSON.parse(text)).items;
  } catch (error) {
    console.error("The saved cart could not be read; starting with an empty cart.", error);
    return [];
  }
}

export function writeGuestCart(items: readonly GuestEntry[]) {
  write(local, CART_KEY, items.length === 0 ? null : JSON.stringify({ items }));
}

export function readUsedCodes(): string[] {
  const text = read(session, USED_CODES_KEY);
  if (text === null) return [];
  try {
    return codesSchema.parse(JSON.parse(text));
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

const sentSchema = z.record(z.string(), z.array(z.string()));

function readSent(): Record<string, string[]> {
  const text = read(session, SENT_CODES_KEY);
  if (text === null) return {};
  try {
    return sentSchema.parse(JSON.parse(text));
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
