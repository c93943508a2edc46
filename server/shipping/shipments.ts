import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, lt, notInArray, or, sql } from "drizzle-orm";
import { formatEstimateDate } from "../../common/delivery-estimate.ts";
import { normalizeMobile } from "../../common/india.ts";
import { formatRupees } from "../../common/money.ts";
import type { OrderStatus } from "../../common/order-lifecycle.ts";
import {
  type DefaultItemSize,
  type DeliveryRequest,
  FINAL_SHIPMENT_STATUSES,
  type Parcel,
  packParcel,
  type ShipmentStatus,
} from "../../common/shipping.ts";
import { WEIGHTS_PAGE } from "../../common/weights.ts";
import {
  combos,
  orderEvents,
  orderLines,
  orders,
  products,
  shipmentScans,
  shipments,
  shopSettings,
  users,
} from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";
import { orderWithPayment } from "../money/ledger.ts";
import { enqueueOrderMail } from "../orders/order-mail.ts";
import { changeOrderStatus } from "../orders/order-status.ts";
import type { CourierOption, CourierService, NdrAction, TrackingScan } from "./courier-service.ts";

export type ShipmentRow = typeof shipments.$inferSelect;

/** A parcel's columns holding no shopper's answer to a failed delivery. */
const NO_DELIVERY_REQUEST = {
  requestDay: null,
  requestLine1: null,
  requestLine2: null,
  requestPhone: null,
  requestedAt: null,
  requestOutcome: null,
  requestCourierSaid: null,
} satisfies Partial<typeof shipments.$inferInsert>;

/** Orders in these states may be booked: the goods are ready or about to be packed. */
const BOOKABLE: readonly OrderStatus[] = ["confirmed", "packed"];

/** A reservation older than this belongs to a request that died mid-booking; another may take over. */
const STALE_BOOKING_MS = 2 * 60_000;

export function requireCourier(deps: Deps): CourierService {
  if (!deps.courier) {
    throw httpError(
      503,
      "shipping_not_configured",
      "No courier aggregator is connected (SHIPROCKET_EMAIL and friends); ship by hand with Mark shipped.",
    );
  }
  return deps.courier;
}

async function findOrder(deps: Deps, number: string) {
  const [order] = await deps.db.select(orderWithPayment).from(orders).where(eq(orders.number, number));
  if (!order) throw notFound("There is no order with that number.");
  return order;
}

/** The shop's default parcel, for items with no weight of their own (docs/decisions/086). */
export async function readDefaultItemSize(db: Pick<Deps["db"], "select">): Promise<DefaultItemSize> {
  const [row] = await db
    .select({
      weightGrams: shopSettings.defaultItemWeightGrams,
      lengthCm: shopSettings.defaultItemLengthCm,
      breadthCm: shopSettings.defaultItemBreadthCm,
      heightCm: shopSettings.defaultItemHeightCm,
    })
    .from(shopSettings)
    .where(eq(shopSettings.id, 1));
  return row ?? { weightGrams: null, lengthCm: null, breadthCm: null, heightCm: null };
}

/**
 * The order's parcel by the packing rule, from its products' and combos' weights and sizes now, items with
 * none packed as the shop's default parcel; `weighedGrams`, when staff weighed the packed parcel, stands for
 * the weight (the box stays as packed).
 */
export async function parcelForOrder(
  deps: Deps,
  orderId: string,
  weighedGrams?: number,
): Promise<{ parcel: Parcel; byDefault: string[] }> {
  const lines = await deps.db
    .select({
      name: orderLines.name,
      quantity: orderLines.quantity,
      weightGrams: sql<number | null>`coalesce(${products.weightGrams}, ${combos.weightGrams})`,
      lengthCm: sql<number | null>`coalesce(${products.lengthCm}, ${combos.lengthCm})`,
      breadthCm: sql<number | null>`coalesce(${products.breadthCm}, ${combos.breadthCm})`,
      heightCm: sql<number | null>`coalesce(${products.heightCm}, ${combos.heightCm})`,
    })
    .from(orderLines)
    .leftJoin(products, and(eq(orderLines.kind, "product"), eq(products.slug, orderLines.itemId)))
    .leftJoin(combos, and(eq(orderLines.kind, "combo"), eq(combos.id, orderLines.itemId)))
    .where(eq(orderLines.orderId, orderId))
    .orderBy(orderLines.position);
  const packed = packParcel(lines, { fallback: await readDefaultItemSize(deps.db), weighedGrams });
  if ("missingWeight" in packed) {
    throw httpError(
      422,
      "weight_missing",
      `Set the weight of ${packed.missingWeight.join(", ")} on the Weights page (${WEIGHTS_PAGE}), or a default parcel for items without one, first: couriers price by weight.`,
    );
  }
  return packed;
}

