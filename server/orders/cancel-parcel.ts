import { and, eq, sql } from "drizzle-orm";
import { shipments } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";

/**
 * Cancels the order's booked parcel at the aggregator before the order is cancelled, so a courier never
 * comes for goods the shop no longer sends. A parcel already on its way cannot be cancelled (409).
 */
export async function cancelShipmentFirst(deps: Deps, orderId: string) {
  const [live] = await deps.db
    .select()
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), sql`${shipments.status} <> 'cancelled'`));
  if (!live) return;
  if (live.status === "booking") {
    throw httpError(
      409,
      "booking_in_progress",
      "A courier is being booked for this order; try again in a moment.",
    );
  }
  if (!["booked", "pickup_scheduled"].includes(live.status)) {
    throw httpError(
      409,
      "parcel_on_its_way",
      "The courier has the parcel already, so the order cannot be cancelled.",
    );
  }
  if (live.aggregatorOrderId) await courierFor(deps).cancel([live.aggregatorOrderId]);
  await deps.db
    .update(shipments)
    .set({ status: "cancelled", updatedAt: new Date() })
    .where(eq(shipments.id, live.id));
}

function courierFor(deps: Deps) {
  if (!deps.courier) {
    throw httpError(
      503,
      "shipping_not_configured",
      "The parcel was booked through a courier aggregator that is no longer connected; cancel it there first.",
    );
  }
  return deps.courier;
}
