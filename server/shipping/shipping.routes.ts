import { timingSafeEqual } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { SessionUser } from "../../common/account.ts";
import { deliveryRequestWords } from "../../common/delivery-request.ts";
import { guestOrderTokenSchema, orderNumberSchema } from "../../common/schemas/orders.ts";
import {
  bookSchema,
  bulkSchema,
  couriersQuery,
  labelsQuery,
  ownerNdrSchema,
  parcelItemParam,
  parcelSizeSchema,
  type ShopperAttempt,
  shopperAttemptSchema,
  weightsSchema,
} from "../../common/schemas/shipping.ts";
import { requireAdmin, requireUser } from "../auth/session.ts";
import { receiveRto } from "../cod-orders/rto.ts";
import { combos, orders, products, shipments } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import { openGuestOrderLink } from "../orders/guest-order-access.ts";
import { changeOrderStatus } from "../orders/order-status.ts";
import { validate } from "../validate.ts";
import {
  actOnUndelivered,
  applyWebhookScans,
  bookShipment,
  courierChoices,
  deliveryRequestOf,
  labelsFor,
  shipmentView,
} from "./shipments.ts";
// The webhook's path (request-guards.ts TRACKING_WEBHOOK_PATH) avoids "shiprocket", "kartrocket", "sr" and
// "kr": Shiprocket refuses webhook URLs holding them.
import { type ShiprocketScan, toTrackingScan } from "./shiprocket.ts";
import { readWeights, saveWeights, weightsSummary } from "./weights.ts";

const pdf = (bytes: Uint8Array, name: string) =>
  new Response(Buffer.from(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });

async function orderId(deps: Deps, number: string) {
  const [order] = await deps.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  if (!order) throw notFound("There is no order with that number.");
  return order.id;
}

/** Orders ready for a courier: confirmed or packed, with no live parcel; oldest first, as they are packed. */
async function ordersReadyToShip(deps: Deps) {
  const rows = await deps.db
    .select({
      number: orders.number,
      status: orders.status,
      name: orders.shipName,
      city: orders.shipCity,
      pin: orders.shipPin,
      totalPaise: orders.totalPaise,
      paymentMethod: orders.paymentMethod,
      placedAt: orders.createdAt,
    })
    .from(orders)
    .where(
      and(
        inArray(orders.status, ["confirmed", "packed"]),
        sql`not exists (select 1 from shipments s where s.order_id = ${orders.id} and s.status <> 'cancelled')`,
      ),
    )
    .orderBy(orders.createdAt)
    .limit(100);
  return rows.map((row) => ({ ...row, placedAt: row.placedAt.toISOString() }));
}

/** Parcels a courier could not deliver, and those on their way back or back but not yet received. */
async function undeliveredParcels(deps: Deps) {
  const rows = await deps.db
    .select({
      number: orders.number,
      name: orders.shipName,
      city: orders.shipCity,
      pin: orders.shipPin,
      phone: orders.shipPhone,
      status: shipments.status,
      courier: shipments.courierName,
      awb: shipments.awb,
      ndrState: shipments.ndrState,
      ndrReason: shipments.ndrReason,
      ndrNote: shipments.ndrNote,
      lastScanAt: shipments.lastScanAt,
      request: {
        requestDay: shipments.requestDay,
        requestLine1: shipments.requestLine1,
        requestLine2: shipments.requestLine2,
        requestPhone: shipments.requestPhone,
        requestedAt: shipments.requestedAt,
        requestOutcome: shipments.requestOutcome,
        requestCourierSaid: shipments.requestCourierSaid,
      },
    })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(
      or(
        inArray(shipments.ndrState, ["open", "reattempt_requested", "return_requested"]),
        and(eq(shipments.status, "rto_delivered"), sql`${shipments.receivedBackAt} is null`),
        eq(shipments.status, "rto_initiated"),
      ),
    )
    .orderBy(desc(shipments.lastScanAt))
    .limit(200);
  return rows.map(({ request, ...row }) => ({
    ...row,
    lastScanAt: row.lastScanAt?.toISOString() ?? null,
    // The shopper's answer to the failed delivery, as on the order's page.
    request: deliveryRequestOf(request),
  }));
}

/** The desk's routes see the signed-in admin as c.get("admin"), and its id as c.get("adminId"). */
type ShippingDesk = { Variables: { adminId: string; admin: SessionUser } };