/** Couriers serving the order's PIN for its parcel, cheapest and fastest marked. */
export async function courierChoices(deps: Deps, number: string, weighedGrams?: number) {
  const courier = requireCourier(deps);
  const order = await findOrder(deps, number);
  const { parcel, byDefault } = await parcelForOrder(deps, order.id, weighedGrams);
  const options = await courier.couriersFor({
    pin: order.shipPin,
    parcel,
    cod: order.paymentMethod === "cod",
    declaredValuePaise: order.totalPaise,
  });
  return { parcel, byDefault, couriers: markChoices(options) };
}

export function markChoices(options: CourierOption[]) {
  const cheapest = [...options].sort((a, b) => a.ratePaise - b.ratePaise)[0];
  const fastest = [...options].sort(
    (a, b) => (a.estimatedDays ?? 99) - (b.estimatedDays ?? 99) || a.ratePaise - b.ratePaise,
  )[0];
  return options
    .map((option) => ({
      ...option,
      cheapest: option.courierId === cheapest?.courierId,
      fastest: option.courierId === fastest?.courierId,
    }))
    .sort((a, b) => a.ratePaise - b.ratePaise);
}

export type CourierRule = "cheapest" | "fastest";

/**
 * Books the order's parcel with the chosen courier (or by the rule): reserve, ask the aggregator, record.
 * The reservation row (one live shipment per order, a unique index) is what makes a double click or a retry
 * book once: the second request finds it and either returns the finished booking or is told it is under way.
 * A refusal deletes the reservation (and cancels an order the aggregator had already made), so nothing is
 * left half-recorded.
 */
