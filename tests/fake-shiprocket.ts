import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import PDFDocument from "pdfkit";
import { readJson } from "./fake-http.ts";

/**
 * A local stand-in for Shiprocket's external API (/v1/external), for tests. It follows Shiprocket's own
 * Postman collection (apidocs.shiprocket.in) as converted to OpenAPI in the repository api-evangelist/shiprocket,
 * not the shop's reading of it:
 * - openapi/shiprocket-api-openapi.yml: Create Custom Order (orders/create/adhoc: its parameter table is the
 *   list of fields taken, its required list, "billing_city ... Max char: 30", "New orders cannot be created with
 *   order id's same as that of cancelled orders" (422), "order_id field cannot be equal to an already existing
 *   id. Doing so does not change or affect the existing order"), Update Customer Delivery Address
 *   (orders/address/update, 202), Cancel an Order (orders/cancel, 204).
 * - openapi/shiprocket-couriers-api-openapi.yml: Check Courier Serviceability (rate, freight_charge,
 *   rto_charges, cod_charges ...), Generate AWB for Shipment (its answer has no freight_charges), Request for
 *   Shipment Pickup ("Only one shipment_id can be passed at a time"; Generate Manifest to follow).
 * - openapi/shiprocket-labels-manifests-invoice-api-openapi.yml: Generate Label, Generate Manifest ("AWB must be
 *   assigned and pickup requested", 400 with already_manifested_shipment_ids).
 * - openapi/shiprocket-ndr-api-openapi.yml: Action NDR documents `action` and `comments` only, both required;
 *   202 {status}.
 * - openapi/shiprocket-tracking-api-openapi.yml: Get Tracking through AWB.
 * - asyncapi/shiprocket-tracking-webhooks.yml: the tracking webhook's fields and sample, where
 *   current_status_id (20 for IN TRANSIT) is not shipment_status_id (18).
 * Where the real service's answer to a field it does not document is unknown, this fake refuses it (422,
 * "not a documented field") and lists it in `undocumented`: a shop sending a field the documentation lacks
 * fails its tests. Wallet refusals (200 with awb_assign_status 0) and the exact words of refusals are not in
 * the collection; they follow what Shiprocket answers accounts in use.
 */
export type FakeScan = {
  date: string;
  status: string;
  activity: string;
  location: string;
  "sr-status": string;
  "sr-status-label": string;
};

type FakeShipment = {
  orderId: number;
  shipmentId: number;
  channelOrderId: string;
  pin: string;
  name: string;
  weightKg: number;
  cod: boolean;
  awb: string | null;
  courierId: number | null;
  courierName: string | null;
  status: "NEW" | "AWB ASSIGNED" | "PICKUP SCHEDULED" | "CANCELED";
  scans: FakeScan[];
  ndrActions: Record<string, unknown>[];
  /** The Create Custom Order body as received. */
  created: Record<string, unknown>;
  /** Each Update Customer Delivery Address body received for this order. */
  addressUpdates: Record<string, unknown>[];
  pickupRequested: boolean;
  manifested: boolean;
};

export type FakeShiprocket = {
  url: string;
  email: string;
  password: string;
  pickupLocation: string;
  webhookToken: string;
  env: Record<string, string>;
  shipments: FakeShipment[];
  /** PIN codes no courier serves. */
  unservedPins: Set<string>;
  /** The wallet, in paise; a booking that costs more is refused. */
  wallet: { paise: number };
  /** Requests received, "METHOD /path", to count calls (a double click must book once). */
  calls: string[];
  /** "METHOD /path field" for every field sent that the documentation does not list (each was refused). */
  undocumented: string[];
  logins: number;
  /** Makes every token issued so far invalid, as if it had expired: the next call is answered 401. */
  expireTokens: () => void;
  byAwb: (awb: string) => FakeShipment;
  /** Records a scan as the courier would; `label` is Shiprocket's sr-status-label ("PICKED UP"). */
  scan: (awb: string, label: ScanLabel, at?: Date) => FakeScan;
  /** The webhook body Shiprocket posts for a shipment, its scans as they are now (or only some of them). */
  webhookBody: (awb: string, scans?: FakeScan[]) => Record<string, unknown>;
  /** Posts the tracking webhook to `target` with the x-api-key header, as Shiprocket does. */
  sendWebhook: (target: string, awb: string, scans?: FakeScan[]) => Promise<number>;
  stop: () => Promise<void>;
};

