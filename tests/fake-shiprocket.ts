import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import PDFDocument from "pdfkit";
import { readJson } from "./fake-http.ts";

/**
 * A local stand-in for Shiprocket's external API (apidocs.shiprocket.in, /v1/external), for tests, written
 * from its documentation: the API user signs in for a bearer token; serviceability lists couriers with rate
 * and estimate; an adhoc order gets an order id and a shipment id; assigning a courier gives the airway bill
 * (refused, still with HTTP 200, when the wallet is short); labels are real PDFs; pickups, cancellation,
 * tracking by AWB and NDR actions; and tracking webhooks posted to the shop with its x-api-key.
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
  "PICKUP SCHEDULED": { id: "19", code: "FMPUR-101", activity: "Pickup scheduled" },
  "PICKED UP": { id: "42", code: "X-PPOM", activity: "Shipment picked up" },
  "IN TRANSIT": { id: "18", code: "X-DLL2F", activity: "Bag added to trip" },
  "OUT FOR DELIVERY": { id: "17", code: "X-DDD3FD", activity: "Out for delivery" },
  DELIVERED: { id: "7", code: "EOD-38", activity: "Delivered to consignee" },
  UNDELIVERED: { id: "21", code: "EOD-6", activity: "Consignee unavailable" },
  "RTO INITIATED": { id: "9", code: "RT-101", activity: "Returned as per client instruction" },
  "RTO DELIVERED": { id: "10", code: "RT-110", activity: "RTO delivered to shipper" },
} as const;

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
        const errors: Record<string, string[]> = {};
        for (const field of [
          "order_id",
          "order_date",
          "pickup_location",
          "billing_customer_name",
          "billing_address",
          "billing_city",
          "billing_pincode",
          "billing_state",
          "billing_country",
          "billing_phone",
          "payment_method",
          "sub_total",
          "length",
          "breadth",
          "height",
          "weight",
        ]) {
          if (body[field] === undefined || body[field] === "" || body[field] === null) {
            errors[field] = [`The ${field.replace(/_/g, " ")} field is required.`];
          }
        }
        if (!(Number(body.weight) > 0)) errors.weight = ["The weight must be greater than 0."];
        if (!Array.isArray(body.order_items) || !body.order_items.length) errors.order_items = ["Required."];
        if (body.pickup_location !== pickupLocation)
          errors.pickup_location = ["Wrong Pickup location entered."];
        if (Object.keys(errors).length) {
          return send(response, 422, { message: "Oops! Invalid Data.", errors, status_code: 422 });
        }
        const shipment: FakeShipment = {
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
        };
        shipments.push(shipment);
        return send(response, 200, {
          order_id: shipment.orderId,
          shipment_id: shipment.shipmentId,
          status: "NEW",
          status_code: 1,
          onboarding_completed_now: 0,
          awb_code: "",
          courier_company_id: "",
          courier_name: "",
        });
      }
      if (request.method === "POST" && path === "/courier/assign/awb") {
        const body = await readJson(request);
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
        return send(response, 200, {
          awb_assign_status: 1,
          response: {
            data: {
              courier_company_id: courier.id,
              awb_code: shipment.awb,
              order_id: shipment.orderId,
              shipment_id: shipment.shipmentId,
              courier_name: courier.name,
              applied_weight: shipment.weightKg,
              freight_charges: rate,
              routing_code: "BLR/ITP",
              transporter_name: courier.name,
            },
          },
        });
      }
      if (request.method === "POST" && path === "/courier/generate/label") {
        const body = await readJson(request);
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
        const ids = (body.shipment_id as number[]) ?? [];
        const tomorrow = indianTime(new Date(Date.now() + 86_400_000)).slice(0, 10);
        for (const shipment of shipments.filter((entry) => ids.includes(entry.shipmentId))) {
          shipment.status = "PICKUP SCHEDULED";
        }
        return send(response, 200, {
          pickup_status: 1,
          response: {
            pickup_scheduled_date: `${tomorrow} 10:00:00`,
            pickup_token_number: `Reference No: ${randomBytes(4).toString("hex")}`,
            status: 3,
            pickup_generated_date: {
              date: indianTime(new Date()),
              timezone_type: 3,
              timezone: "Asia/Kolkata",
            },
            data: "Pickup is scheduled",
          },
        });
      }
      if (request.method === "POST" && path === "/orders/cancel") {
        const body = await readJson(request);
        const ids = (body.ids as number[]) ?? [];
        for (const shipment of shipments.filter((entry) => ids.includes(entry.orderId))) {
          shipment.status = "CANCELED";
        }
        return send(response, 200, { status: 200, message: "Order cancelled successfully." });
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
        if (!shipment) return send(response, 404, { message: "AWB not found", status_code: 404 });
        if (!["re-attempt", "return", "fake-attempt"].includes(String(body.action))) {
          return send(response, 422, { message: "The selected action is invalid.", status_code: 422 });
        }
        if (shipment.scans.at(-1)?.["sr-status-label"] !== "UNDELIVERED") {
          return send(response, 422, { message: "Action cannot be taken on this AWB", status_code: 422 });
        }
        shipment.ndrActions.push(body);
        return send(response, 200, { status: true, message: "Action taken successfully" });
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
      current_status_id: Number(last?.["sr-status"] ?? 0),
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