export async function bookShipment(
  deps: Deps,
  number: string,
  choice: { courierId: string } | { rule: CourierRule },
  actorUserId: string | null,
  weighedGrams?: number,
): Promise<{ shipment: ShipmentRow; alreadyBooked: boolean }> {
  const courier = requireCourier(deps);
  const order = await findOrder(deps, number);
  const { parcel } = await parcelForOrder(deps, order.id, weighedGrams);

  const reservation = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    if (!locked) throw notFound("There is no order with that number.");
    const [live] = await tx
      .select()
      .from(shipments)
      .where(and(eq(shipments.orderId, order.id), sql`${shipments.status} <> 'cancelled'`))
      .for("update");
    if (live && live.status !== "booking") return { existing: live };
    if (live) {
      if (Date.now() - live.updatedAt.getTime() < STALE_BOOKING_MS) {
        throw httpError(409, "booking_in_progress", "This order is being booked right now; wait a moment.");
      }
      // Kept, not deleted: the request that died may have used its reference at the aggregator.
      await tx
        .update(shipments)
        .set({ status: "cancelled", updatedAt: new Date() })
        .where(eq(shipments.id, live.id));
    }
    if (!BOOKABLE.includes(locked.status)) {
      throw httpError(
        409,
        "invalid_transition",
        "Only a confirmed or packed order can be booked with a courier.",
      );
    }
    // Shiprocket refuses an order_id that belonged to an order it cancelled (a refused booking's, say): each
    // booking tried after one that reached it takes the next reference (docs/decisions/077).
    const [tried] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(shipments)
      .where(
        and(
          eq(shipments.orderId, order.id),
          or(isNotNull(shipments.reference), isNotNull(shipments.aggregatorOrderId)),
        ),
      );
    const attempt = (tried?.n ?? 0) + 1;
    const [row] = await tx
      .insert(shipments)
      .values({
        id: randomUUID(),
        orderId: order.id,
        service: courier.name,
        status: "booking",
        reference: attempt === 1 ? order.number : `${order.number}-${attempt}`,
        weightGrams: parcel.weightGrams,
      })
      .returning();
    return { reserved: row as ShipmentRow };
  });
  if ("existing" in reservation && reservation.existing)
    return { shipment: reservation.existing, alreadyBooked: true };
  const reserved = (reservation as { reserved: ShipmentRow }).reserved;

  let aggregatorOrderId: string | null = null;
  try {
    // Nothing is collected twice: a COD order already paid online goes as prepaid.
    const cod = order.paymentMethod === "cod" && !order.paidAt;
    // The quote is read whichever way the courier is chosen: the airway bill's answer carries no price, so
    // what the parcel (and its return) costs is the serviceability quote of the courier booked.
    const options = await courier.couriersFor({
      pin: order.shipPin,
      parcel,
      cod,
      declaredValuePaise: order.totalPaise,
    });
    const courierId = "courierId" in choice ? choice.courierId : pickByRule(options, choice.rule);
    const quote = options.find((option) => option.courierId === courierId);
    if (!quote) {
      throw httpError(
        422,
        "courier_not_serving",
        "That courier does not serve this PIN code for this parcel any more. Choose another.",
      );
    }
    const lines = await deps.db
      .select()
      .from(orderLines)
      .leftJoin(products, and(eq(orderLines.kind, "product"), eq(products.slug, orderLines.itemId)))
      .where(eq(orderLines.orderId, order.id))
      .orderBy(orderLines.position);
    const [account] = order.userId
      ? await deps.db.select({ email: users.email }).from(users).where(eq(users.id, order.userId))
      : [];
    const created = await courier.createOrder({
      reference: reserved.reference ?? order.number,
      orderedAt: order.createdAt,
      name: order.shipName,
      phone: order.shipPhone,
      email: account?.email ?? order.guestEmail,
      line1: order.shipLine1,
      line2: order.shipLine2,
      city: order.shipCity,
      state: order.shipState,
      pin: order.shipPin,
      cod,
      items: lines.map(({ order_lines: line, products: product }) => ({
        name: line.name,
        sku: line.itemId,
        units: line.quantity,
        unitPricePaise: line.unitPricePaise,
        hsn: product?.hsnCode ?? null,
      })),
      amountPaise: order.totalPaise,
      parcel,
    });
    aggregatorOrderId = created.aggregatorOrderId;
    // Recorded at once, so a crash from here on leaves the aggregator's ids to find.
    await deps.db
      .update(shipments)
      .set({ aggregatorOrderId: created.aggregatorOrderId, aggregatorShipmentId: created.shipmentId })
      .where(eq(shipments.id, reserved.id));
    const assigned = await courier.assignCourier(created.shipmentId, courierId);
    // The label, the pickup and its manifest can be asked again later; a failure here does not undo a paid
    // booking.
    const labelUrl = await courier.labelUrl([created.shipmentId]).catch((error) => {
      log.warn({ order: number, err: serializeError(error) }, "the label was not made at booking");
      return null;
    });
    const pickup = await courier.schedulePickup([created.shipmentId]).catch((error) => {
      log.warn({ order: number, err: serializeError(error) }, "the pickup was not scheduled at booking");
      return null;
    });
    const manifestUrl = pickup
      ? await courier.generateManifest([created.shipmentId]).catch((error) => {
          log.warn({ order: number, err: serializeError(error) }, "the manifest was not made at booking");
          return null;
        })
      : null;
    const now = new Date();
    const [booked] = await deps.db.transaction(async (tx) => {
      // The order first, then its parcel, as every transaction here takes them: the history row below needs
      // a share lock on the order, and a second click holding the order while it waits for this parcel
      // would otherwise deadlock with it.
      await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, order.id)).for("update");
      const rows = await tx
        .update(shipments)
        .set({
          status: pickup ? "pickup_scheduled" : "booked",
          aggregatorOrderId: created.aggregatorOrderId,
          aggregatorShipmentId: created.shipmentId,
          awb: assigned.awb,
          courierId: assigned.courierId,
          courierName: assigned.courierName,
          chargesPaise: quote.ratePaise,
          rtoChargesPaise: quote.rtoPaise,
          codAmountPaise: cod ? order.totalPaise : null,
          labelUrl,
          manifestUrl,
          pickupScheduledFor: pickup?.scheduledFor ?? null,
          lastHeardAt: now,
          updatedAt: now,
        })
        .where(eq(shipments.id, reserved.id))
        .returning();
      const [current] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, order.id));
      await tx.insert(orderEvents).values({
        orderId: order.id,
        fromStatus: current?.status ?? order.status,
        toStatus: current?.status ?? order.status,
        kind: "parcel_booked",
        actor: "admin",
        actorUserId,
        note: `Booked with ${assigned.courierName} through ${courier.name}, AWB ${assigned.awb}${cod ? `; the courier collects ${formatRupees(order.totalPaise)}` : ""}`,
        createdAt: now,
      });
      return rows;
    });
    // The label goes on a packed box: booking a confirmed order packs it.
    if (order.status === "confirmed") {
      await changeOrderStatus(
        deps,
        { orderId: order.id },
        { to: "packed", actor: "admin", actorUserId, note: "Packed when the courier was booked" },
      ).catch((error) => {
        if ((error as { status?: number }).status !== 409) throw error;
      });
    }
    return { shipment: booked as ShipmentRow, alreadyBooked: false };
  } catch (error) {
    if (aggregatorOrderId) {
      // The aggregator made an order under this reference: the row stays, cancelled, so the next booking
      // takes a new reference, and the order here stays bookable.
      await deps.db
        .update(shipments)
        .set({ status: "cancelled", updatedAt: new Date() })
        .where(eq(shipments.id, reserved.id));
      await courier
        .cancel([aggregatorOrderId])
        .catch((cancelError) =>
          log.error(
            { order: number, aggregatorOrderId, err: serializeError(cancelError) },
            "an aggregator order left by a refused booking could not be cancelled",
          ),
        );
    } else {
      await deps.db.delete(shipments).where(eq(shipments.id, reserved.id));
    }
    throw error;
  }
}

