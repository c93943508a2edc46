import { INDIA_UTC_OFFSET, toIndianDateTimeInput } from "../../common/india-time.ts";
import type { ShipmentStatus } from "../../common/shipping.ts";
import type { Env } from "../env.ts";
import { httpError } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import type {
  CourierOption,
  CourierService,
  NdrAction,
  ShipmentRequest,
  TrackingScan,
} from "./courier-service.ts";

/**
 * Shiprocket's documented REST API (apidocs.shiprocket.in, base /v1/external) behind the courier-service
 * interface. Field names below are Shiprocket's; nothing outside this file sees them. Each request body carries
 * only fields Shiprocket's Postman collection documents, as converted to OpenAPI in api-evangelist/shiprocket
 * (openapi/shiprocket-api-openapi.yml, -couriers-, -ndr-, -labels-manifests-invoice-, -tracking-api-openapi.yml);
 * the table of each call and its source is docs/decisions/077.
 */
export type ShiprocketConfig = { email: string; password: string; pickupLocation: string; apiBase: string };

export function shiprocketConfig(env: Env): ShiprocketConfig | null {
  if (!env.SHIPROCKET_EMAIL || !env.SHIPROCKET_PASSWORD || !env.SHIPROCKET_PICKUP_LOCATION) return null;
  return {
    email: env.SHIPROCKET_EMAIL,
    password: env.SHIPROCKET_PASSWORD,
    pickupLocation: env.SHIPROCKET_PICKUP_LOCATION,
    apiBase: env.SHIPROCKET_API_BASE.replace(/\/+$/, ""),
  };
}

/** The token from auth/login lasts ten days; it is renewed a day early, and at once on a 401. */
const TOKEN_LIFETIME_MS = 9 * 24 * 60 * 60_000;

/**
 * Shiprocket's status labels ("sr-status-label") and ids mapped to the shop's. The ids are those of the
 * shipment status table: a scan's "sr-status" and a webhook's "shipment_status_id". A webhook's
 * "current_status_id" counts in another table (the courier scan codes: IN TRANSIT is 20 there, 18 here, in the
 * sample of api-evangelist/shiprocket asyncapi/shiprocket-tracking-webhooks.yml) and is never read as one.
 * Labels are matched first because the ids are documented only as a table that has changed over the years.
 */
const STATUS_BY_LABEL: Record<string, ShipmentStatus> = {
  "PICKUP SCHEDULED": "pickup_scheduled",
  "OUT FOR PICKUP": "pickup_scheduled",
  "PICKUP RESCHEDULED": "pickup_scheduled",
  "PICKED UP": "picked_up",
  SHIPPED: "in_transit",
  "IN TRANSIT": "in_transit",
  "REACHED AT DESTINATION HUB": "in_transit",
  "REACHED DESTINATION HUB": "in_transit",
  MISROUTED: "in_transit",
  DELAYED: "in_transit",
  "OUT FOR DELIVERY": "out_for_delivery",
  DELIVERED: "delivered",
  UNDELIVERED: "undelivered",
  "RTO INITIATED": "rto_initiated",
  "RTO IN TRANSIT": "rto_initiated",
  "RTO OFD": "rto_initiated",
  "RTO NDR": "rto_initiated",
  "RTO DELIVERED": "rto_delivered",
  CANCELED: "cancelled",
  CANCELLED: "cancelled",
  LOST: "lost",
};
const STATUS_BY_ID: Record<number, ShipmentStatus> = {
  6: "in_transit",
  7: "delivered",
  8: "cancelled",
  9: "rto_initiated",
  10: "rto_delivered",
  12: "lost",
  17: "out_for_delivery",
  18: "in_transit",
  19: "pickup_scheduled",
  21: "undelivered",
  38: "in_transit",
  42: "picked_up",
};