export type ScanLabel = keyof typeof SCAN_KINDS;

/** Shiprocket's status labels and ids (sr-status), with a courier scan code and words for each. */
const SCAN_KINDS = {
  // A step on the seller's side (the status table's 5), not a parcel status: the shop names it in its own words.
  "MANIFEST GENERATED": { id: "5", code: "MAN-5", activity: "Manifest generated" },
  "PICKUP SCHEDULED": { id: "19", code: "FMPUR-101", activity: "Pickup scheduled" },
  "PICKED UP": { id: "42", code: "X-PPOM", activity: "Shipment picked up" },
  "IN TRANSIT": { id: "18", code: "X-DLL2F", activity: "Bag added to trip" },
  "OUT FOR DELIVERY": { id: "17", code: "X-DDD3FD", activity: "Out for delivery" },
  DELIVERED: { id: "7", code: "EOD-38", activity: "Delivered to consignee" },
  UNDELIVERED: { id: "21", code: "EOD-6", activity: "Consignee unavailable" },
  "RTO INITIATED": { id: "9", code: "RT-101", activity: "Returned as per client instruction" },
  "RTO DELIVERED": { id: "10", code: "RT-110", activity: "RTO delivered to shipper" },
} as const;

/** Each request body's documented fields (and the order items'), from the OpenAPI files named above. */
const DOCUMENTED: Record<string, readonly string[]> = {
  "POST /auth/login": ["email", "password"],
  "POST /orders/create/adhoc": [
    "order_id",
    "order_date",
    "pickup_location",
    "comment",
    "reseller_name",
    "company_name",
    "billing_customer_name",
    "billing_last_name",
    "billing_address",
    "billing_address_2",
    "billing_isd_code",
    "billing_city",
    "billing_pincode",
    "billing_state",
    "billing_country",
    "billing_email",
    "billing_phone",
    "billing_alternate_phone",
    "shipping_is_billing",
    "shipping_customer_name",
    "shipping_last_name",
    "shipping_address",
    "shipping_address_2",
    "shipping_city",
    "shipping_pincode",
    "shipping_country",
    "shipping_state",
    "shipping_email",
    "shipping_phone",
    "order_items",
    "payment_method",
    "shipping_charges",
    "giftwrap_charges",
    "transaction_charges",
    "total_discount",
    "sub_total",
    "length",
    "breadth",
    "height",
    "weight",
    "ewaybill_no",
    "customer_gstin",
    "invoice_number",
    "order_type",
  ],
  "order_items[]": ["name", "sku", "units", "selling_price", "discount", "tax", "hsn"],
  "POST /orders/address/update": [
    "order_id",
    "shipping_customer_name",
    "shipping_phone",
    "shipping_address",
    "shipping_address_2",
    "shipping_city",
    "shipping_state",
    "shipping_country",
    "shipping_pincode",
    "shipping_email",
    "billing_alternate_phone",
  ],
  "POST /orders/cancel": ["ids"],
  "POST /courier/assign/awb": ["shipment_id", "courier_id", "status"],
  "POST /courier/generate/label": ["shipment_id"],
  "POST /courier/generate/pickup": ["shipment_id"],
  "POST /manifests/generate": ["shipment_id"],
  "POST /ndr/action": ["action", "comments"],
  "GET /courier/serviceability": [
    "pickup_postcode",
    "delivery_postcode",
    "order_id",
    "cod",
    "weight",
    "length",
    "breadth",
    "height",
    "declared_value",
    "mode",
    "is_return",
    "couriers_type",
    "only_local",
    "qc_check",
  ],
};