function pickByRule(options: CourierOption[], rule: CourierRule): string {
  const marked = markChoices(options);
  const chosen = marked.find((option) => (rule === "cheapest" ? option.cheapest : option.fastest));
  if (!chosen) throw httpError(422, "pin_not_served", "No courier serves this PIN code.");
  return chosen.courierId;
}

/** One PDF with the labels of these orders' parcels (the aggregator merges them), in the order given. */
export async function labelsFor(deps: Deps, numbers: string[]): Promise<Uint8Array> {
  const courier = requireCourier(deps);
  const rows = await deps.db
    .select({ number: orders.number, shipmentId: shipments.aggregatorShipmentId })
    .from(shipments)
    .innerJoin(orders, eq(orders.id, shipments.orderId))
    .where(
      and(inArray(orders.number, numbers), isNotNull(shipments.awb), sql`${shipments.status} <> 'cancelled'`),
    );
  const ids = numbers
    .map((number) => rows.find((row) => row.number === number)?.shipmentId)
    .filter((id): id is string => Boolean(id));
  if (!ids.length) throw notFound("None of these orders has a booked parcel.");
  return courier.fetchLabel(await courier.labelUrl(ids));
}

/** How the order follows its parcel: the order statuses each parcel status implies, in the order to take them. */
const ORDER_STEPS: Partial<Record<ShipmentStatus, OrderStatus[]>> = {
  picked_up: ["shipped"],
  in_transit: ["shipped"],
  out_for_delivery: ["shipped"],
  undelivered: ["shipped"],
  rto_initiated: ["shipped", "returned_to_origin"],
  rto_delivered: ["shipped", "returned_to_origin"],
  delivered: ["shipped", "delivered"],
};

/**
 * A scan dated later than this past the shop's clock is not believed (docs/decisions/077): couriers' clocks
 * drift by minutes, not days, and a scan from the future would outrank every genuine one after it.
 */
export const SCAN_CLOCK_MARGIN_MS = 15 * 60_000;

/** The statuses that move money (cash becomes expected, a return is charged): confirmed before believed. */
const CONFIRMED_STATUSES: readonly ShipmentStatus[] = ["delivered", "rto_initiated", "rto_delivered"];

/**
 * Applies scans to a parcel: each scan is stored once (a unique key over parcel, time and code), and the
 * parcel takes the status of its latest scan by the courier's time, whatever order the scans came in.
 * Returns how many scans were new.
 */
export async function applyScans(deps: Deps, shipmentId: string, given: TrackingScan[], now = new Date()) {
  const scans = given.filter((scan) => {
    if (scan.at.getTime() <= now.getTime() + SCAN_CLOCK_MARGIN_MS) return true;
    log.warn(
      { shipmentId, at: scan.at.toISOString(), label: scan.label },
      "a scan dated in the future was ignored",
    );
    return false;
  });
  const result = await deps.db.transaction(async (tx) => {
    const [shipment] = await tx.select().from(shipments).where(eq(shipments.id, shipmentId)).for("update");
    if (!shipment) return null;
    const fresh = scans.length
      ? await tx
          .insert(shipmentScans)
          .values(
            // Oldest first, so two scans of the same second rank (by id) in the order the courier made them.
            [...scans]
              .sort((a, b) => a.at.getTime() - b.at.getTime())
              .map((scan) => ({
                shipmentId,
                scannedAt: scan.at,
                code: scan.code,
                label: scan.label,
                activity: scan.activity,
                location: scan.location,
                status: scan.status,
              })),
          )
          .onConflictDoNothing()
          .returning({ id: shipmentScans.id })
      : [];
    const [latest] = await tx
      .select()
      .from(shipmentScans)
      .where(and(eq(shipmentScans.shipmentId, shipmentId), isNotNull(shipmentScans.status)))
      .orderBy(desc(shipmentScans.scannedAt), desc(shipmentScans.id))
      .limit(1);
    const status = latest?.status ?? shipment.status;
    const changed = status !== shipment.status && shipment.status !== "cancelled";
    const set: Partial<typeof shipments.$inferInsert> = { lastHeardAt: now, updatedAt: now };
    if (changed) {
      set.status = status;
      set.lastScanAt = latest?.scannedAt ?? null;
      if (status === "undelivered") {
        set.ndrState = "open";
        set.ndrReason = latest?.activity || "The courier could not deliver";
        set.ndrNote = null;
        // A new failed delivery asks the shopper again: an answer to an earlier one is spent.
        Object.assign(set, NO_DELIVERY_REQUEST);
        await enqueueOrderMail(tx, shipment.orderId, "undelivered");
      } else if (shipment.ndrState === "open" || shipment.ndrState === "reattempt_requested") {
        // The parcel moved on (out again, delivered, or coming back): the failed attempt is settled.
        set.ndrState = "closed";
      }
      if (status === "out_for_delivery") await enqueueOrderMail(tx, shipment.orderId, "out_for_delivery");
    }
    await tx.update(shipments).set(set).where(eq(shipments.id, shipmentId));
    return { shipment: { ...shipment, ...set } as ShipmentRow, fresh: fresh.length, mailed: changed };
  });
  if (!result) return 0;
  if (result.mailed) deps.jobs.wake();
  await moveOrderWithParcel(deps, result.shipment);
  return result.fresh;
}

