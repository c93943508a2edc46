import type { FreeShippingBasis } from "./cart.ts";
import type { CodCash, CodRefundMethod } from "./cod.ts";
/** Response shapes of the checkout and order APIs, shared by the server's presenters and the web app. */
import type { DeliveryEstimate } from "./delivery-estimate.ts";
import type { ListCursors, ListTotal } from "./lists.ts";
import type { OrderActor, OrderEventKind, OrderStatus } from "./order-lifecycle.ts";
import type { OrderPricing } from "./order-pricing.ts";
import type { PrepaidSaving } from "./prepaid-incentive.ts";
import type { Address, SavedAddress } from "./schemas/address.ts";

export type PaymentMethod = "cod" | "razorpay";

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cod: "Cash on delivery",
  razorpay: "UPI, card or netbanking",
};

export type PaymentOptions = {
  cod: { enabled: boolean; maxOrderPaise: number; available: boolean };
  /** `offer`: what paying online saves on this order (the owner's prepaid incentive), in words; null: nothing. */
  razorpay: { enabled: boolean; offer: string | null };
};

export type CheckoutSummary = {
  /** The order paid in cash on delivery, or before a way of paying is chosen. */
  pricing: OrderPricing;
  /** The same order paid online, with the owner's prepaid incentive; null when Razorpay is off. */
  onlinePricing: OrderPricing | null;
  /** Image URLs for the lines, by item id. */
  images: Record<string, string>;
  addresses: SavedAddress[];
  estimate: DeliveryEstimate;
  payment: PaymentOptions;
  freeShippingMinPaise: number;
  freeShippingBasis: FreeShippingBasis;
  /** By address id: whether the shop delivers there and takes cash there (common/delivery-check.ts). */
  delivery: Record<string, AddressDelivery>;
  /** The same for the address a guest sent (POST /api/checkout/guest with `address`); null otherwise. */
  guestDelivery: AddressDelivery | null;
};

export type AddressDelivery = {
  served: boolean;
  /** Why this address cannot be ordered to, or null. */
  problem: string | null;
  /** Why cash on delivery is not offered for this order to this address, or null. */
  codProblem: string | null;
};

export type OrderLine = {
  itemId: string;
  kind: "product" | "combo";
  name: string;
  image: string;
  unitPricePaise: number;
  quantity: number;
  lineTotalPaise: number;
};

export type OrderEvent = {
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  kind: OrderEventKind;
  actor: OrderActor;
  note: string | null;
  at: string;
};

export type OrderListItem = {
  number: string;
  status: OrderStatus;
  placedAt: string;
  totalPaise: number;
  paymentMethod: PaymentMethod;
  lines: OrderLine[];
  /** When each status on the way was reached, for the progress line. */
  events: OrderEvent[];
  /** A parcel returned to origin is back: the courier delivered it back or staff received it. */
  parcelBack: boolean;
};

export type OrderDetail = OrderListItem & {
  subtotalPaise: number;
  discount: { code: string; amountPaise: number } | null;
  /** What paying online saved (the owner's prepaid incentive, docs/decisions/072). */
  prepaid: PrepaidSaving | null;
  shippingPaise: number;
  /** As the order was shipped to; the district is null on orders placed before orders kept it. */
  address: Omit<Address, "district"> & { district: string | null };
  estimate: DeliveryEstimate;
  courier: string | null;
  trackingNumber: string | null;
  /** The courier's page for this parcel, when there is one (common/couriers.ts). */
  trackingUrl: string | null;
  paidAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  /** The numbers of the order's GST tax invoice and credit note, once issued (downloads). */
  documents: { invoice: string | null; creditNote: string | null };
  /** What the customer may do now, with the reason when a usual action is closed. */
  actions: {
    cancel: { allowed: boolean; reason: string | null };
    requestReturn: { allowed: boolean; reason: string | null };
    pay: boolean;
  };
  /**
   * A cash-on-delivery order waiting for the shopper's confirmation (docs/decisions/065): when the shop cancels it,
   * and the key of its confirmation link, so the order's own pages confirm it as the link does (docs/decisions/079).
   */
  codConfirm: { confirmBy: string; token: string } | null;
};

export type PlacedOrder = { order: OrderDetail };

/** The customer's orders, newest first by keyset. */
export type OrderPage = { orders: OrderListItem[]; pageSize: number; total: ListTotal } & ListCursors;

export type RazorpayCheckout = {
  keyId: string;
  scriptUrl: string;
  razorpayOrderId: string;
  amountPaise: number;
  currency: "INR";
  shopName: string;
  description: string;
  prefill: { name: string; email: string; contact: string };
  /** Seconds the payment window stays open, so the modal closes before an unpaid order expires. */
  timeoutSeconds: number;
};

export type AdminOrderRow = {
  number: string;
  status: OrderStatus;
  placedAt: string;
  customerName: string;
  customerEmail: string | null;
  phone: string;
  city: string;
  itemCount: number;
  totalPaise: number;
  paymentMethod: PaymentMethod;
  paid: boolean;
  /** As OrderListItem's: a returned parcel is back with the shop. */
  parcelBack: boolean;
};

/** One page of the staff's order list, newest first; `next` and `previous` are cursors (common/lists.ts). */
export type AdminOrderPage = { orders: AdminOrderRow[]; pageSize: number; total: ListTotal } & ListCursors;

export type AdminOrderEvent = OrderEvent & { actorEmail: string | null };

export type AdminOrderDetail = Omit<OrderDetail, "actions" | "events"> & {
  customerEmail: string | null;
  events: AdminOrderEvent[];
  razorpayPaymentId: string | null;
  refundReference: string | null;
  /** How a cash-on-delivery refund was paid back (docs/decisions/059); null otherwise. */
  refundMethod: CodRefundMethod | null;
  /** The cash recorded for a cash-on-delivery order; null until recorded. */
  cash: CodCash | null;
  /** Statuses staff may move the order to now. */
  nextStatuses: OrderStatus[];
};

export type StockItem = {
  kind: "product" | "combo";
  id: string;
  name: string;
  stock: number;
  active: boolean;
  low: boolean;
};

export type StockList = { items: StockItem[]; lowStockThreshold: number };

export type DashboardFigures = {
  today: { orders: number; revenuePaise: number };
  week: { orders: number; revenuePaise: number };
  revenueByDay: { date: string; orders: number; revenuePaise: number }[];
  byStatus: { status: OrderStatus; count: number }[];
  lowStock: number;
};
