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