/**
 * Brings the order to where its parcel is (packed -> shipped -> delivered), by the shop itself. Derived from
 * the parcel's status rather than from each scan, so running it again changes nothing, and a crash between
 * the scans and the order is mended by the next update.
 */
async function moveOrderWithParcel(deps: Deps, shipment: ShipmentRow) {
  for (const to of shipment.status === "booking" ? [] : (ORDER_STEPS[shipment.status] ?? [])) {
    const [order] = await deps.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, shipment.orderId));
    if (!order || order.status === to) continue;
    if (!(to === "shipped" ? order.status === "packed" : order.status === "shipped")) continue;
    try {
      await changeOrderStatus(
        deps,
        { orderId: shipment.orderId },
        {
          to,
          actor: "system",
          actorUserId: null,
          note:
            to === "delivered"
              ? `Delivered by ${shipment.courierName}`
              : to === "returned_to_origin"
                ? shipment.status === "rto_delivered"
                  ? `Returned to origin by ${shipment.courierName}`
                  : `Coming back to us with ${shipment.courierName}: the return has started`
                : null,
          // The forward charge and the return's are the serviceability quote's rate and rto_charges (the
          // return at the forward rate where no return was quoted); staff may correct them
          // (docs/decisions/062, 077).
          rto:
            to === "returned_to_origin"
              ? {
                  source: "tracking",
                  forwardPaise: shipment.chargesPaise ?? 0,
                  returnPaise: shipment.rtoChargesPaise ?? shipment.chargesPaise ?? 0,
                }
              : undefined,
          courier: shipment.courierName ?? shipment.service,
          trackingNumber: shipment.awb ?? undefined,
          trackingUrl: shipment.awb
            ? `https://shiprocket.co/tracking/${encodeURIComponent(shipment.awb)}`
            : null,
          onlyIf: (row) => row.status === order.status,
        },
      );
    } catch (error) {
      // Another update moved it meanwhile.
      if ((error as { status?: number }).status !== 409) throw error;
    }
  }
}

/**
 * Applies the scans a webhook reports for one AWB; false for an AWB not the shop's. The webhook is believed
 * only so far (docs/decisions/077): a scan that would mark the parcel delivered or returned is applied only
 * as Shiprocket's tracking API tells it, read here, so a body forged with the right x-api-key moves no order
 * and makes no cash expected. Unconfirmed, such a scan waits for the poll of quiet parcels.
 */
export async function applyWebhookScans(deps: Deps, awb: string, scans: TrackingScan[]) {
  const [shipment] = await deps.db.select({ id: shipments.id }).from(shipments).where(eq(shipments.awb, awb));
  if (!shipment) return false;
  const weighty = (scan: TrackingScan) => scan.status !== null && CONFIRMED_STATUSES.includes(scan.status);
  const plain = scans.filter((scan) => !weighty(scan));
  if (plain.length === scans.length) {
    await applyScans(deps, shipment.id, scans);
    return true;
  }
  const known = await deps.db
    .select({ at: shipmentScans.scannedAt, code: shipmentScans.code, label: shipmentScans.label })
    .from(shipmentScans)
    .where(
      and(eq(shipmentScans.shipmentId, shipment.id), inArray(shipmentScans.status, [...CONFIRMED_STATUSES])),
    );
  const isKnown = (scan: TrackingScan) =>
    known.some(
      (row) => row.at.getTime() === scan.at.getTime() && row.code === scan.code && row.label === scan.label,
    );
  if (scans.filter(weighty).every(isKnown)) {
    await applyScans(deps, shipment.id, scans);
    return true;
  }
  let tracked: TrackingScan[] = [];
  try {
    tracked = deps.courier ? await deps.courier.track(awb) : [];
  } catch (error) {
    log.warn({ awb, err: serializeError(error) }, "a delivered or returned scan could not be confirmed yet");
  }
  const unconfirmed = scans
    .filter(weighty)
    .filter((scan) => !tracked.some((each) => each.status === scan.status));
  if (unconfirmed.length) {
    log.warn(
      { awb, labels: unconfirmed.map((scan) => scan.label) },
      "a tracking update's delivered or returned scan is not in Shiprocket's tracking: not applied",
    );
  }
  await applyScans(deps, shipment.id, [...plain, ...tracked]);
  return true;
}

