import { formatEstimateDate } from "./delivery-estimate.ts";
import { formatMobile } from "./india.ts";
import type { DeliveryRequest } from "./shipping.ts";

type Asked = Pick<DeliveryRequest, "day" | "line1" | "line2" | "phone" | "outcome">;

/** "another attempt on Fri, 27 Nov, at 12 Lotus Apartments, Indiranagar, calling 98765 43210" */
export function describeDeliveryRequest(request: Omit<Asked, "outcome">): string {
  const address = [request.line1, request.line2].filter(Boolean).join(", ");
  return [
    `another attempt${request.day ? ` on ${formatEstimateDate(request.day)}` : ""}`,
    address ? `at ${address}` : "",
    request.phone ? `calling ${formatMobile(request.phone)}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * What the shopper reads about their answer to a failed delivery, whatever the courier's aggregator said: the
 * aggregator's own words never reach them (docs/decisions/082). Said by the API right after they ask, and on
 * their order page afterwards.
 */
export function deliveryRequestWords(request: Asked): string {
  const asked = describeDeliveryRequest(request);
  if (request.outcome === "sent" || request.outcome === "passed_on") {
    return `Thank you. The courier has your request: ${asked}.`;
  }
  return `Thank you, we have your request: ${asked}. The courier did not confirm it to us online, so we are passing it on to them ourselves.`;
}
