import type { orders } from "../db/schema.ts";

type OrderRow = typeof orders.$inferSelect;

/**
 * The address an order ships to, read from its ship_* columns; an order placed before districts were kept
 * has none, which reads as "".
 */
export function shippingAddressOf(
  order: Pick<
    OrderRow,
    | "shipName"
    | "shipPhone"
    | "shipLine1"
    | "shipLine2"
    | "shipCity"
    | "shipDistrict"
    | "shipState"
    | "shipPin"
  >,
) {
  return {
    name: order.shipName,
    phone: order.shipPhone,
    line1: order.shipLine1,
    line2: order.shipLine2,
    city: order.shipCity,
    district: order.shipDistrict ?? "",
    state: order.shipState,
    pin: order.shipPin,
  };
}
