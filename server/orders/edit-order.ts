import { and, asc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { availabilityOf, type ResolvedLine, summarizeCart } from "../../common/cart.ts";
import { imageFor } from "../../common/catalogue.ts";
import { notServedMessage } from "../../common/delivery-check.ts";
import { estimateDelivery, formatEstimate } from "../../common/delivery-estimate.ts";
import {
  codeUnavailable,
  DISCOUNT_LIMIT_MESSAGES,
  discountProblemOf,
  type PricedCode,
} from "../../common/discount.ts";
import { formatMobile } from "../../common/india.ts";
import { formatRupees } from "../../common/money.ts";
import { STATUS_LABELS } from "../../common/order-lifecycle.ts";
import { orderPricingOf, prepaidColumns } from "../../common/order-pricing.ts";
import type { Address } from "../../common/schemas/address.ts";
import { type EditOrderItems, type OrderEditResult, orderEditable } from "../../common/schemas/order-edit.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import { decideCod, readCodRules, readPrepaidIncentive } from "../cod/cod-rules.ts";
import { settleOpenSwitch } from "../cod/pay-online-instead.ts";
import type { Tx } from "../db/client.ts";
import {
  combos,
  discountCodes,
  type OrderRow,
  orderEvents,
  orderLines,
  orders,
  products,
  shipments,
} from "../db/schema.ts";
import { checkAddressPlace, deliveryTo } from "../delivery/delivery.data.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { issueCreditNote, issueInvoice } from "../invoices/tax-documents.ts";
import { orderWithPayment, type PaidOrder, recordMoney } from "../money/ledger.ts";
import { razorpayConfig, refundRazorpayPayment } from "../money/razorpay.ts";
import { readShippingRule } from "../settings/settings.data.ts";
import { shippingAddressOf } from "./order-address.ts";
import { enqueueOrderChangeNotice } from "./order-change-notice.ts";

/** Locks the order and refuses (409) once it is past the point where a change could still reach the parcel. */
async function lockEditableOrder(tx: Tx, number: string, what: string): Promise<PaidOrder> {
  const [order] = await tx
    .select(orderWithPayment)
    .from(orders)
    .where(eq(orders.number, number))
    .for("update", { of: orders });
  if (!order) throw notFound("There is no order with that number.");
  if (!orderEditable(order.status)) {
    throw httpError(
      409,
      "order_not_editable",
      order.status === "awaiting_payment"
        ? `Order ${number} is waiting for the customer's payment; its ${what} can be changed once it is paid.`
        : `Order ${number} is ${STATUS_LABELS[order.status].toLowerCase()}: its ${what} can be changed only before it is packed.`,
    );
  }
  // A parcel booked with the courier carries the old address and contents (docs/decisions/052).
  const [parcel] = await tx
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.orderId, order.id), ne(shipments.status, "cancelled")));
  if (parcel) {
    throw httpError(
      409,
      "order_not_editable",
      `Order ${number} has a parcel booked with the courier: cancel the booking first, then change its ${what}.`,
    );
  }
  return order;
}

/**
 * An invoiced order changed by staff has its invoice reversed by a credit note and a new one issued for the
 * order as it now stands (docs/decisions/087), in the change's transaction. The words for its history; none
 * when no invoice stood.
 */
async function invoiceAgain(tx: Tx, orderId: string, reason: string, now: Date): Promise<string[]> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return [];
  const credit = await issueCreditNote(tx, order, reason, now);
  if (!credit) return [];
  const invoice = await issueInvoice(tx, order, now);
  return [
    invoice
      ? `Credit note ${credit.number} reverses the earlier invoice; invoice ${invoice.number} is issued for the order as it is now.`
      : `Credit note ${credit.number} reverses the earlier invoice; no new invoice could be issued until the shop's GSTIN and registered address are set (Shop details).`,
  ];
}

/** Writes the history entry (who, what: old → new), the audit entry and queues the shopper's notice. */
async function recordChange(
  tx: Tx,
  order: OrderRow,
  actor: AuditActor,
  change: { action: "edit_address" | "edit_items"; note: string; before: unknown; after: unknown; now: Date },
) {
  const [event] = await tx
    .insert(orderEvents)
    .values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: order.status,
      kind: change.action === "edit_address" ? "address" : "items",
      actor: "admin",
      actorUserId: actor.id,
      note: change.note,
      createdAt: change.now,
    })
    .returning({ id: orderEvents.id });
  if (!event) throw new Error("The order's history entry was not written.");
  await recordAudit(tx, {
    actor,
    entityType: "order",
    entityId: order.number,
    action: change.action,
    before: change.before,
    after: change.after,
  });
  await enqueueOrderChangeNotice(tx, order.id, event.id);
}