/** Parcels not heard of for this long are asked after. */
export const POLL_AFTER_MS = 3 * 60 * 60_000;
export const POLL_SHIPMENTS_JOB = "poll-shipments";

/** Asks the aggregator after parcels on their way that no webhook has told of lately. Returns how many. */
export async function pollQuietShipments(deps: Deps, now = new Date(), limit = 50) {
  if (!deps.courier) return 0;
  const quiet = await deps.db
    .select({ id: shipments.id, awb: shipments.awb })
    .from(shipments)
    .where(
      and(
        isNotNull(shipments.awb),
        notInArray(shipments.status, ["booking", ...FINAL_SHIPMENT_STATUSES]),
        or(
          lt(shipments.lastHeardAt, new Date(now.getTime() - POLL_AFTER_MS)),
          sql`${shipments.lastHeardAt} is null`,
        ),
      ),
    )
    .orderBy(asc(shipments.lastHeardAt))
    .limit(limit);
  let asked = 0;
  for (const { id, awb } of quiet) {
    try {
      await applyScans(deps, id, await deps.courier.track(awb as string), now);
      asked++;
    } catch (error) {
      log.warn({ awb, err: serializeError(error) }, "a parcel's tracking could not be read");
    }
  }
  return asked;
}

/** Offers the poll every 15 minutes; one instance runs each (the job's key). Returns the stop function. */
export function scheduleShipmentPolling(deps: Deps): () => void {
  if (!deps.courier) return () => {};
  const offer = () => {
    const slot = Math.floor(Date.now() / (15 * 60_000));
    enqueueJob(deps.db, {
      kind: POLL_SHIPMENTS_JOB,
      payload: {},
      key: `${POLL_SHIPMENTS_JOB}:${slot}`,
    }).catch((error) => log.warn({ err: serializeError(error) }, "could not queue the parcel poll"));
  };
  offer();
  const timer = setInterval(offer, 5 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Sends a choice about an undelivered parcel to the aggregator (the owner's, or the shopper's re-attempt
 * request) and records it. Only an open failed delivery can be acted on, once: the row is locked meanwhile.
 * A corrected address or mobile goes first through the aggregator's address update (Shiprocket's NDR action
 * documents only an action and a comment), then the order's own address follows, with a history line; only
 * then is the re-attempt asked for. This is the one path for every caller (staff, the shopper's account, a
 * guest's link): `action.address` and `action.phone` are the shop's words, never sent in the NDR action.
 *
 * The shopper's answer is kept on the parcel whatever the aggregator says (docs/decisions/082): refused or
 * unanswered, it stays asked, marked `refused` for the owner to pass on by hand, and the shopper is not told
 * to try again. The owner's own choice, refused, is undone so she can choose again, and the error says why.
 */
export async function actOnUndelivered(
  deps: Deps,
  where: { orderId: string },
  action: NdrAction,
  by: "owner" | "shopper",
): Promise<{ outcome: "sent" | "refused" }> {
  const courier = requireCourier(deps);
  const corrected = action.kind === "reattempt" && Boolean(action.address || action.phone);
  const note = (
    action.kind === "return"
      ? `Return to us asked by the ${by}${action.comments ? `: ${action.comments}` : ""}`
      : `Another attempt asked by the ${by}${action.date ? ` for ${formatEstimateDate(action.date)}` : ""}${action.address ? ", at the corrected address" : action.phone ? ", on the corrected mobile" : ""}${action.comments ? `: ${action.comments}` : ""}`
  ).slice(0, 500);
  const chosen = action.kind === "return" ? "return_requested" : "reattempt_requested";
  const now = new Date();
  // The choice is claimed in a short transaction before Shiprocket is asked, so a second click finds it taken
  // and no transaction stays open while the aggregator answers (it may take longer than PostgreSQL lets an
  // idle transaction live).
  const claimed = await deps.db.transaction(async (tx) => {
    // Order, then parcel: the lock order of booking (see bookShipment).
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, where.orderId)).for("update");
    const [shipment] = await tx
      .select()
      .from(shipments)
      .where(and(eq(shipments.orderId, where.orderId), sql`${shipments.status} <> 'cancelled'`))
      .for("update");
    if (!shipment?.awb) throw notFound("This order has no parcel with a courier.");
    if (
      by === "shopper" &&
      shipment.status === "undelivered" &&
      shipment.ndrState === "reattempt_requested"
    ) {
      throw httpError(
        409,
        "delivery_already_asked",
        "You have already told us when to deliver again. To change it, contact us with the order number.",
      );
    }
    const open =
      shipment.ndrState === "open" || (by === "owner" && shipment.ndrState === "reattempt_requested");
    if (shipment.status !== "undelivered" || !open) {
      throw httpError(
        409,
        "no_failed_delivery",
        "There is no failed delivery waiting for a choice on this parcel.",
      );
    }
    const request: Partial<typeof shipments.$inferInsert> =
      by === "shopper" && action.kind === "reattempt"
        ? {
            requestDay: action.date,
            requestLine1: action.address?.line1 ?? null,
            requestLine2: action.address ? action.address.line2 || null : null,
            requestPhone: action.phone ? normalizeMobile(action.phone) : null,
            requestedAt: now,
            requestOutcome: "asking",
            requestCourierSaid: null,
          }
        : {};
    await tx
      .update(shipments)
      .set({ ndrState: chosen, ndrNote: note, ...request, updatedAt: now })
      .where(eq(shipments.id, shipment.id));
    return shipment;
  });
  const release = () =>
    deps.db
      .update(shipments)
      .set({ ndrState: claimed.ndrState, ndrNote: claimed.ndrNote, updatedAt: new Date() })
      .where(and(eq(shipments.id, claimed.id), eq(shipments.ndrState, chosen)));
  let refusal: unknown = null;
  try {
    if (action.kind === "reattempt" && corrected) {
      await correctDeliveryAddress(deps, courier, where.orderId, claimed, action, by);
    }
    await courier.ndr(claimed.awb as string, action);
  } catch (error) {
    if (by === "owner") {
      // Refused or unanswered: the failed delivery waits for a choice again (an address already corrected at
      // the aggregator stays corrected, and so does the order's).
      await release();
      throw ownerRefusal(error, courier.name, claimed);
    }
    refusal = error;
  }
  const said = refusal === null ? null : courierWords(refusal);
  if (refusal !== null) {
    const context = { orderId: where.orderId, awb: claimed.awb, err: serializeError(refusal) };
    const what = "the courier did not take a shopper's answer to a failed delivery; kept for the owner";
    // An HTTP error is the aggregator's (or the shop's own) refusal; anything else is a fault to look at.
    if ((refusal as { status?: number }).status) log.warn(context, what);
    else log.error(context, what);
  }
  await deps.db
    .update(shipments)
    .set(
      by === "shopper"
        ? {
            requestOutcome: refusal === null ? "sent" : "refused",
            requestCourierSaid: said,
            updatedAt: new Date(),
          }
        : // The owner's choice went through: a shopper's answer it stood for is passed on.
          {
            requestOutcome: sql`case when ${shipments.requestOutcome} in ('asking', 'refused') then 'passed_on' else ${shipments.requestOutcome} end`,
            updatedAt: new Date(),
          },
    )
    .where(eq(shipments.id, claimed.id));
  const [order] = await deps.db
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, where.orderId));
  await deps.db.insert(orderEvents).values({
    orderId: where.orderId,
    fromStatus: order?.status ?? "shipped",
    toStatus: order?.status ?? "shipped",
    kind: "delivery_attempt",
    actor: by === "owner" ? "admin" : "customer",
    actorUserId: null,
    // The shopper reads the order's history too: what the aggregator said stays on the parcel, for staff.
    note,
    createdAt: new Date(),
  });
  return { outcome: refusal === null ? "sent" : "refused" };
}