export function shiprocketStatus(
  label: string | null | undefined,
  id?: number | string | null,
): ShipmentStatus | null {
  const byLabel = label ? STATUS_BY_LABEL[label.trim().toUpperCase().replace(/_/g, " ")] : undefined;
  if (byLabel) return byLabel;
  const numeric = Number(id);
  return Number.isInteger(numeric) ? (STATUS_BY_ID[numeric] ?? null) : null;
}

/**
 * Shiprocket writes times as "2026-11-26 14:05:00" (and in webhooks' current_timestamp "26 11 2026 14:05:00"),
 * in Indian time without a zone.
 */
export function parseShiprocketTime(text: string): Date | null {
  const iso = text.match(/^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/);
  const dmy = text.match(/^(\d{2})[ -](\d{2})[ -](\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?/);
  const parts = iso
    ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]]
    : dmy
      ? [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], dmy[6]]
      : null;
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s ?? "00"}${INDIA_UTC_OFFSET}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A scan as Shiprocket sends it, in webhooks' `scans` and in tracking's `shipment_track_activities`. */
export type ShiprocketScan = {
  date: string;
  status?: string | null;
  activity?: string | null;
  location?: string | null;
  "sr-status"?: string | number | null;
  "sr-status-label"?: string | null;
};

export function toTrackingScan(scan: ShiprocketScan): TrackingScan | null {
  const at = parseShiprocketTime(String(scan.date ?? ""));
  if (!at) return null;
  const label = String(scan["sr-status-label"] ?? "").trim();
  return {
    at,
    code: String(scan.status ?? label ?? "").slice(0, 60),
    activity: String(scan.activity ?? "").slice(0, 300),
    location: String(scan.location ?? "").slice(0, 200),
    label: label.slice(0, 60),
    status: shiprocketStatus(label, scan["sr-status"]),
  };
}

const rupees = (paise: number) => Math.round(paise) / 100;
const paise = (rupeesValue: unknown) => {
  const number = Number(rupeesValue);
  return Number.isFinite(number) ? Math.round(number * 100) : null;
};
/** "2026-11-26 14:05" in Indian time, as order_date is documented. */
const indianDateTime = (date: Date) => toIndianDateTimeInput(date).replace("T", " ");

type ShiprocketError = { message?: string; errors?: Record<string, string[] | string>; status_code?: number };

/** Turns a refusal into words the owner can act on; the aggregator's own words are logged and kept beside them. */
export function explainRefusal(error: ShiprocketError | undefined, fallback: string) {
  const detail = [error?.message, ...Object.values(error?.errors ?? {}).flat()].filter(Boolean).join(" ");
  if (/wallet|balance|recharge/i.test(detail)) {
    return httpError(
      422,
      "wallet_empty",
      "Your Shiprocket wallet has too little balance for this parcel. Recharge it in Shiprocket, then book again.",
    );
  }
  if (/weight/i.test(detail)) {
    return httpError(
      422,
      "weight_missing",
      "Shiprocket needs the parcel's weight. Set the weight of every product in the order, then book again.",
    );
  }
  if (/servic|pin ?code|pincode|postcode/i.test(detail)) {
    return httpError(
      422,
      "pin_not_served",
      "No courier on Shiprocket delivers to this PIN code from your pickup address.",
    );
  }
  // Shiprocket's own words ride along for the staff who read them (`courierSaid`); the message is the shop's.
  return Object.assign(
    httpError(
      422,
      "courier_refused",
      `Shiprocket did not accept this${detail ? ` (it said: ${detail})` : ""}. Try again in a few minutes; if it is refused again, do it in Shiprocket's panel.`,
    ),
    { courierSaid: detail || fallback },
  );
}

/** Shiprocket documents billing_city as "Max char: 30"; the shop's address form allows 60. */
export const CITY_MAX = 30;

/**
 * A city name Shiprocket takes: one over 30 characters is cut at a word (or at 30), and the whole name is
 * added to the second address line so the label still carries it; the PIN code routes the parcel.
 */
