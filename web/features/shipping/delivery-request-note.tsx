import { formatEstimateDate } from "../../../common/delivery-estimate.ts";
import { formatMobile } from "../../../common/india.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import type { DeliveryRequest } from "../../../common/shipping.ts";

const OUTCOME_WORDS: Record<DeliveryRequest["outcome"], string> = {
  sent: "Sent to the courier through",
  passed_on: "Passed on by you through",
  refused: "Not taken by",
  asking: "No answer yet from",
};

/**
 * The shopper's answer to a failed delivery, as staff read it on the order and on the Shipping desk: what they
 * asked, when, and what the aggregator did with it. A refused one says so first, with the aggregator's words
 * and what to do, so the owner can pass it on to the courier by hand (docs/decisions/082).
 */
export function DeliveryRequestNote({
  request,
  service,
  courier,
  awb,
}: {
  request: DeliveryRequest;
  service: string;
  courier: string | null;
  awb: string | null;
}) {
  const waiting = request.outcome === "refused" || request.outcome === "asking";
  const address = [request.line1, request.line2].filter(Boolean).join(", ");
  return (
    <div
      className={`mt-2 rounded-md border p-3 text-sm ${
        waiting
          ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          : "border-stone-200 bg-white text-stone-800 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
      }`}
    >
      <p className="font-medium">
        {waiting ? "The shopper's request needs passing on" : "The shopper asked"}{" "}
        <span className="font-normal">({formatDateTime(request.at)})</span>
      </p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
        <dt>Day</dt>
        <dd>{request.day ? formatEstimateDate(request.day) : "any"}</dd>
        {address && (
          <>
            <dt>Address</dt>
            <dd className="break-words">{address}</dd>
          </>
        )}
        {request.phone && (
          <>
            <dt>Mobile</dt>
            <dd>{formatMobile(request.phone)}</dd>
          </>
        )}
      </dl>
      <p className="mt-1">
        {OUTCOME_WORDS[request.outcome]} {service}
        {request.outcome === "refused" && request.courierSaid ? ` (it said: ${request.courierSaid})` : ""}.
      </p>
      {waiting && (
        <p className="mt-1">
          Call {courier ?? "the courier"}
          {awb ? `, AWB ${awb},` : ""} with this request, or use the buttons below. The shopper has been told
          you will pass it on.
        </p>
      )}
    </div>
  );
}