const addressText = (address: {
  name: string;
  phone: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  pin: string;
}) =>
  [
    address.name,
    formatMobile(address.phone),
    address.line1,
    address.line2,
    `${address.city} ${address.pin}`,
    address.state,
  ]
    .filter(Boolean)
    .join(", ");

/**
 * Staff correct the delivery address before packing: checked as checkout checks it (the PIN in India Post's
 * directory and in the state, the owner's delivery rules, cash on delivery allowed there). Once the invoice
 * is issued the state must stay, since the invoice's place of supply and its tax follow it
 * (docs/decisions/061).
 */
export async function editOrderAddress(
  deps: Deps,
  number: string,
  address: Address,
  actor: AuditActor,
  now = new Date(),
): Promise<OrderEditResult> {
  const place = await checkAddressPlace(address);
  const result = await deps.db.transaction(async (tx) => {
    const order = await lockEditableOrder(tx, number, "address");
    const before = shippingAddressOf(order);
    const after = { ...address, district: address.district || place.district };
    if (addressText(before) === addressText(after) && before.district === after.district) {
      return { changed: false, summary: "The address is as it was: nothing changed.", notes: [] };
    }
    const delivery = await deliveryTo(tx, address.pin, "pin");
    if (delivery.rule?.rule === "not_served") {
      const message = notServedMessage(delivery.place);
      throw httpError(422, "not_served", message, { pin: message });
    }
    // A new PIN is a new destination: the window is worked out again as "Check delivery" gives it today,
    // from the change, since the parcel leaves only after it (docs/decisions/061).
    const estimate = after.pin !== before.pin ? estimateDelivery(now) : null;
    if (order.paymentMethod === "cod") {
      await refuseCodUnlessRulesAllow(
        tx,
        deps,
        order.userId,
        order.totalPaise,
        { ...address, delivery },
        "pin",
      );
    }
    await tx
      .update(orders)
      .set({
        shipName: after.name,
        shipPhone: after.phone,
        shipLine1: after.line1,
        shipLine2: after.line2,
        shipCity: after.city,
        shipDistrict: after.district || null,
        shipState: after.state,
        shipPin: after.pin,
        ...(estimate ? { estimatedDeliveryFrom: estimate.from, estimatedDeliveryTo: estimate.to } : {}),
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    // Another state is another place of supply, and another tax (IGST or CGST and SGST): invoiced again.
    const invoiced =
      after.state !== before.state
        ? await invoiceAgain(tx, order.id, `Delivery moved from ${before.state} to ${after.state}`, now)
        : [];
    const summary = [
      `Delivery address changed: ${addressText(before)} → ${addressText(after)}.`,
      ...(estimate ? [`Estimated delivery now ${formatEstimate(estimate)}.`] : []),
      ...invoiced,
    ].join(" ");
    await recordChange(tx, order, actor, { action: "edit_address", note: summary, before, after, now });
    return { changed: true, summary, notes: [] };
  });
  if (result.changed) deps.jobs.wake();
  return result;
}

type LockedItem = {
  itemId: string;
  kind: "product" | "combo";
  name: string;
  pricePaise: number;
  stock: number;
  active: boolean;
  image: string;
  perishable: boolean;
};

/**
 * The products and combos an edit touches, locked in the order placing an order locks them (products, then
 * combos, each by key), so an edit and an order never deadlock. A combo is sold only while all its products
 * are, and is perishable when one of them is a food, as the order's own pricing has it.
 */
async function lockItems(
  tx: Tx,
  ids: { product: string[]; combo: string[] },
): Promise<Map<string, LockedItem>> {
  const items = new Map<string, LockedItem>();
  if (ids.product.length) {
    const rows = await tx
      .select()
      .from(products)
      .where(inArray(products.slug, ids.product))
      .orderBy(asc(products.slug))
      .for("update");
    for (const row of rows) {
      items.set(`product:${row.slug}`, {
        itemId: row.slug,
        kind: "product",
        name: row.name,
        pricePaise: row.pricePaise,
        stock: row.stock,
        active: row.active,
        image: row.images[0] ?? row.slug,
        perishable: row.category === "nutrition",
      });
    }
  }
  if (ids.combo.length) {
    const rows = await tx
      .select()
      .from(combos)
      .where(inArray(combos.id, ids.combo))
      .orderBy(asc(combos.id))
      .for("update");
    const memberSlugs = [...new Set(rows.flatMap((row) => row.productSlugs))];
    const members = memberSlugs.length
      ? await tx
          .select({ slug: products.slug, active: products.active, category: products.category })
          .from(products)
          .where(inArray(products.slug, memberSlugs))
      : [];
    const memberBySlug = new Map(members.map((member) => [member.slug, member]));
    for (const row of rows) {
      const parts = row.productSlugs.map((slug) => memberBySlug.get(slug));
      items.set(`combo:${row.id}`, {
        itemId: row.id,
        kind: "combo",
        name: row.title,
        pricePaise: row.salePricePaise,
        stock: row.stock,
        active: row.active && parts.every((part) => part?.active),
        image: row.image,
        perishable: parts.some((part) => part?.category === "nutrition"),
      });
    }
  }
  return items;
}

/**
 * The order's code as it stands for this order: the order already holds its use, so only whether the code
 * is still on and within its dates counts, not the uses left (the spent flag and the total limit would
 * count this order's own use against it).
 */
async function discountForOrder(tx: Tx, order: OrderRow): Promise<PricedCode | null> {
  if (!order.discountCode) return null;
  const [code] = await tx.select().from(discountCodes).where(eq(discountCodes.code, order.discountCode));
  if (!code) return null;
  const unavailable = codeUnavailable(code, new Date());
  return {
    code: code.code,
    percent: code.percent,
    amountOffPaise: code.amountOffPaise,
    description: code.description,
    minAmountPaise: code.minAmountPaise,
    active: code.active,
    problem: discountProblemOf({
      active: code.active,
      unavailable: unavailable === DISCOUNT_LIMIT_MESSAGES.limitReached ? null : unavailable,
      spent: false,
      usesPerCustomer: code.usesPerCustomer,
    }),
  };
}

/** Moves stock by the difference between the old and the new quantity, refusing (409) what is not there. */
async function moveStock(tx: Tx, item: LockedItem, delta: number) {
  if (delta === 0) return;
  const table = item.kind === "product" ? products : combos;
  const key = item.kind === "product" ? products.slug : combos.id;
  const [moved] = await tx
    .update(table)
    .set({ stock: sql`${table.stock} - ${delta}` })
    .where(delta > 0 ? and(eq(key, item.itemId), gte(table.stock, delta)) : eq(key, item.itemId))
    .returning({ stock: table.stock });
  if (!moved) {
    throw httpError(409, "out_of_stock", `Only ${item.stock} more of ${item.name} in stock.`);
  }
}

/**
 * Staff change the items and quantities of an order before packing (docs/decisions/061; an invoiced one is
 * invoiced again, 087): stock is taken and released by the difference, atomically with the change; the
 * order is priced again by the order's own calculation (common/order-pricing.ts), lines already on the
 * order at the price it was placed at and added ones at today's; the code is kept while it is still on and
 * within its dates. A paid online order may only come to less: the difference is refunded through Razorpay
 * in the same step, or nothing changes.
 */
export async function editOrderItems(
  deps: Deps,
  number: string,
  edit: EditOrderItems,
  actor: AuditActor,
  now = new Date(),
): Promise<OrderEditResult> {
  const result = await deps.db.transaction(async (tx) => {
    const order = await lockEditableOrder(tx, number, "items");
    // The shopper may be paying online the old amount: staff wait for it, or its window to close.
    await settleOpenSwitch(tx, deps.env, order, "staff", "items changed by staff", now);
    const oldLines = await tx
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.position));
    const oldByKey = new Map(oldLines.map((line) => [`${line.kind}:${line.itemId}`, line]));
    const wanted = new Map(edit.lines.map((line) => [`${line.kind}:${line.itemId}`, line]));
    const keys = [...new Set([...oldByKey.keys(), ...wanted.keys()])];
    const ids = { product: [] as string[], combo: [] as string[] };
    for (const key of keys) {
      const [kind, ...rest] = key.split(":");
      ids[kind as "product" | "combo"].push(rest.join(":"));
    }
    const locked = await lockItems(tx, ids);

    // Kept lines first, in their places, then added ones in the order given.
    const ordered = [
      ...oldLines
        .filter((line) => wanted.has(`${line.kind}:${line.itemId}`))
        .map((line) => `${line.kind}:${line.itemId}`),
      ...edit.lines.map((line) => `${line.kind}:${line.itemId}`).filter((key) => !oldByKey.has(key)),
    ];
    const items = ordered.map((key): ResolvedLine => {
      const line = wanted.get(key);
      if (!line) throw new Error(`No line for ${key}`);
      const old = oldByKey.get(key);
      const item = locked.get(key);
      const href = line.kind === "product" ? `/product/${line.itemId}` : `/combo/${line.itemId}`;
      const entry = { id: line.itemId, kind: line.kind, quantity: line.quantity, href };
      if (old) {
        // Units the order already holds are its own: they count as available to it, at the order's price.
        const stock = (item?.stock ?? 0) + old.quantity;
        return {
          ...entry,
          name: old.name,
          image: imageFor(old.image),
          imageKey: old.image,
          unitPricePaise: old.unitPricePaise,
          addedPricePaise: old.unitPricePaise,
          availability: availabilityOf(true, stock, line.quantity),
          stock,
          perishable: old.perishable,
        };
      }
      return {
        ...entry,
        name: item?.name ?? line.itemId,
        image: item ? imageFor(item.image) : null,
        imageKey: item?.image ?? null,
        unitPricePaise: item?.pricePaise ?? null,
        addedPricePaise: item?.pricePaise ?? null,
        availability: availabilityOf(item?.active === true, item?.stock ?? 0, line.quantity),
        stock: item?.stock ?? 0,
        perishable: item?.perishable ?? false,
      };
    });

    const pricing = orderPricingOf(
      summarizeCart({
        lines: items,
        discount: await discountForOrder(tx, order),
        shipping: await readShippingRule(tx, deps.env),
        // Paid online, the order keeps the reward for paying online, as the owner has it now (decision 072).
        payment: { method: order.paymentMethod, incentive: await readPrepaidIncentive(tx) },
      }),
    );
    const unavailable = pricing.problems.find((problem) => problem.reason === "not_sold");
    if (unavailable) {
      throw httpError(
        409,
        "item_unavailable",
        `${unavailable.itemId} is not on sale, so it cannot be added.`,
      );
    }
    const short = pricing.problems.find((problem) => problem.reason !== "not_sold");
    if (short) {
      const held = oldByKey.get(`${items.find((item) => item.id === short.itemId)?.kind}:${short.itemId}`);
      const most = short.available;
      throw httpError(
        409,
        "out_of_stock",
        `Only ${most} of ${short.name} can go in this order${held ? ` (${held.quantity} already in it)` : ""}.`,
      );
    }

    const describe = (line: { name: string; quantity: number }) => `${line.name} × ${line.quantity}`;
    const changes: string[] = [];
    for (const line of pricing.lines) {
      const old = oldByKey.get(`${line.kind}:${line.itemId}`);
      if (!old) changes.push(`${describe(line)} added`);
      else if (old.quantity !== line.quantity)
        changes.push(`${line.name} ${old.quantity} → ${line.quantity}`);
    }
    for (const old of oldLines) {
      if (!wanted.has(`${old.kind}:${old.itemId}`)) changes.push(`${describe(old)} removed`);
    }
    if (changes.length === 0)
      return { changed: false, summary: "The items are as they were: nothing changed.", notes: [] };

    const notes: string[] = [];
    const discountPaise = pricing.discount?.amountPaise ?? 0;
    let discountCode = order.discountCode;
    if (pricing.discountProblem) {
      notes.push(
        `Code ${pricing.discountProblem.code} no longer applies (${pricing.discountProblem.message}), so the order has no discount now.`,
      );
      discountCode = null;
    } else if (order.discountCode && order.discountPaise > 0 && discountPaise === 0) {
      notes.push(`Code ${order.discountCode} gives nothing at this order value (below its minimum).`);
    }

    const paidOnline = order.paymentMethod === "razorpay" && order.paidAt !== null;
    if (paidOnline && pricing.totalPaise > order.totalPaise) {
      throw httpError(
        409,
        "total_above_paid",
        `The customer paid ${formatRupees(order.totalPaise)} online; the change would make it ${formatRupees(pricing.totalPaise)}. A paid order can only come to less: place a second order for the rest.`,
      );
    }
    if (order.paymentMethod === "cod") {
      const delivery = await deliveryTo(tx, order.shipPin, "pin");
      const address = {
        pin: order.shipPin,
        state: order.shipState,
        phone: order.shipPhone,
        line1: order.shipLine1,
      };
      await refuseCodUnlessRulesAllow(tx, deps, order.userId, pricing.totalPaise, { ...address, delivery });
    }

    for (const key of keys) {
      const item = locked.get(key);
      const newQuantity = wanted.get(key)?.quantity ?? 0;
      const oldQuantity = oldByKey.get(key)?.quantity ?? 0;
      if (item) await moveStock(tx, item, newQuantity - oldQuantity);
    }
    await tx.delete(orderLines).where(eq(orderLines.orderId, order.id));
    await tx.insert(orderLines).values(
      pricing.lines.map((line, position) => ({
        orderId: order.id,
        position,
        itemId: line.itemId,
        kind: line.kind,
        name: line.name,
        image: line.image,
        unitPricePaise: line.unitPricePaise,
        quantity: line.quantity,
        lineTotalPaise: line.lineTotalPaise,
        perishable: line.perishable,
      })),
    );
    const totals = {
      subtotalPaise: pricing.subtotalPaise,
      discountCode,
      discountPaise,
      shippingPaise: pricing.shippingPaise,
      ...prepaidColumns(pricing),
      totalPaise: pricing.totalPaise,
    };
    if (paidOnline && pricing.totalPaise < order.totalPaise) {
      const difference = order.totalPaise - pricing.totalPaise;
      const config = razorpayConfig(deps.env);
      if (!config || !order.razorpayPaymentId) {
        throw httpError(
          503,
          "payment_unavailable",
          `Razorpay is not configured, so the ${formatRupees(difference)} difference cannot be refunded: nothing was changed.`,
        );
      }
      // Inside the transaction that holds the order's lock, as a cancellation's refund is: two edits cannot
      // refund twice, and a refund Razorpay refuses leaves the order as it was.
      const refund = await refundRazorpayPayment(config, {
        paymentId: order.razorpayPaymentId,
        amountPaise: difference,
        receipt: `${order.number}-edit`,
      });
      await recordMoney(tx, {
        orderId: order.id,
        kind: "online_refund",
        amountPaise: difference,
        razorpayPaymentId: order.razorpayPaymentId,
        razorpayRefundId: refund.id,
        recordedBy: actor.id,
        note: "The difference of an edit that lowered the total",
        createdAt: now,
      });
      notes.push(`${formatRupees(difference)} refunded to the customer through Razorpay (${refund.id}).`);
    }
    await tx
      .update(orders)
      .set({
        ...totals,
        hasPerishables: pricing.lines.some((line) => line.perishable),
        updatedAt: now,
      })
      .where(eq(orders.id, order.id));
    notes.push(...(await invoiceAgain(tx, order.id, `Items changed: ${changes.join("; ")}`, now)));

    const summary = [
      `Items changed: ${changes.join("; ")}. Total ${formatRupees(order.totalPaise)} → ${formatRupees(pricing.totalPaise)}.`,
      ...notes,
    ].join(" ");
    const linesOf = (lines: readonly { itemId: string; quantity: number; unitPricePaise: number }[]) =>
      lines.map(({ itemId, quantity, unitPricePaise }) => ({ itemId, quantity, unitPricePaise }));
    await recordChange(tx, order, actor, {
      action: "edit_items",
      note: summary,
      before: {
        lines: linesOf(oldLines),
        subtotalPaise: order.subtotalPaise,
        discountCode: order.discountCode,
        discountPaise: order.discountPaise,
        shippingPaise: order.shippingPaise,
        totalPaise: order.totalPaise,
      },
      after: { lines: linesOf(pricing.lines), ...totals },
      now,
    });
    return { changed: true, summary, notes };
  });
  if (result.changed) deps.jobs.wake();
  return result;
}

/** A changed COD order is held to the owner's COD rules as they stand now, as a new order would be (decision 062). */
async function refuseCodUnlessRulesAllow(
  tx: Tx,
  deps: Deps,
  userId: string | null,
  totalPaise: number,
  to: {
    pin: string;
    state: string;
    phone: string;
    line1: string;
    delivery: Awaited<ReturnType<typeof deliveryTo>>;
  },
  field?: "pin",
) {
  const decision = await decideCod(tx, await readCodRules(tx, deps.env), {
    totalPaise,
    pin: to.pin,
    district: to.delivery.place.district,
    state: to.state,
    customer: { userId, mobile: to.phone, pin: to.pin, line1: to.line1 },
  });
  if (decision.available) return;
  const message = `Cash on delivery: ${decision.reason}`;
  throw httpError(422, "cod_unavailable", message, field ? { [field]: decision.reason } : undefined);
}
