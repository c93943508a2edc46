/**
 * What the shop needs from a courier aggregator, whichever it is (Shiprocket today; Delhivery, NimbusPost or
 * iThink Logistics offer the same steps). Orders and the admin speak only this; an aggregator's field names
 * stay in its own file. Plain functions on a plain object, so a test can hand in a fake.
 */

import type { Parcel, ShipmentStatus } from "../../common/shipping.ts";

export type { Parcel };

/** One courier that serves the PIN, with what it charges and when it expects to deliver. */
export type CourierOption = {
  courierId: string;
  name: string;
  ratePaise: number;
  /** What a return to origin would cost with this courier, when the aggregator quotes it. */
  rtoPaise: number | null;
  /** Days the courier expects to take, when it says. */
  estimatedDays: number | null;
  /** The expected delivery date as the aggregator words it ("Nov 30, 2026"), when it says. */
  etd: string | null;
};

/** What the aggregator needs to book one order's parcel. */
export type ShipmentRequest = DeliveryAddress & {
  /** The shop's order number: the aggregator's own "order id" on its side, unique per account. */
  reference: string;
  orderedAt: Date;
  cod: boolean;
  items: { name: string; sku: string; units: number; unitPricePaise: number; hsn: string | null }[];
  /**
   * The order's value after every deduction and with its shipping: for a COD parcel, exactly the cash the
   * courier collects (docs/decisions/077).
   */
  amountPaise: number;
  parcel: Parcel;
};

/** A corrected delivery address or mobile, sent to the aggregator before a re-attempt is asked for. */
export type DeliveryAddress = {
  name: string;
  phone: string;
  email: string | null;
  line1: string;
  line2: string;
  city: string;
  state: string;
  pin: string;
};

/** One scan of the parcel as the courier recorded it. */
export type TrackingScan = {
  at: Date;
  /** The courier's own code for the scan ("X-PPOM"), or the aggregator's status label when it has none. */
  code: string;
  activity: string;
  location: string;
  /** The aggregator's status label for the scan ("IN TRANSIT"). */
  label: string;
  /** Null for scans that do not move the parcel along (a manifest uploaded, a note). */
  status: ShipmentStatus | null;
};

/**
 * What the owner chose for a parcel the courier could not deliver. A corrected address or phone is the shop's
 * word here: the aggregator's client sends it through its address update first, never in the NDR action.
 */
export type NdrAction =
  | {
      kind: "reattempt";
      date: string | null;
      comments: string;
      address?: { line1: string; line2: string } | null;
      phone?: string | null;
    }
  | { kind: "return"; comments: string };

export type CourierService = {
  /** The aggregator's name, shown to staff and stored on each shipment. */
  name: string;
  couriersFor(input: {
    pin: string;
    parcel: Parcel;
    cod: boolean;
    declaredValuePaise: number;
  }): Promise<CourierOption[]>;
  /** Creates the order at the aggregator; `awb` below books a courier for it. Returns the aggregator's ids. */
  createOrder(request: ShipmentRequest): Promise<{ aggregatorOrderId: string; shipmentId: string }>;
  /** The airway bill; what it costs is the serviceability quote, the assignment's answer does not say. */
  assignCourier(
    shipmentId: string,
    courierId: string,
  ): Promise<{ awb: string; courierId: string; courierName: string }>;
  /** One PDF holding the labels of these shipments. */
  labelUrl(shipmentIds: string[]): Promise<string>;
  /** Reads a label PDF the aggregator made (its URL is on its own storage). */
  fetchLabel(url: string): Promise<Uint8Array>;
  schedulePickup(shipmentIds: string[]): Promise<{ scheduledFor: string | null }>;
  /** The manifest the courier's pickup person signs, asked for after the pickup; its PDF's URL. */
  generateManifest(shipmentIds: string[]): Promise<string | null>;
  /** Changes the delivery address (and mobile) of an order the aggregator already has. */
  updateDeliveryAddress(aggregatorOrderId: string, address: DeliveryAddress): Promise<void>;
  cancel(aggregatorOrderIds: string[]): Promise<void>;
  track(awb: string): Promise<TrackingScan[]>;
  ndr(awb: string, action: NdrAction): Promise<void>;
};
