import type { PinPlace } from "../../common/delivery-check.ts";
import { PIN_PATTERN } from "../../common/india.ts";
import { api } from "./api.ts";

/** Where a PIN is, from the server's copy of India Post's directory; rejects with the server's message. */
export function lookUpPin(pin: string): Promise<PinPlace> {
  return api<PinPlace>(`/pincodes/${encodeURIComponent(pin)}`);
}

/** What a shopper typed, as a PIN worth looking up: six digits once spaces are dropped, or null. */
export function completePin(typed: string): string | null {
  const digits = typed.replace(/\s/g, "");
  return PIN_PATTERN.test(digits) ? digits : null;
}

/**
 * The city to show once a PIN is found: the directory's, unless the person typed a city of their own. A city
 * that came from an earlier lookup, or with the address being changed (`replaceable`), belongs to the old PIN
 * and is replaced, so a new PIN never leaves the old city beside the new state.
 */
export function cityForPin(current: string, found: string, replaceable: readonly string[]): string {
  const typed = current.trim() !== "" && !replaceable.includes(current);
  return typed ? current : found;
}
