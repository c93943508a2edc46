import type { Context } from "hono";
import { clientAddress } from "../auth/client-address.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import type { PaidOrder } from "../money/ledger.ts";
import { MINUTE_MS, requireAllowance } from "../throttles/throttle.ts";
import { guestOrderTokenMatches } from "./guest-order-link.ts";
import { findOrder } from "./orders.data.ts";

/** The one answer to a guest-order link that opens nothing, whatever the reason. */
export const NO_ORDER_LINK =
  "This link does not open an order. Check that it is the whole link from your e-mail. Use Find my order to have it e-mailed to you again.";

// The id a token is checked against when the number names no guest order: the same HMAC and comparison run.
const NO_ORDER_ID = "00000000-0000-0000-0000-000000000000";

export const waitMinutes = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
};

/**
 * The order a guest's link opens: the token stands in for the session, for one order. A wrong token, a number
 * that does not exist and an order placed in an account all get the same 404 after the same work (the token
 * is checked against a stand-in id when there is no guest order), so no answer tells which numbers exist.
 * Each miss counts against the client, so no one can try links without end. Every action through the link
 * (the order's page, paying, cancelling, the parcel and a failed delivery's answer) opens the order here.
 */
export async function openGuestOrderLink(
  deps: Deps,
  c: Context,
  number: string,
  token: string,
): Promise<PaidOrder> {
  const { db, env } = deps;
  const order = await findOrder(db, number);
  const guestOrder = order?.guestEmail ? order : undefined;
  const matches = guestOrderTokenMatches(env, guestOrder?.id ?? NO_ORDER_ID, token);
  if (guestOrder && matches) return guestOrder;
  await requireAllowance(
    db,
    `guest-order-link:client:${clientAddress(c, env) ?? "unknown"}`,
    env.GUEST_ORDER_LINK_MISSES_PER_CLIENT,
    env.GUEST_ORDER_WINDOW_MINUTES * MINUTE_MS,
    (wait) => ({
      code: "too_many_requests",
      message: `Too many links that open nothing. Please wait ${waitMinutes(wait)} and try again, or use Find my order.`,
    }),
  );
  throw httpError(404, "order_link_not_found", NO_ORDER_LINK);
}
