import { useState } from "react";
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from "react-router";
import { formatDateTime } from "../../common/india-time.ts";
import type { AdminOrderDetail } from "../../common/orders.ts";
import type { OrderRtoView } from "../../common/rto.ts";
import { invoiceDue, type SellerInvoiceStatus } from "../../common/schemas/missed-invoices.ts";
import { orderEditable } from "../../common/schemas/order-edit.ts";
import type { ShipmentView } from "../../common/shipping.ts";
import { ResultMessage, type ResultMessageState } from "../components/result-message.tsx";
import { RouteError } from "../components/route-error.tsx";
import { RtoPanel } from "../features/cod/rto-panel.tsx";
import { AdminCourierDetailsPanel } from "../features/orders/admin-courier-details.tsx";
import { AdminCustomerPanel } from "../features/orders/admin-customer-panel.tsx";
import { AdminOrderHistory } from "../features/orders/admin-order-history.tsx";
import { AdminStatusPanel } from "../features/orders/admin-status-panel.tsx";
import { OrderInvoiceNotice } from "../features/orders/missed-invoices.tsx";
import { OrderEditPanel } from "../features/orders/order-edit.tsx";
import { OrderItemsCard } from "../features/orders/order-lines.tsx";
import { StatusBadge } from "../features/orders/status-badge.tsx";
import { AdminShipmentPanel } from "../features/shipping/admin-shipment-panel.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireAdminUser(request);
  const number = encodeURIComponent(params.number ?? "");
  const [detail, shipping, parcel, seller, returned] = await Promise.all([
    api<{ order: AdminOrderDetail }>(`/admin/orders/${number}`),
    api<{ connected: boolean }>("/admin/shipping"),
    api<{ shipment: ShipmentView | null }>(`/admin/shipping/orders/${number}`),
    api<SellerInvoiceStatus>("/admin/missed-invoices/seller"),
    api<{ rto: OrderRtoView | null; chargesPaise: number | null }>(`/admin/rto/orders/${number}`),
  ]);
  return {
    ...detail,
    shippingConnected: shipping.connected,
    shipment: parcel.shipment,
    seller,
    returned,
    isOwner: admin.role === "owner",
  };
}

export const ErrorBoundary = RouteError;

export const handle: RouteHandle = { meta: privatePage("Admin: order") };

/**
 * One order for staff: its items and history, and beside them (first, on a phone) a panel per concern: the
 * customer and payment, the parcel, changing the items, a return to origin, the status, the courier's details.
 * Every panel says what happened in the page's one message, and the order is read again after each change.
 */
export function Component() {
  const { order, shippingConnected, shipment, seller, isOwner, returned } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  const done = (result: ResultMessageState) => {
    setMessage(result);
    revalidator.revalidate();
  };
  const said = (text: string) => done({ kind: "ok", text });

  return (
    <div>
      <p className="text-sm">
        <Link to="/admin/orders" className="underline">
          ← All orders
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-serif text-3xl font-semibold">Order {order.number}</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Placed {formatDateTime(order.placedAt)}
          </p>
        </div>
        <StatusBadge status={order.status} parcelBack={order.parcelBack} />
      </div>
      <ResultMessage message={message} />
      {!order.documents.invoice && (!seller.canIssue || invoiceDue(order.status)) && (
        <OrderInvoiceNotice number={order.number} seller={seller} isOwner={isOwner} onDone={done} />
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_24rem]">
        <div className="space-y-6">
          <OrderItemsCard order={order} />
          <AdminOrderHistory events={order.events} />
        </div>

        {/* On a phone, what staff act on comes before the items. */}
        <div className="order-first space-y-6 lg:order-none">
          <AdminCustomerPanel order={order} onCashRecorded={() => revalidator.revalidate()} />
          <AdminShipmentPanel
            number={order.number}
            status={order.status}
            connected={shippingConnected}
            shipment={shipment}
            onChanged={said}
          />
          {orderEditable(order.status) && !shipment && <OrderEditPanel order={order} onDone={done} />}
          <RtoPanel
            number={order.number}
            status={order.status}
            rto={returned.rto}
            chargesPaise={returned.chargesPaise}
            receivedElsewhere={shipment?.status === "rto_delivered" && !shipment.receivedBack}
            onChanged={said}
          />
          <AdminStatusPanel
            order={order}
            shippingByHand={!shipment}
            shippingConnected={shippingConnected}
            onDone={done}
          />
          {(order.status === "shipped" || order.status === "delivered") && !shipment && (
            <AdminCourierDetailsPanel order={order} onDone={done} />
          )}
        </div>
      </div>
    </div>
  );
}