/** Staff's shipping desk: couriers for an order, booking (one or many), labels, failed deliveries, returns. */
export function adminShippingRoutes(deps: Deps) {
  return new Hono<ShippingDesk>()
    .use(async (c, next) => {
      const admin = await requireAdmin(deps, c);
      c.set("adminId", admin.id);
      c.set("admin", admin);
      await next();
    })
    .get("/", async (c) =>
      c.json({
        connected: deps.courier !== null,
        service: deps.courier?.name ?? null,
        weights: await weightsSummary(deps.db),
      }),
    )
    .route("/", parcelRoutes(deps))
    .route("/", bookingRoutes(deps))
    .route("/", failedDeliveryRoutes(deps));
}

/** What is ready to ship, and what each item weighs and measures boxed. */
function parcelRoutes(deps: Deps) {
  return (
    new Hono<ShippingDesk>()
      .get("/ready", async (c) => c.json({ orders: await ordersReadyToShip(deps) }))
      .get("/parcel-sizes/:kind/:id", validate("param", parcelItemParam), async (c) => {
        const { kind, id } = c.req.valid("param");
        const table = kind === "product" ? products : combos;
        const key = kind === "product" ? products.slug : combos.id;
        const [row] = await deps.db
          .select({
            weightGrams: table.weightGrams,
            lengthCm: table.lengthCm,
            breadthCm: table.breadthCm,
            heightCm: table.heightCm,
          })
          .from(table)
          .where(eq(key, id));
        if (!row) throw notFound(`There is no such ${kind}.`);
        return c.json({ size: row });
      })
      .put(
        "/parcel-sizes/:kind/:id",
        validate("param", parcelItemParam),
        validate("json", parcelSizeSchema),
        async (c) => {
          const { kind, id } = c.req.valid("param");
          const size = c.req.valid("json");
          const updated =
            kind === "product"
              ? await deps.db
                  .update(products)
                  .set(size)
                  .where(eq(products.slug, id))
                  .returning({ id: products.slug })
              : await deps.db.update(combos).set(size).where(eq(combos.id, id)).returning({ id: combos.id });
          if (!updated.length) throw notFound(`There is no such ${kind}.`);
          return c.json({ size });
        },
      )
      // The Weights page: the default parcel and every item's weight and box, saved at once (decision 086).
      .get("/weights", async (c) => c.json(await readWeights(deps.db)))
      .put("/weights", validate("json", weightsSchema), async (c) =>
        c.json(await saveWeights(deps.db, c.req.valid("json"), c.get("admin"))),
      )
  );
}

/** Booking an order's parcel with a courier, one order or many, and printing the labels. */
function bookingRoutes(deps: Deps) {
  return (
    new Hono<ShippingDesk>()
      .get("/orders/:number", validate("param", orderNumberSchema), async (c) => {
        return c.json({
          shipment: await shipmentView(deps, await orderId(deps, c.req.valid("param").number)),
        });
      })
      .get(
        "/orders/:number/couriers",
        validate("param", orderNumberSchema),
        validate("query", couriersQuery),
        async (c) => {
          const { weighedGrams } = c.req.valid("query");
          return c.json(await courierChoices(deps, c.req.valid("param").number, weighedGrams));
        },
      )
      .post(
        "/orders/:number/book",
        validate("param", orderNumberSchema),
        validate("json", bookSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const body = c.req.valid("json");
          const { alreadyBooked } = await bookShipment(
            deps,
            number,
            body.courierId ? { courierId: body.courierId } : { rule: body.rule ?? "cheapest" },
            c.get("adminId"),
            body.weighedGrams,
          );
          const view = await shipmentView(deps, await orderId(deps, number));
          return c.json({ shipment: view, alreadyBooked }, alreadyBooked ? 200 : 201);
        },
      )
      .get("/orders/:number/label.pdf", validate("param", orderNumberSchema), async (c) => {
        const { number } = c.req.valid("param");
        return pdf(await labelsFor(deps, [number]), `label-${number}.pdf`);
      })
      // Several orders at once, one after another: each booking is its own (a refusal stops only that order).
      .post("/bulk", validate("json", bulkSchema), async (c) => {
        const { numbers, rule } = c.req.valid("json");
        const results: {
          number: string;
          ok: boolean;
          awb?: string | null;
          courier?: string | null;
          error?: string;
        }[] = [];
        for (const number of [...new Set(numbers)]) {
          try {
            const { shipment } = await bookShipment(deps, number, { rule }, c.get("adminId"));
            results.push({ number, ok: true, awb: shipment.awb, courier: shipment.courierName });
          } catch (error) {
            const message = (error as { message?: string }).message ?? "could not be booked";
            if (!(error as { status?: number }).status)
              log.error({ number, err: serializeError(error) }, "bulk booking");
            results.push({ number, ok: false, error: message });
          }
        }
        return c.json({ results });
      })
      .get("/labels.pdf", validate("query", labelsQuery), async (c) => {
        return pdf(await labelsFor(deps, c.req.valid("query").orders), "labels.pdf");
      })
  );
}

