import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import type { SessionUser } from "../../common/account.ts";
import { indianDate } from "../../common/india-time.ts";
import {
  adminOrderQuerySchema,
  adminStatusChangeSchema,
  orderNumberSchema,
  shipOrderSchema,
  stockUpdateSchema,
  trackingSchema,
} from "../../common/schemas/orders.ts";
import { plainText } from "../../common/schemas/text.ts";
import { recordAudit } from "../audit/audit.ts";
import { requireAdmin } from "../auth/session.ts";
import { csvResponse } from "../csv.ts";
import { orderEvents, orders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { taxDocumentResponse } from "../invoices/document-download.ts";
import { validate } from "../validate.ts";
import {
  dashboardFigures,
  exportOrdersCsv,
  getAdminOrderDetail,
  listAdminOrders,
  listStock,
  updateStock,
} from "./admin-orders.data.ts";
import { changeOrderStatus } from "./order-status.ts";

/** Every admin endpoint answers 401 signed out and 403 to a customer, before reading anything sent. */
const adminOnly = (deps: Deps) =>
  createMiddleware<{ Variables: { adminId: string; admin: SessionUser } }>(async (c, next) => {
    const admin = await requireAdmin(deps, c);
    c.set("adminId", admin.id);
    c.set("admin", admin);
    await next();
  });

/** Staff's order desk: list, filter, search, export, open one, move it along the lifecycle, courier details. */
export function adminOrderRoutes(deps: Deps) {
  return (
    new Hono<{ Variables: { adminId: string; admin: SessionUser } }>()
      .use(adminOnly(deps))
      .get("/", validate("query", adminOrderQuerySchema), async (c) => {
        return c.json(await listAdminOrders(deps.db, c.req.valid("query")));
      })
      .get("/export.csv", validate("query", adminOrderQuerySchema), async (c) => {
        // The file carries every matching customer's name, address and phone: who took it, and which, is kept.
        await recordAudit(deps.db, {
          actor: c.get("admin"),
          entityType: "export",
          entityId: "orders",
          action: "export_csv",
          after: c.req.valid("query"),
        });
        const pieces = await exportOrdersCsv(deps.db, c.req.valid("query"));
        const stamp = indianDate(new Date());
        return csvResponse(pieces, `orders-${stamp}.csv`);
      })
      .get("/:number", validate("param", orderNumberSchema), async (c) => {
        return c.json({ order: await getAdminOrderDetail(deps.db, c.req.valid("param").number, new Date()) });
      })
      .get("/:number/invoice.pdf", validate("param", orderNumberSchema), async (c) => {
        const [order] = await deps.db
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.number, c.req.valid("param").number));
        if (!order) throw notFound("There is no order with that number.");
        return taxDocumentResponse(deps.db, order.id, "invoice");
      })
      .get("/:number/credit-note.pdf", validate("param", orderNumberSchema), async (c) => {
        const [order] = await deps.db
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.number, c.req.valid("param").number));
        if (!order) throw notFound("There is no order with that number.");
        return taxDocumentResponse(deps.db, order.id, "credit_note");
      })
      .post(
        "/:number/status",
        validate("param", orderNumberSchema),
        validate("json", adminStatusChangeSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const change = c.req.valid("json");
          await changeOrderStatus(
            deps,
            { number },
            {
              to: change.status,
              actor: "admin",
              actorUserId: c.get("adminId"),
              note: change.note,
              courier: change.courier,
              trackingNumber: change.trackingNumber,
              refundReference: change.refundReference,
              refundMethod: change.refundMethod,
              audit: c.get("admin"),
            },
          );
          return c.json({ order: await getAdminOrderDetail(deps.db, number, new Date()) });
        },
      )
      // Courier, tracking number and the status change in one request and one transaction (changeOrderStatus).
      .post(
        "/:number/ship",
        validate("param", orderNumberSchema),
        validate("json", shipOrderSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const ship = c.req.valid("json");
          await changeOrderStatus(
            deps,
            { number },
            {
              to: "shipped",
              actor: "admin",
              actorUserId: c.get("adminId"),
              note: ship.note,
              courier: ship.courier,
              trackingNumber: ship.trackingNumber,
              trackingUrl: ship.courier === "Other" ? (ship.trackingUrl ?? null) : null,
              audit: c.get("admin"),
            },
          );
          return c.json({ order: await getAdminOrderDetail(deps.db, number, new Date()) });
        },
      )
      .put(
        "/:number/tracking",
        validate("param", orderNumberSchema),
        validate("json", trackingSchema),
        async (c) => {
          const { number } = c.req.valid("param");
          const { courier, trackingNumber } = c.req.valid("json");
          await deps.db.transaction(async (tx) => {
            const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
            if (!order) throw notFound("There is no order with that number.");
            if (order.status !== "shipped" && order.status !== "delivered") {
              throw httpError(
                409,
                "not_shipped",
                "Courier details can be corrected once the order has shipped.",
              );
            }
            await tx.update(orders).set({ courier, trackingNumber }).where(eq(orders.id, order.id));
            await tx.insert(orderEvents).values({
              orderId: order.id,
              fromStatus: order.status,
              toStatus: order.status,
              kind: "courier",
              actor: "admin",
              actorUserId: c.get("adminId"),
              note: `Courier details corrected: ${courier}, tracking ${trackingNumber}`,
            });
            await recordAudit(tx, {
              actor: c.get("admin"),
              entityType: "order",
              entityId: order.number,
              action: "tracking",
              before: { courier: order.courier, trackingNumber: order.trackingNumber },
              after: { courier, trackingNumber },
            });
          });
          return c.json({ order: await getAdminOrderDetail(deps.db, number, new Date()) });
        },
      )
  );
}

/** Stock per product and combo, editable; low stock is flagged at LOW_STOCK_THRESHOLD. */
export function adminStockRoutes(deps: Deps) {
  const threshold = deps.env.LOW_STOCK_THRESHOLD;
  return new Hono<{ Variables: { adminId: string; admin: SessionUser } }>()
    .use(adminOnly(deps))
    .get("/", async (c) => c.json(await listStock(deps.db, threshold)))
    .put(
      "/:kind/:id",
      validate("param", z.object({ kind: z.enum(["product", "combo"]), id: plainText().max(80) })),
      validate("json", stockUpdateSchema),
      async (c) => {
        const { kind, id } = c.req.valid("param");
        const item = await updateStock(deps.db, kind, id, c.req.valid("json"), threshold, c.get("admin"));
        return c.json({ item });
      },
    );
}

/** The dashboard's order figures. */
export function adminDashboardRoutes(deps: Deps) {
  return new Hono()
    .use(adminOnly(deps))
    .get("/", async (c) => c.json(await dashboardFigures(deps.db, new Date(), deps.env.LOW_STOCK_THRESHOLD)));
}