/** An aggregator's refusal in a line for staff: its own words when it gave some, else the shop's wording. */
function courierWords(error: unknown): string {
  const { status, message, courierSaid } = error as {
    status?: number;
    message?: string;
    courierSaid?: string;
  };
  return ((courierSaid ?? (status ? message : null)) || "no answer").slice(0, 300);
}

/** The owner's choice refused by the aggregator, said as what happened and what she can do now. */
function ownerRefusal(error: unknown, service: string, shipment: ShipmentRow) {
  const status = (error as { status?: number }).status;
  // Our own refusals (no aggregator order to correct) and an aggregator that did not answer say it already.
  if (status !== 422) return error;
  return httpError(
    422,
    "courier_refused",
    `${service} did not take this choice (${courierWords(error)}). Ask ${shipment.courierName ?? "the courier"} by phone, giving AWB ${shipment.awb}, or try again later.`,
  );
}

/**
 * Sends the corrected address or mobile to the aggregator's order, then writes it on the order with a history
 * line saying so, in one transaction. The PIN, city and state stay: a parcel cannot change its route.
 */
async function correctDeliveryAddress(
  deps: Deps,
  courier: CourierService,
  orderId: string,
  shipment: ShipmentRow,
  action: Extract<NdrAction, { kind: "reattempt" }>,
  by: "owner" | "shopper",
) {
  const [order] = await deps.db
    .select({ order: orders, email: users.email })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  if (!order) throw notFound("There is no order with that number.");
  if (!shipment.aggregatorOrderId) {
    throw httpError(
      409,
      "address_not_updatable",
      "This parcel was booked without an order at the aggregator, so its address cannot be changed from here.",
    );
  }
  const next = {
    name: order.order.shipName,
    // Orders keep a mobile as its 10 digits, as the address form saves it.
    phone: (action.phone && normalizeMobile(action.phone)) || order.order.shipPhone,
    email: order.email ?? order.order.guestEmail,
    line1: action.address?.line1 ?? order.order.shipLine1,
    line2: action.address ? action.address.line2 : order.order.shipLine2,
    city: order.order.shipCity,
    state: order.order.shipState,
    pin: order.order.shipPin,
  };
  await courier.updateDeliveryAddress(shipment.aggregatorOrderId, next);
  const changed = [
    action.address ? `address ${[next.line1, next.line2].filter(Boolean).join(", ")}` : "",
    action.phone ? `mobile ${next.phone}` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    await tx
      .update(orders)
      .set({ shipLine1: next.line1, shipLine2: next.line2, shipPhone: next.phone, updatedAt: new Date() })
      .where(eq(orders.id, orderId));
    await tx.insert(orderEvents).values({
      orderId,
      fromStatus: locked?.status ?? "shipped",
      toStatus: locked?.status ?? "shipped",
      kind: "address",
      actor: by === "owner" ? "admin" : "customer",
      actorUserId: null,
      note: `Delivery ${changed} corrected by the ${by} for the next attempt, and sent to ${courier.name}`.slice(
        0,
        500,
      ),
      createdAt: new Date(),
    });
  });
}