export function shiprocketCity(city: string, line2: string): { city: string; line2: string } {
  const whole = city.trim();
  if (whole.length <= CITY_MAX) return { city: whole, line2 };
  const cut = whole.slice(0, CITY_MAX + 1);
  const space = cut.lastIndexOf(" ");
  const short = (space > 0 ? cut.slice(0, space) : whole.slice(0, CITY_MAX)).trim();
  return { city: short, line2: [line2.trim(), whole].filter(Boolean).join(", ") };
}

/** The NDR action documents only `action` and `comments`: a chosen day travels in the comment's words. */
export function ndrComments(action: NdrAction): string {
  if (action.kind === "return") return action.comments;
  return [action.comments, action.date ? `Please deliver on ${action.date}.` : ""].filter(Boolean).join(". ");
}

/** A Shiprocket client: the token is kept per client (per instance), renewed as it runs out. */
/** The courier service, and the pickup address's PIN for `npm run check:services`. */
export type ShiprocketService = CourierService & { pickupPostcode: () => Promise<string> };

export function createShiprocket(config: ShiprocketConfig): ShiprocketService {
  let token: { value: string; until: number } | null = null;
  let pickupPin: string | null = null;

  async function login(): Promise<string> {
    const response = await send(
      "POST",
      "/auth/login",
      { email: config.email, password: config.password },
      null,
    );
    const data = response.data as { token?: string } | undefined;
    if (!response.ok || !data?.token) {
      log.error({ status: response.status }, "Shiprocket refused the API user's sign-in");
      throw httpError(
        503,
        "courier_sign_in_failed",
        "Shiprocket refused the shop's API user. Check SHIPROCKET_EMAIL and SHIPROCKET_PASSWORD.",
      );
    }
    token = { value: data.token, until: Date.now() + TOKEN_LIFETIME_MS };
    return data.token;
  }

  async function send(method: string, path: string, body: unknown, bearer: string | null) {
    let response: Response;
    try {
      response = await fetch(`${config.apiBase}${path}`, {
        method,
        headers: {
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
    } catch (error) {
      log.error({ path, err: serializeError(error) }, "Shiprocket did not answer");
      throw httpError(503, "courier_unavailable", "Shiprocket did not answer. Please try again in a minute.");
    }
    const data = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    return { ok: response.ok, status: response.status, data };
  }

  /** A call with the token; a 401 (a token revoked or expired early) signs in again once. */
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const current = token && token.until > Date.now() ? token.value : await login();
    let response = await send(method, path, body, current);
    if (response.status === 401) response = await send(method, path, body, await login());
    if (!response.ok) {
      log.warn({ path, status: response.status, answer: response.data }, "Shiprocket refused a request");
      throw explainRefusal(response.data as ShiprocketError | undefined, `HTTP ${response.status}`);
    }
    return response.data as T;
  }

  /** The PIN code of the pickup address named in SHIPROCKET_PICKUP_LOCATION, for serviceability. */
  async function pickupPostcode(): Promise<string> {
    if (pickupPin) return pickupPin;
    const answer = await call<{
      data?: { shipping_address?: { pickup_location: string; pin_code: string | number }[] };
    }>("GET", "/settings/company/pickup");
    const found = answer.data?.shipping_address?.find(
      (address) => address.pickup_location === config.pickupLocation,
    );
    if (!found) {
      const names = (answer.data?.shipping_address ?? []).map((address) => `"${address.pickup_location}"`);
      throw httpError(
        503,
        "pickup_location_unknown",
        `Shiprocket has no pickup address named "${config.pickupLocation}" (it has ${names.join(", ") || "none"}). Check SHIPROCKET_PICKUP_LOCATION.`,
      );
    }
    pickupPin = String(found.pin_code);
    return pickupPin;
  }

  return {
    name: "Shiprocket",
    pickupPostcode,

    async couriersFor({ pin, parcel, cod, declaredValuePaise }) {
      const query = new URLSearchParams({
        pickup_postcode: await pickupPostcode(),
        delivery_postcode: pin,
        weight: String(parcel.weightGrams / 1000),
        length: String(parcel.lengthCm),
        breadth: String(parcel.breadthCm),
        height: String(parcel.heightCm),
        cod: cod ? "1" : "0",
        declared_value: String(rupees(declaredValuePaise)),
      });
      let answer: {
        status?: number;
        message?: string;
        data?: {
          available_courier_companies?: {
            courier_company_id: number | string;
            courier_name: string;
            rate: number | string;
            estimated_delivery_days?: number | string | null;
            etd?: string | null;
            cod?: number;
            rto_charges?: number | string | null;
          }[];
        };
      };
      try {
        answer = await call("GET", `/courier/serviceability/?${query}`);
      } catch (error) {
        // An unserved PIN is answered 404 ("Delivery postcode not serviceable").
        if ((error as { code?: string }).code === "courier_refused") {
          throw httpError(
            422,
            "pin_not_served",
            `No courier on Shiprocket delivers to PIN ${pin} from your pickup address.`,
          );
        }
        throw error;
      }
      const options: CourierOption[] = (answer.data?.available_courier_companies ?? [])
        .filter((company) => !cod || company.cod !== 0)
        .map((company) => {
          const days = Number(company.estimated_delivery_days);
          return {
            courierId: String(company.courier_company_id),
            name: company.courier_name,
            ratePaise: paise(company.rate) ?? 0,
            rtoPaise: company.rto_charges === undefined ? null : paise(company.rto_charges),
            estimatedDays: Number.isFinite(days) && days > 0 ? days : null,
            etd: company.etd ?? null,
          };
        });
      if (!options.length) {
        throw httpError(
          422,
          "pin_not_served",
          `No courier on Shiprocket delivers to PIN ${pin} from your pickup address.`,
        );
      }
      return options;
    },

    async createOrder(request: ShipmentRequest) {
      const [firstName = request.name, ...rest] = request.name.trim().split(/\s+/);
      const place = shiprocketCity(request.city, request.line2);
      const answer = await call<{
        order_id?: number | string;
        shipment_id?: number | string;
        status_code?: number;
      }>("POST", "/orders/create/adhoc", {
        order_id: request.reference,
        order_date: indianDateTime(request.orderedAt),
        pickup_location: config.pickupLocation,
        billing_customer_name: firstName,
        billing_last_name: rest.join(" "),
        billing_address: request.line1,
        billing_address_2: place.line2,
        billing_city: place.city,
        billing_pincode: request.pin,
        billing_state: request.state,
        billing_country: "India",
        billing_email: request.email ?? "",
        billing_phone: request.phone.replace(/\D/g, "").slice(-10),
        shipping_is_billing: true,
        order_items: request.items.map((item) => ({
          name: item.name,
          sku: item.sku,
          units: item.units,
          selling_price: rupees(item.unitPricePaise),
          discount: 0,
          tax: 0,
          ...(item.hsn ? { hsn: item.hsn } : {}),
        })),
        payment_method: request.cod ? "COD" : "Prepaid",
        // sub_total is documented as the amount "after deductions", and "the total is not calculated
        // automatically through the API": it carries the whole amount (shipping in, every discount out), and
        // the fields beside it are 0, so however Shiprocket adds them up, the courier collects what the shopper
        // owes (docs/decisions/077).
        shipping_charges: 0,
        giftwrap_charges: 0,
        transaction_charges: 0,
        total_discount: 0,
        sub_total: rupees(request.amountPaise),
        length: request.parcel.lengthCm,
        breadth: request.parcel.breadthCm,
        height: request.parcel.heightCm,
        weight: request.parcel.weightGrams / 1000,
      });
      if (!answer.order_id || !answer.shipment_id) {
        throw explainRefusal(answer as ShiprocketError, "the order was not created");
      }
      return { aggregatorOrderId: String(answer.order_id), shipmentId: String(answer.shipment_id) };
    },

    async assignCourier(shipmentId, courierId) {
      const answer = await call<{
        awb_assign_status?: number;
        message?: string;
        response?: {
          data?: {
            awb_code?: string;
            courier_company_id?: number | string;
            courier_name?: string;
            awb_assign_error?: string;
          };
        };
      }>("POST", "/courier/assign/awb", { shipment_id: Number(shipmentId), courier_id: Number(courierId) });
      const data = answer.response?.data;
      // A refusal (wallet empty, courier not serving the PIN) comes back 200 with awb_assign_status 0.
      if (answer.awb_assign_status !== 1 || !data?.awb_code) {
        throw explainRefusal(
          { message: data?.awb_assign_error ?? answer.message },
          "no airway bill was assigned",
        );
      }
      return {
        awb: String(data.awb_code),
        courierId: String(data.courier_company_id ?? courierId),
        courierName: data.courier_name ?? "",
      };
    },

    async labelUrl(shipmentIds) {
      const answer = await call<{ label_created?: number; label_url?: string; response?: string }>(
        "POST",
        "/courier/generate/label",
        { shipment_id: shipmentIds.map(Number) },
      );
      if (answer.label_created !== 1 || !answer.label_url) {
        throw explainRefusal({ message: answer.response }, "no label was made");
      }
      return answer.label_url;
    },

    async fetchLabel(url) {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        log.error({ url, err: serializeError(error) }, "a Shiprocket label could not be read");
        throw httpError(
          503,
          "courier_unavailable",
          "Shiprocket's label could not be read. Please try again.",
        );
      }
    },

    async schedulePickup(shipmentIds) {
      const answer = await call<{ pickup_status?: number; response?: { pickup_scheduled_date?: string } }>(
        "POST",
        "/courier/generate/pickup",
        { shipment_id: shipmentIds.map(Number) },
      );
      return { scheduledFor: answer.response?.pickup_scheduled_date ?? null };
    },

    async generateManifest(shipmentIds) {
      // Documented to follow the pickup ("You will have to call the 'Generate Manifest' API after the
      // successful response of this API", Request for Shipment Pickup).
      const answer = await call<{ status?: number; manifest_url?: string }>("POST", "/manifests/generate", {
        shipment_id: shipmentIds.map(Number),
      });
      return answer.manifest_url || null;
    },

    async updateDeliveryAddress(aggregatorOrderId, address) {
      const [firstName = address.name, ...rest] = address.name.trim().split(/\s+/);
      const place = shiprocketCity(address.city, address.line2);
      // POST orders/address/update: its documented fields only (shipping_last_name is not among them, so
      // the whole name goes in shipping_customer_name).
      await call("POST", "/orders/address/update", {
        order_id: Number(aggregatorOrderId),
        shipping_customer_name: [firstName, ...rest].join(" "),
        shipping_phone: address.phone.replace(/\D/g, "").slice(-10),
        shipping_address: address.line1,
        shipping_address_2: place.line2,
        shipping_city: place.city,
        shipping_state: address.state,
        shipping_country: "India",
        shipping_pincode: Number(address.pin),
        ...(address.email ? { shipping_email: address.email } : {}),
      });
    },

    async cancel(aggregatorOrderIds) {
      await call("POST", "/orders/cancel", { ids: aggregatorOrderIds.map(Number) });
    },

    async track(awb) {
      const answer = await call<{
        tracking_data?: { shipment_track_activities?: ShiprocketScan[] | null };
      }>("GET", `/courier/track/awb/${encodeURIComponent(awb)}`);
      // Listed newest first; turned round so scans of the same second keep the courier's order.
      return [...(answer.tracking_data?.shipment_track_activities ?? [])]
        .reverse()
        .map(toTrackingScan)
        .filter((scan): scan is TrackingScan => scan !== null);
    },

    async ndr(awb, action: NdrAction) {
      // Action NDR documents `action` and `comments`, nothing else: a corrected address went through
      // orders/address/update before this (shipments.ts actOnUndelivered).
      await call("POST", `/ndr/${encodeURIComponent(awb)}/action`, {
        action: action.kind === "reattempt" ? "re-attempt" : "return",
        comments: ndrComments(action),
      });
    },
  };
}