/** Fields each body must carry (Create Custom Order's and Update Customer Delivery Address's required lists). */
const REQUIRED: Record<string, readonly string[]> = {
  "POST /orders/create/adhoc": [
    "order_id",
    "order_date",
    "pickup_location",
    "billing_customer_name",
    "billing_address",
    "billing_city",
    "billing_pincode",
    "billing_state",
    "billing_country",
    "billing_email",
    "billing_phone",
    "shipping_is_billing",
    "order_items",
    "payment_method",
    "sub_total",
    "length",
    "breadth",
    "height",
    "weight",
  ],
  "POST /orders/address/update": [
    "order_id",
    "shipping_customer_name",
    "shipping_phone",
    "shipping_address",
    "shipping_city",
    "shipping_state",
    "shipping_country",
    "shipping_pincode",
  ],
  "POST /ndr/action": ["action", "comments"],
};

const COURIERS = [
  { id: 10, name: "Delhivery Surface", perHalfKg: 42, days: 5 },
  { id: 24, name: "Xpressbees Surface", perHalfKg: 38, days: 6 },
  { id: 33, name: "Blue Dart Air", perHalfKg: 85, days: 2 },
];

/** "2026-11-26 14:05:09", Indian time, as Shiprocket writes scan dates. */
const indianTime = (date: Date) =>
  new Date(date.getTime() + 330 * 60_000).toISOString().slice(0, 19).replace("T", " ");

/** A one-page 4x6 inch label like a courier's: courier, AWB, consignee and order. */
function labelPdf(shipments: FakeShipment[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [288, 432], margin: 18 });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    shipments.forEach((shipment, index) => {
      if (index > 0) doc.addPage();
      doc.fontSize(16).text(shipment.courierName ?? "Courier");
      doc.moveDown().fontSize(12).text(`AWB ${shipment.awb}`);
      doc.text(`Order ${shipment.channelOrderId}`);
      doc.moveDown().text(`Deliver to: ${shipment.name}`).text(`PIN ${shipment.pin}`);
      doc.text(shipment.cod ? "COD" : "PREPAID");
    });
    doc.end();
  });
}