type RequestColumns = Pick<
  ShipmentRow,
  | "requestDay"
  | "requestLine1"
  | "requestLine2"
  | "requestPhone"
  | "requestedAt"
  | "requestOutcome"
  | "requestCourierSaid"
>;

/** The shopper's answer to a failed delivery kept on a parcel, as the API shows it. */
export function deliveryRequestOf(row: RequestColumns): DeliveryRequest | null {
  if (!row.requestedAt || !row.requestOutcome) return null;
  return {
    day: row.requestDay,
    line1: row.requestLine1,
    line2: row.requestLine2,
    phone: row.requestPhone,
    at: row.requestedAt.toISOString(),
    outcome: row.requestOutcome,
    courierSaid: row.requestCourierSaid,
  };
}

/** The parcel's journey as shown to the shopper and staff: its status and scans, oldest first. */
export async function shipmentView(deps: Deps, orderId: string) {
  const [shipment] = await deps.db
    .select()
    .from(shipments)
    .where(and(eq(shipments.orderId, orderId), sql`${shipments.status} not in ('cancelled', 'booking')`));
  if (!shipment) return null;
  const scans = await deps.db
    .select({
      at: shipmentScans.scannedAt,
      label: shipmentScans.label,
      activity: shipmentScans.activity,
      location: shipmentScans.location,
      status: shipmentScans.status,
    })
    .from(shipmentScans)
    .where(eq(shipmentScans.shipmentId, shipment.id))
    .orderBy(asc(shipmentScans.scannedAt), asc(shipmentScans.id));
  return {
    service: shipment.service,
    status: shipment.status as ShipmentStatus,
    courier: shipment.courierName,
    awb: shipment.awb,
    /** The order id Shiprocket knows the parcel by (the order number, or "-2" ... after a refused booking). */
    reference: shipment.reference,
    chargesPaise: shipment.chargesPaise,
    rtoChargesPaise: shipment.rtoChargesPaise,
    /** The cash the courier was told to collect, as sent: staff compare it with Shiprocket's panel. */
    codAmountPaise: shipment.codAmountPaise,
    manifestUrl: shipment.manifestUrl,
    weightGrams: shipment.weightGrams,
    pickupScheduledFor: shipment.pickupScheduledFor,
    ndr: shipment.ndrState
      ? { state: shipment.ndrState, reason: shipment.ndrReason, note: shipment.ndrNote }
      : null,
    request: deliveryRequestOf(shipment),
    receivedBack: shipment.receivedBackAt !== null,
    scans: scans.map((scan) => ({ ...scan, at: scan.at.toISOString() })),
  };
}
export type ShipmentView = NonNullable<Awaited<ReturnType<typeof shipmentView>>>;
