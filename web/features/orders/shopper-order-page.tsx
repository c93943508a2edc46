import type { ReactNode } from "react";
import type { OrderDetail } from "../../../common/orders.ts";
import type { ShipmentView } from "../../../common/shipping.ts";
import { CancelOrderDialog } from "./cancel-order-dialog.tsx";
import { DeliveryCard } from "./delivery-card.tsx";
import { OrderBody, OrderHeading } from "./order-body.tsx";
import { OrderHelpCard } from "./order-help-card.tsx";

/**
 * A shopper's order page, signed in or by a guest's link, laid out once: the heading, the cash-on-delivery
 * question (`codCard`), the parcel, the order with its delivery card, what the reader may do next, and the
 * cancel dialog. A failed delivery waits for the shopper (the mail links here), so while it is open the
 * parcel comes first, laid across the page above the items; otherwise it sits beside them.
 */
export function ShopperOrderPage({
  order,
  above,
  heading,
  codCard,
  shipment,
  parcelCard,
  documents,
  account,
  note,
  cancelling,
  setCancelling,
  cancel,
  onReturn,
  children,
}: {
  order: OrderDetail;
  /** Above the heading: the way back to the list the page came from. */
  above?: ReactNode;
  heading: Omit<Parameters<typeof OrderHeading>[0], "order">;
  codCard: ReactNode;
  shipment: ShipmentView | null;
  parcelCard: (shipment: ShipmentView, wide: boolean) => ReactNode;
  /** The invoice's and credit notes' links, in the delivery card. */
  documents: ReactNode;
  /** Between the parcel and the help card: where the order belongs (a guest's). */
  account?: ReactNode;
  /** Below the help card. */
  note?: ReactNode;
  cancelling: boolean;
  setCancelling: (open: boolean) => void;
  cancel: (reason: string | undefined) => Promise<void>;
  /** Given where a return can be asked for from this page (an account's order). */
  onReturn?: () => void;
  /** Further dialogs. */
  children?: ReactNode;
}) {
  const parcelFirst = shipment?.status === "undelivered";
  return (
    <div>
      {above}
      <OrderHeading order={order} {...heading} />
      {codCard}

      {shipment && parcelFirst && <div className="mt-4">{parcelCard(shipment, true)}</div>}

      <OrderBody
        order={order}
        aside={
          <>
            <DeliveryCard order={order}>{documents}</DeliveryCard>
            {shipment && !parcelFirst && parcelCard(shipment, false)}
            {account}
            <OrderHelpCard actions={order.actions} onCancel={() => setCancelling(true)} onReturn={onReturn} />
            {note}
          </>
        }
      />

      <CancelOrderDialog
        order={order}
        open={cancelling}
        onClose={() => setCancelling(false)}
        cancel={cancel}
      />
      {children}
    </div>
  );
}