export async function startFakeShiprocket(): Promise<FakeShiprocket> {
  const email = `api-${randomBytes(4).toString("hex")}@shop.example`;
  const password = randomBytes(12).toString("hex");
  const pickupLocation = "Primary";
  const webhookToken = randomBytes(16).toString("hex");
  const tokens = new Set<string>();
  const shipments: FakeShipment[] = [];
  const unservedPins = new Set<string>();
  const wallet = { paise: 1_000_000 };
  const calls: string[] = [];
  let logins = 0;
  let nextId = 4_000_000;

  const send = (response: ServerResponse, status: number, body: unknown, type = "application/json") => {
    response.writeHead(status, { "Content-Type": type });
    response.end(typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  };
  const rateFor = (courier: (typeof COURIERS)[number], weightKg: number, cod: boolean) =>
    courier.perHalfKg * Math.max(1, Math.ceil(weightKg / 0.5)) + (cod ? 30 : 0);
  const undocumented: string[] = [];
  const invalid = (response: ServerResponse, errors: Record<string, string[]>) =>
    send(response, 422, { message: "Oops! Invalid Data.", errors, status_code: 422 });
  /** The fields of `body` the call's documentation does not list, and the required ones it lacks. */
  const check = (call: string, body: Record<string, unknown>) => {
    const errors: Record<string, string[]> = {};
    const documented = DOCUMENTED[call] ?? [];
    for (const field of Object.keys(body)) {
      if (!documented.includes(field)) {
        undocumented.push(`${call} ${field}`);
        errors[field] = [`${field} is not a documented field.`];
      }
    }
    for (const field of REQUIRED[call] ?? []) {
      if (
        body[field] === undefined ||
        body[field] === null ||
        (body[field] === "" && field !== "billing_email")
      ) {
        errors[field] = [`The ${field.replace(/_/g, " ")} field is required.`];
      }
    }
    return errors;
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/v1\/external/, "").replace(/\/+$/, "");
    calls.push(`${request.method} ${path}`);
    try {
      const label = path.match(/^\/labels\/(\d+)\.pdf$/);
      if (request.method === "GET" && label) {
        const ids = (url.searchParams.get("ids") ?? label[1] ?? "").split(",").map(Number);
        const chosen = shipments.filter((shipment) => ids.includes(shipment.shipmentId));
        return send(response, 200, await labelPdf(chosen), "application/pdf");
      }
      if (request.method === "POST" && path === "/auth/login") {
        const body = await readJson(request);
        const errors = check("POST /auth/login", body);
        if (Object.keys(errors).length) return invalid(response, errors);
        if (body.email !== email || body.password !== password) {
          return send(response, 400, { message: "Invalid email and password combination", status_code: 400 });
        }
        logins++;
        const token = randomBytes(24).toString("base64url");
        tokens.add(token);
        return send(response, 200, {
          id: 1,
          first_name: "API",
          last_name: "User",
          email,
          company_id: 7,
          token,
        });
      }
      const bearer = request.headers.authorization?.replace(/^Bearer /, "") ?? "";
      if (!tokens.has(bearer)) {
        return send(response, 401, { message: "Token has expired", status_code: 401 });
      }
      if (request.method === "GET" && path === "/settings/company/pickup") {
        return send(response, 200, {
          data: {
            shipping_address: [
              { id: 1, pickup_location: pickupLocation, pin_code: "560038", city: "Bengaluru" },
            ],
          },
        });
      }
      if (request.method === "GET" && path === "/courier/serviceability") {
        const errors = check("GET /courier/serviceability", Object.fromEntries(url.searchParams));
        if (Object.keys(errors).length) return invalid(response, errors);
        const pin = url.searchParams.get("delivery_postcode") ?? "";
        const weightKg = Number(url.searchParams.get("weight"));
        const cod = url.searchParams.get("cod") === "1";
        if (!url.searchParams.get("pickup_postcode") || !(weightKg > 0)) {
          return send(response, 422, {
            message: "Oops! Invalid Data.",
            errors: { weight: ["The weight field is required."] },
            status_code: 422,
          });
        }
        if (unservedPins.has(pin) || !/^[1-9]\d{5}$/.test(pin)) {
          return send(response, 404, { message: "Delivery postcode not serviceable", status: 404 });
        }
        const today = new Date();
        return send(response, 200, {
          status: 200,
          data: {
            available_courier_companies: COURIERS.map((courier) => {
              const etd = new Date(today.getTime() + courier.days * 86_400_000);
              return {
                courier_company_id: courier.id,
                courier_name: courier.name,
                rate: rateFor(courier, weightKg, cod),
                freight_charge: rateFor(courier, weightKg, false),
                rto_charges: rateFor(courier, weightKg, false),
                cod_charges: cod ? 30 : 0,
                cod: 1,
                estimated_delivery_days: String(courier.days),
                etd: etd.toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" }),
                rating: 4,
              };
            }),
            recommended_courier_company_id: COURIERS[0]?.id,
          },
        });
      }
      if (request.method === "POST" && path === "/orders/create/adhoc") {
        const body = await readJson(request);
        const errors = check("POST /orders/create/adhoc", body);
        const items = Array.isArray(body.order_items) ? (body.order_items as Record<string, unknown>[]) : [];
        if (!items.length) errors.order_items = ["The order items field is required."];
        for (const item of items) {
          for (const field of Object.keys(item)) {
            if (!DOCUMENTED["order_items[]"]?.includes(field)) {
              undocumented.push(`POST /orders/create/adhoc order_items[].${field}`);
              errors[`order_items.${field}`] = [`${field} is not a documented field.`];
            }
          }
        }
        if (!(Number(body.weight) > 0)) errors.weight = ["The weight must be greater than 0."];
        if (String(body.billing_city ?? "").length > 30) {
          errors.billing_city = ["The billing city may not be greater than 30 characters."];
        }
        if (String(body.order_id ?? "").length > 50) {
          errors.order_id = ["The order id may not be greater than 50 characters."];
        }
        if (body.pickup_location !== pickupLocation)
          errors.pickup_location = ["Wrong Pickup location entered."];
        if (Object.keys(errors).length) return invalid(response, errors);
        const before = shipments.find((entry) => entry.channelOrderId === String(body.order_id));
        if (before?.status === "CANCELED") {
          return invalid(response, { order_id: ["Order id already exists for a cancelled order."] });
        }
        // "Doing so does not change or affect the existing order."
        const shipment: FakeShipment = before ?? {
          orderId: nextId++,
          shipmentId: nextId++,
          channelOrderId: String(body.order_id),
          pin: String(body.billing_pincode),
          name: `${body.billing_customer_name} ${body.billing_last_name ?? ""}`.trim(),
          weightKg: Number(body.weight),
          cod: body.payment_method === "COD",
          awb: null,
          courierId: null,
          courierName: null,
          status: "NEW",
          scans: [],
          ndrActions: [],
          created: body,
          addressUpdates: [],
          pickupRequested: false,
          manifested: false,
        };
        if (!before) shipments.push(shipment);
        return send(response, 200, {
          order_id: shipment.orderId,
          shipment_id: shipment.shipmentId,
          status: "NEW",
          status_code: 1,
          onboarding_completed_now: 0,
          awb_code: null,
          courier_company_id: null,
          courier_name: null,
        });
      }
      if (request.method === "POST" && path === "/orders/address/update") {
        const body = await readJson(request);
        const errors = check("POST /orders/address/update", body);
        const shipment = shipments.find((entry) => entry.orderId === Number(body.order_id));
        if (!shipment && !errors.order_id) errors.order_id = ["The selected order id is invalid."];
        if (Object.keys(errors).length) return invalid(response, errors);
        shipment?.addressUpdates.push(body);
        response.writeHead(202);
        return response.end();
      }
      if (request.method === "POST" && path === "/courier/assign/awb") {
        const body = await readJson(request);
        const errors = check("POST /courier/assign/awb", body);
        if (Object.keys(errors).length) return invalid(response, errors);
        const shipment = shipments.find((entry) => entry.shipmentId === Number(body.shipment_id));
        const courier = COURIERS.find((entry) => entry.id === Number(body.courier_id));
        if (!shipment || !courier) {
          return send(response, 400, { message: "Invalid shipment or courier id", status_code: 400 });
        }
        if (shipment.awb) {
          return send(response, 400, { message: "AWB is already assigned", status_code: 350 });
        }
        const rate = rateFor(courier, shipment.weightKg, shipment.cod);
        if (wallet.paise < rate * 100) {
          return send(response, 200, {
            awb_assign_status: 0,
            response: {
              data: {
                awb_assign_error: "Insufficient wallet balance. Please recharge your wallet to assign AWB.",
              },
            },
          });
        }
        wallet.paise -= rate * 100;
        shipment.awb = `SR${courier.id}${randomBytes(5).toString("hex").toUpperCase()}`;
        shipment.courierId = courier.id;
        shipment.courierName = courier.name;
        shipment.status = "AWB ASSIGNED";
        // The documented answer: no price in it.
        return send(response, 200, {
          awb_assign_status: 1,
          response: {
            data: {
              courier_company_id: courier.id,
              awb_code: shipment.awb,
              cod: shipment.cod ? 1 : 0,
              order_id: shipment.orderId,
              shipment_id: shipment.shipmentId,
              awb_code_status: 1,
              assigned_date_time: {
                date: indianTime(new Date()),
                timezone_type: 3,
                timezone: "Asia/Kolkata",
              },
              applied_weight: shipment.weightKg,
              company_id: 7,
              courier_name: courier.name,
              child_courier_name: null,
              pickup_scheduled_date: "",
              routing_code: "BLR/ITP",
              rto_routing_code: "",
              invoice_no: "",
              transporter_id: "",
              transporter_name: "",
            },
          },
        });
      }
      if (request.method === "POST" && path === "/courier/generate/label") {
        const body = await readJson(request);
        const errors = check("POST /courier/generate/label", body);
        if (!Array.isArray(body.shipment_id)) errors.shipment_id = ["The shipment id must be an array."];
        if (Object.keys(errors).length) return invalid(response, errors);
        const ids = (body.shipment_id as number[]) ?? [];
        const found = shipments.filter((entry) => ids.includes(entry.shipmentId) && entry.awb);
        if (!found.length) {
          return send(response, 200, { label_created: 0, response: "No AWB assigned", not_created: ids });
        }
        return send(response, 200, {
          label_created: 1,
          label_url: `http://127.0.0.1:${port}/labels/${found[0]?.shipmentId}.pdf?ids=${found.map((entry) => entry.shipmentId).join(",")}`,
          response: "Label has been created and uploaded successfully!",
          not_created: ids.filter((id) => !found.some((entry) => entry.shipmentId === id)),
        });
      }
      if (request.method === "POST" && path === "/courier/generate/pickup") {
        const body = await readJson(request);
        const errors = check("POST /courier/generate/pickup", body);
        if (Object.keys(errors).length) return invalid(response, errors);
        const ids = (body.shipment_id as number[]) ?? [];
        const found = shipments.find((entry) => entry.shipmentId === Number(ids[0]) && entry.awb);
        // "Only one shipment_id can be passed at a time"; "The AWB must be already generated".
        if (ids.length !== 1 || !found) {
          return send(response, 400, { message: "Invalid shipment id", status_code: 400 });
        }
        const tomorrow = indianTime(new Date(Date.now() + 86_400_000)).slice(0, 10);
        found.status = "PICKUP SCHEDULED";
        found.pickupRequested = true;
        return send(response, 200, {
          pickup_status: 1,
          response: {
            pickup_scheduled_date: `${tomorrow} 10:00:00`,
            pickup_token_number: `Reference No: ${randomBytes(4).toString("hex")}`,
            status: 3,
            others: "{}",
            pickup_generated_date: {
              date: indianTime(new Date()),
              timezone_type: 3,
              timezone: "Asia/Kolkata",
            },
            data: `Pickup is confirmed by ${found.courierName} For AWB :- ${found.awb}`,
          },
        });
      }
      if (request.method === "POST" && path === "/manifests/generate") {
        const body = await readJson(request);
        const errors = check("POST /manifests/generate", body);
        if (Object.keys(errors).length) return invalid(response, errors);
        const ids = ((body.shipment_id as number[]) ?? []).map(Number);
        const chosen = shipments.filter((entry) => ids.includes(entry.shipmentId));
        const already = chosen.filter((entry) => entry.manifested).map((entry) => entry.shipmentId);
        if (already.length) {
          return send(response, 400, {
            message: "Manifest already generated for some shipment_ids, Please try again after removin them",
            status_code: 400,
            already_manifested_shipment_ids: already,
          });
        }
        // "AWB must be assigned and pickup requested on the shipment id to generate manifest."
        const ready = chosen.filter((entry) => entry.awb && entry.pickupRequested);
        if (!ready.length || ready.length !== ids.length) {
          return send(response, 200, { status: 1, manifest_url: "" });
        }
        for (const entry of ready) entry.manifested = true;
        return send(response, 200, {
          status: 1,
          manifest_url: `http://127.0.0.1:${port}/manifests/MANIFEST-${ready[0]?.shipmentId}.pdf`,
        });
      }
      if (request.method === "POST" && path === "/orders/cancel") {
        const body = await readJson(request);
        const errors = check("POST /orders/cancel", body);
        if (!Array.isArray(body.ids) || !body.ids.length) errors.ids = ["The ids field is required."];
        if (Object.keys(errors).length) return invalid(response, errors);
        const ids = (body.ids as number[]).map(Number);
        for (const shipment of shipments.filter((entry) => ids.includes(entry.orderId))) {
          shipment.status = "CANCELED";
        }
        response.writeHead(204);
        return response.end();
      }
      const track = path.match(/^\/courier\/track\/awb\/([A-Za-z0-9-]+)$/);
      if (request.method === "GET" && track) {
        const shipment = shipments.find((entry) => entry.awb === track[1]);
        if (!shipment)
          return send(response, 200, { tracking_data: { track_status: 0, error: "No activities found" } });
        const last = shipment.scans.at(-1);
        return send(response, 200, {
          tracking_data: {
            track_status: 1,
            shipment_status: Number(last?.["sr-status"] ?? 0),
            shipment_track: [
              {
                awb_code: shipment.awb,
                courier_company_id: shipment.courierId,
                shipment_id: shipment.shipmentId,
                order_id: shipment.orderId,
                current_status: last?.["sr-status-label"] ?? "AWB ASSIGNED",
                destination: shipment.pin,
              },
            ],
            // Newest first, as Shiprocket lists them.
            shipment_track_activities: [...shipment.scans].reverse(),
            track_url: `https://shiprocket.co/tracking/${shipment.awb}`,
          },
        });
      }
      const ndr = path.match(/^\/ndr\/([A-Za-z0-9-]+)\/action$/);
      if (request.method === "POST" && ndr) {
        const shipment = shipments.find((entry) => entry.awb === ndr[1]);
        const body = await readJson(request);
        const errors = check("POST /ndr/action", body);
        if (Object.keys(errors).length) return invalid(response, errors);
        if (!shipment) return send(response, 404, { message: "AWB not found", status_code: 404 });
        if (!["re-attempt", "return", "fake-attempt"].includes(String(body.action))) {
          return send(response, 422, { message: "The selected action is invalid.", status_code: 422 });
        }
        if (shipment.scans.at(-1)?.["sr-status-label"] !== "UNDELIVERED") {
          return send(response, 422, { message: "Action cannot be taken on this AWB", status_code: 422 });
        }
        shipment.ndrActions.push(body);
        return send(response, 202, { status: "Data Updated Sucessfully" });
      }
      return send(response, 404, { message: "Not found", status_code: 404 });
    } catch (error) {
      return send(response, 500, { message: (error as Error).message, status_code: 500 });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/v1/external`;

  const byAwb = (awb: string) => {
    const shipment = shipments.find((entry) => entry.awb === awb);
    if (!shipment) throw new Error(`fake shiprocket: no shipment with AWB ${awb}`);
    return shipment;
  };
  const webhookBody = (awb: string, scans?: FakeScan[]) => {
    const shipment = byAwb(awb);
    const sent = scans ?? shipment.scans;
    const last = sent.at(-1);
    return {
      awb: shipment.awb,
      courier_name: shipment.courierName,
      current_status: last?.["sr-status-label"] ?? "AWB ASSIGNED",
      // The scan codes' table, not the shipment statuses': only IN TRANSIT's (20) is in the sample; any
      // other is sent as 0, so a shop reading this field learns nothing from the fake either.
      current_status_id: last?.["sr-status-label"] === "IN TRANSIT" ? 20 : 0,
      shipment_status: last?.["sr-status-label"] ?? "AWB ASSIGNED",
      shipment_status_id: Number(last?.["sr-status"] ?? 0),
      current_timestamp: last?.date ?? indianTime(new Date()),
      order_id: shipment.channelOrderId,
      sr_order_id: shipment.orderId,
      awb_assigned_date: indianTime(new Date()),
      pickup_scheduled_date: indianTime(new Date()),
      etd: indianTime(new Date(Date.now() + 3 * 86_400_000)),
      scans: sent,
      is_return: sent.some((scan) => scan["sr-status-label"].startsWith("RTO")) ? 1 : 0,
      channel_id: 1,
      pod_status: "",
      pod: "Not Available",
    };
  };

  return {
    url,
    email,
    password,
    pickupLocation,
    webhookToken,
    env: {
      SHIPROCKET_EMAIL: email,
      SHIPROCKET_PASSWORD: password,
      SHIPROCKET_PICKUP_LOCATION: pickupLocation,
      SHIPROCKET_API_BASE: url,
      SHIPROCKET_WEBHOOK_TOKEN: webhookToken,
    },
    shipments,
    unservedPins,
    wallet,
    calls,
    undocumented,
    get logins() {
      return logins;
    },
    expireTokens: () => tokens.clear(),
    byAwb,
    scan(awb, label, at = new Date()) {
      const kind = SCAN_KINDS[label];
      const entry: FakeScan = {
        date: indianTime(at),
        status: kind.code,
        activity: kind.activity,
        location: "Bengaluru_Hub (Karnataka)",
        "sr-status": kind.id,
        "sr-status-label": label,
      };
      byAwb(awb).scans.push(entry);
      return entry;
    },
    webhookBody,
    async sendWebhook(target, awb, scans) {
      const response = await fetch(target, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": webhookToken },
        body: JSON.stringify(webhookBody(awb, scans)),
      });
      return response.status;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