/** Failed deliveries and the owner's answer (attempt again or return); parcels received back. */
function failedDeliveryRoutes(deps: Deps) {
  return (
    new Hono<ShippingDesk>()
      .get("/undelivered", async (c) => c.json({ parcels: await undeliveredParcels(deps) }))
      .post(
        "/orders/:number/ndr",
        validate("param", orderNumberSchema),
        validate("json", ownerNdrSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const body = c.req.valid("json");
          const id = await orderId(deps, number);
          await actOnUndelivered(
            deps,
            { orderId: id },
            body.action === "return"
              ? { kind: "return", comments: body.comments ?? "Return to origin" }
              : {
                  kind: "reattempt",
                  date: body.date ?? null,
                  comments: body.comments ?? "Please attempt again",
                },
            "owner",
          );
          return c.json({ shipment: await shipmentView(deps, id) });
        },
      )
      // A parcel returned to origin, received back unopened: its stock back on the shelf and a credit note
      // issued, once (server/cod-orders/rto.ts). An order the scans have not yet moved is returned to origin first.
      .post("/orders/:number/received-back", validate("param", orderNumberSchema), async (c) => {
        const { number } = c.req.valid("param");
        const id = await orderId(deps, number);
        const [shipment] = await deps.db
          .select({
            id: shipments.id,
            chargesPaise: shipments.chargesPaise,
            rtoChargesPaise: shipments.rtoChargesPaise,
            courierName: shipments.courierName,
          })
          .from(shipments)
          .where(
            and(eq(shipments.orderId, id), eq(shipments.status, "rto_delivered"), isNotNull(shipments.awb)),
          );
        if (!shipment) throw httpError(409, "not_returned", "This order's parcel has not come back to you.");
        const admin = c.get("admin");
        try {
          await changeOrderStatus(
            deps,
            { orderId: id },
            {
              to: "returned_to_origin",
              actor: "admin",
              actorUserId: admin.id,
              note: `Returned to origin by ${shipment.courierName}`,
              rto: {
                source: "tracking",
                forwardPaise: shipment.chargesPaise ?? 0,
                returnPaise: shipment.rtoChargesPaise ?? shipment.chargesPaise ?? 0,
              },
              onlyIf: (order) => order.status === "shipped",
            },
          );
        } catch (error) {
          // Already returned to origin by the scans (or a click a moment ago).
          if ((error as { status?: number }).status !== 409) throw error;
        }
        await receiveRto(deps, number, admin);
        return c.json({ shipment: await shipmentView(deps, id) });
      })
  );
}

/** The parcel as its shopper sees it: the journey and their own answer, not what the shop paid or was told. */
async function shopperShipment(deps: Deps, orderId: string) {
  const view = await shipmentView(deps, orderId);
  return view
    ? {
        ...view,
        chargesPaise: null,
        rtoChargesPaise: null,
        manifestUrl: null,
        weightGrams: null,
        request: view.request ? { ...view.request, courierSaid: null } : null,
      }
    : null;
}

/**
 * The shopper's answer to a failed delivery, from an account or a guest's link alike, and what they read back:
 * plain words whatever the aggregator said (docs/decisions/082). 200 when the courier's aggregator took it,
 * 202 when the shop keeps it for the owner to pass on.
 */
async function answerFailedDelivery(deps: Deps, orderId: string, body: ShopperAttempt) {
  const address = body.line1 ? { line1: body.line1, line2: body.line2 ?? "" } : null;
  const { outcome } = await actOnUndelivered(
    deps,
    { orderId },
    {
      kind: "reattempt",
      date: body.date,
      comments: address
        ? "Customer corrected the address"
        : body.phone
          ? "Customer corrected the mobile"
          : "Customer asked for another attempt",
      address,
      phone: body.phone ?? null,
    },
    "shopper",
  );
  const shipment = await shopperShipment(deps, orderId);
  const message = deliveryRequestWords({
    day: body.date,
    line1: address?.line1 ?? null,
    line2: address?.line2 || null,
    phone: body.phone ?? null,
    outcome,
  });
  return { body: { shipment, message }, status: outcome === "sent" ? (200 as const) : (202 as const) };
}

