import { formatDateTime } from "../../../common/india-time.ts";
import {
  formatPickupDay,
  SHIPMENT_STATUS_LABELS,
  type ShipmentView,
  scanHeadline,
} from "../../../common/shipping.ts";

/** The parcel's scans, newest first, as the courier recorded them; shared by the shopper's and staff's pages. */
export function ParcelJourney({ shipment }: { shipment: ShipmentView }) {
  const scans = [...shipment.scans].reverse();
  return (
    <div>
      <p className="text-sm">
        <span className="font-medium">{SHIPMENT_STATUS_LABELS[shipment.status]}</span>
        {shipment.courier && (
          <>
            {" "}
            · {shipment.courier}
            {shipment.awb && (
              <>
                , AWB <span className="font-mono break-all">{shipment.awb}</span>
              </>
            )}
          </>
        )}
      </p>
      {scans.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          {shipment.pickupScheduledFor
            ? `The courier collects the parcel on ${formatPickupDay(shipment.pickupScheduledFor)}.`
            : "No scans yet."}
        </p>
      ) : (
        <ol
          aria-label="Parcel scans"
          className="mt-3 space-y-3 border-l-2 border-brand-200 pl-4 dark:border-brand-800"
        >
          {scans.map((scan) => (
            <li key={`${scan.at}-${scan.label}-${scan.activity}`} className="text-sm">
              <p className="font-medium">{scanHeadline(scan)}</p>
              <p className="text-stone-700 dark:text-stone-300">{scan.activity}</p>
              <p className="text-xs text-stone-600 dark:text-stone-400">
                {formatDateTime(scan.at)}
                {scan.location ? ` · ${scan.location}` : ""}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