/** The shopper's view of the parcel, and their answer to a failed delivery. */
export function orderShippingRoutes(deps: Deps) {
  const ownOrderId = async (number: string, userId: string) => {
    const [order] = await deps.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.number, number), eq(orders.userId, userId)));
    if (!order) throw notFound("There is no order with that number in your account.");
    return order.id;
  };
  return new Hono()
    .get("/:number/shipment", validate("param", orderNumberSchema), async (c) => {
      const user = await requireUser(deps, c);
      return c.json({
        shipment: await shopperShipment(deps, await ownOrderId(c.req.valid("param").number, user.id)),
      });
    })
    .post(
      "/:number/delivery-attempt",
      validate("param", orderNumberSchema),
      validate("json", shopperAttemptSchema),
      async (c) => {
        const user = await requireUser(deps, c);
        const id = await ownOrderId(c.req.valid("param").number, user.id);
        const answer = await answerFailedDelivery(deps, id, c.req.valid("json"));
        return c.json(answer.body, answer.status);
      },
    );
}

/**
 * The same two through a guest order's signed link (docs/decisions/082): the token opens the order as it opens
 * the order's page, a wrong one counted against the client (server/orders/guest-order-access.ts).
 */
export function guestOrderShippingRoutes(deps: Deps) {
  return new Hono()
    .get(
      "/:number/shipment",
      validate("param", orderNumberSchema),
      validate("query", guestOrderTokenSchema),
      async (c) => {
        const { number } = c.req.valid("param");
        const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
        return c.json({ shipment: await shopperShipment(deps, order.id) });
      },
    )
    .post(
      "/:number/delivery-attempt",
      validate("param", orderNumberSchema),
      validate("query", guestOrderTokenSchema),
      validate("json", shopperAttemptSchema),
      async (c) => {
        const { number } = c.req.valid("param");
        const order = await openGuestOrderLink(deps, c, number, c.req.valid("query").token);
        const answer = await answerFailedDelivery(deps, order.id, c.req.valid("json"));
        return c.json(answer.body, answer.status);
      },
    );
}

/**
 * The part of Shiprocket's tracking webhook the shop reads; the rest is ignored. Its fields are those of the
 * sample in api-evangelist/shiprocket asyncapi/shiprocket-tracking-webhooks.yml; current_status_id is not
 * read: it counts in the scan codes' table, not the shipment statuses' (shiprocket.ts STATUS_BY_ID).
 */
const trackingUpdate = z.object({
  awb: z.union([z.string(), z.number()]).transform(String),
  current_status: z.string().optional(),
  shipment_status_id: z.union([z.string(), z.number()]).optional(),
  current_timestamp: z.string().optional(),
  scans: z
    .array(
      z.looseObject({
        date: z.string(),
        status: z.string().nullish(),
        activity: z.string().nullish(),
        location: z.string().nullish(),
        "sr-status": z.union([z.string(), z.number()]).nullish(),
        "sr-status-label": z.string().nullish(),
      }),
    )
    .max(500)
    .optional(),
});

function sameToken(expected: string, given: string) {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Shiprocket's tracking webhook. It is answered 200 whatever happens (Shiprocket wants nothing else, and a
 * sender that is not Shiprocket learns nothing), but acted on only with the right x-api-key. An update lost
 * here (the database away) is picked up by the poll of quiet parcels.
 */
export function trackingWebhookRoutes(deps: Deps) {
  return new Hono().post(
    "/tracking-updates",
    bodyLimit({ maxSize: 512 * 1024, onError: (c) => c.json({ received: false }, 200) }),
    async (c) => {
      const token = deps.env.SHIPROCKET_WEBHOOK_TOKEN;
      if (!token || !sameToken(token, c.req.header("x-api-key") ?? "")) {
        log.warn({ configured: Boolean(token) }, "a tracking update without the right x-api-key was ignored");
        return c.json({ received: false }, 200);
      }
      let update: z.infer<typeof trackingUpdate>;
      try {
        update = trackingUpdate.parse(await c.req.json());
      } catch {
        log.warn("a tracking update that is not Shiprocket's shape was ignored");
        return c.json({ received: false }, 200);
      }
      const scans = (update.scans ?? []).map((scan) => toTrackingScan(scan as ShiprocketScan));
      // Shiprocket's test call and early updates may carry no scans: the current status stands for one.
      if (!scans.length && update.current_timestamp && update.current_status) {
        scans.push(
          toTrackingScan({
            date: update.current_timestamp,
            status: update.current_status,
            activity: update.current_status,
            location: "",
            "sr-status": update.shipment_status_id ?? null,
            "sr-status-label": update.current_status,
          }),
        );
      }
      try {
        const known = await applyWebhookScans(
          deps,
          update.awb,
          scans.filter((scan) => scan !== null),
        );
        if (!known) log.info({ awb: update.awb }, "a tracking update for a parcel the shop did not book");
      } catch (error) {
        log.error({ awb: update.awb, err: serializeError(error) }, "a tracking update could not be applied");
      }
      return c.json({ received: true }, 200);
    },
  );
}
