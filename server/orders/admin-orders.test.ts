import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  AdminOrderDetail,
  AdminOrderPage,
  DashboardFigures,
  OrderDetail,
  StockList,
} from "../../common/orders.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import {
  asUser,
  type Customer,
  placeCodOrder,
  type putInCart,
  signUpWithAddress,
  stockOf,
} from "../../tests/orders.ts";
import { orders } from "../db/schema.ts";

const shop = setUpTestApp();
let admin: TestAccount;
let meera: Customer;
let ravi: Customer;

const placeCod = (who: Customer, items: Parameters<typeof putInCart>[2]) => placeCodOrder(shop, who, items);

const asAdmin = (init?: Parameters<typeof asUser>[1]) => asUser(admin.cookie, init);
const setStatus = (number: string, body: Record<string, unknown>) =>
  shop.app.request(`/api/admin/orders/${number}/status`, asAdmin({ method: "POST", body }));

beforeAll(async () => {
  admin = await signUpWithRole(shop, "staff@prakriti.example", "owner");
  meera = await signUpWithAddress(shop.app, "meera@example.in");
  ravi = await signUpWithAddress(shop.app, "ravi@example.in", {
    name: "Ravi Kumar",
    phone: "+91 91234 56789",
    line1: "4 Gandhi Road",
    line2: "",
    city: "Chennai",
    state: "Tamil Nadu",
    pin: "600017",
  });
});

describe("the admin guard", () => {
  it.each([
    ["GET", "/api/admin/orders"],
    ["GET", "/api/admin/orders/export.csv"],
    ["GET", "/api/admin/orders/PN-2026-000001"],
    ["POST", "/api/admin/orders/PN-2026-000001/status"],
    ["PUT", "/api/admin/orders/PN-2026-000001/tracking"],
    ["GET", "/api/admin/stock"],
    ["PUT", "/api/admin/stock/product/coconut-oil"],
    ["GET", "/api/admin/dashboard"],
  ])("%s %s is 401 signed out and 403 for a customer", async (method, url) => {
    const body = method === "GET" ? undefined : { status: "shipped" };
    expect((await shop.app.request(url, jsonRequest({ method, body }))).status).toBe(401);
    expect((await shop.app.request(url, asUser(meera.cookie, { method, body }))).status).toBe(403);
  });
});

describe("the order desk", () => {
  it("lists, filters by status and date, and searches by number, e-mail and phone", async () => {
    const first = await placeCod(meera, [{ itemId: "coconut-oil" }]);
    const second = await placeCod(ravi, [{ itemId: "hair-growth-oil", quantity: 2 }]);
    await shop.app.request(
      `/api/orders/${first.number}/cancel`,
      asUser(meera.cookie, { method: "POST", body: {} }),
    );

    const list = async (query: string) =>
      (
        (await (await shop.app.request(`/api/admin/orders${query}`, asAdmin())).json()) as AdminOrderPage
      ).orders.map((order) => order.number);
    expect(await list("")).toEqual([second.number, first.number]);
    expect(await list("?status=cancelled")).toEqual([first.number]);
    expect(await list(`?q=${second.number}`)).toEqual([second.number]);
    expect(await list("?q=RAVI%40example")).toEqual([second.number]);
    expect(await list("?q=91234%2056789")).toEqual([second.number]);
    expect(await list("?q=%25")).toEqual([]);
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    expect(await list(`?from=${today}&to=${today}`)).toHaveLength(2);
    expect(await list("?to=2020-01-01")).toEqual([]);
    expect((await shop.app.request("/api/admin/orders?status=lost", asAdmin())).status).toBe(400);

    const page = (await (await shop.app.request("/api/admin/orders", asAdmin())).json()) as AdminOrderPage;
    expect(page.orders[0]).toMatchObject({
      number: second.number,
      customerEmail: "ravi@example.in",
      customerName: "Ravi Kumar",
      phone: "9123456789",
      itemCount: 2,
      paymentMethod: "cod",
      paid: false,
    });
  });

  it("moves an order along the lifecycle only, with courier and tracking to ship", async () => {
    const order = await placeCod(meera, [{ itemId: "face-glow-oil" }]);
    const skip = await setStatus(order.number, {
      status: "shipped",
      courier: "Delhivery",
      trackingNumber: "1234",
    });
    expect(skip.status).toBe(409);
    // A placed cash-on-delivery order waits for its shopper's confirmation (docs/decisions/065).
    expect((await skip.json()).error.message).toMatch(/^This cash-on-delivery order is not confirmed yet/);

    expect((await setStatus(order.number, { status: "confirmed" })).status).toBe(200);
    expect((await setStatus(order.number, { status: "packed", note: "Gift wrapped" })).status).toBe(200);
    const noTracking = await setStatus(order.number, { status: "shipped", courier: "Delhivery" });
    expect(noTracking.status).toBe(400);
    expect((await noTracking.json()).error.fields).toEqual({ trackingNumber: "is required to ship" });

    const shipped = await setStatus(order.number, {
      status: "shipped",
      courier: "Delhivery",
      trackingNumber: "DLV-998877",
    });
    expect(shipped.status).toBe(200);
    const detail = ((await shipped.json()) as { order: AdminOrderDetail }).order;
    expect(detail).toMatchObject({
      status: "shipped",
      courier: "Delhivery",
      trackingNumber: "DLV-998877",
      customerEmail: "meera@example.in",
      nextStatuses: ["delivered"],
    });
    expect(detail.events.map((event) => [event.toStatus, event.actor, event.actorEmail])).toEqual([
      ["placed", "customer", "meera@example.in"],
      ["confirmed", "admin", "staff@prakriti.example"],
      ["packed", "admin", "staff@prakriti.example"],
      ["shipped", "admin", "staff@prakriti.example"],
    ]);
    expect(detail.events[3]?.note).toBe("Delhivery, tracking DLV-998877");

    const corrected = await shop.app.request(
      `/api/admin/orders/${order.number}/tracking`,
      asAdmin({ method: "PUT", body: { courier: "Blue Dart", trackingNumber: "BD-1" } }),
    );
    expect(((await corrected.json()) as { order: AdminOrderDetail }).order.trackingNumber).toBe("BD-1");

    const customerView = await shop.app.request(`/api/orders/${order.number}`, asUser(meera.cookie));
    expect(((await customerView.json()) as { order: OrderDetail }).order).toMatchObject({
      status: "shipped",
      courier: "Blue Dart",
      trackingNumber: "BD-1",
    });
  });

  it("refunds a returned cash-on-delivery order with the transfer reference", async () => {
    const order = await placeCod(ravi, [{ itemId: "bath-powder" }]);
    for (const status of ["confirmed", "packed"]) await setStatus(order.number, { status });
    await setStatus(order.number, { status: "shipped", courier: "India Post", trackingNumber: "EM1IN" });
    await setStatus(order.number, { status: "delivered" });
    await setStatus(order.number, { status: "return_requested", note: "Customer phoned: jar broken" });
    await setStatus(order.number, { status: "returned" });
    expect((await setStatus(order.number, { status: "refunded" })).status).toBe(400);
    const noMethod = await setStatus(order.number, { status: "refunded", refundReference: "UPI 4321 0987" });
    expect(noMethod.status).toBe(400);
    expect(((await noMethod.json()) as { error: { message: string } }).error.message).toMatch(
      /^refundMethod/,
    );
    const refunded = await setStatus(order.number, {
      status: "refunded",
      refundReference: "UPI 4321 0987",
      refundMethod: "upi",
    });
    expect(((await refunded.json()) as { order: AdminOrderDetail }).order).toMatchObject({
      status: "refunded",
      refundReference: "UPI 4321 0987",
      refundMethod: "upi",
      nextStatuses: [],
    });
  });

  it("exports the filtered orders as CSV, spreadsheet-safe", async () => {
    const evil = await signUpWithAddress(shop.app, "evil@example.in", {
      name: '=HYPERLINK("http://x")',
      phone: "9000000001",
      line1: '1, "Quoted" House',
      line2: "",
      city: "Mumbai",
      state: "Maharashtra",
      pin: "400001",
    });
    const order = await placeCod(evil, [{ itemId: "coconut-oil", quantity: 2 }]);
    const response = await shop.app.request(`/api/admin/orders/export.csv?q=${order.number}`, asAdmin());
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const [header, row, end] = (await response.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toMatch(/^Order number,Placed \(IST\),Status,/);
    expect(row).toContain(`${order.number},`);
    expect(row).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(row).toContain('"1, ""Quoted"" House"');
    expect(row).toContain("2 x Coconut Oil,700.00,,0.00,0.00,700.00");
    expect(end).toBe("");
  });
});

describe("stock", () => {
  it("lists every product and combo with low stock flagged, and edits only from the figure seen", async () => {
    const list = (await (await shop.app.request("/api/admin/stock", asAdmin())).json()) as StockList;
    expect(list.items).toHaveLength(25);
    expect(list.lowStockThreshold).toBe(10);
    const oil = list.items.find((item) => item.id === "coconut-oil");
    expect(oil).toMatchObject({ kind: "product", name: "Coconut Oil", low: false });

    const update = (body: unknown) =>
      shop.app.request("/api/admin/stock/product/coconut-oil", asAdmin({ method: "PUT", body }));
    const set = await update({ stock: 4, previousStock: oil?.stock });
    expect(((await set.json()) as { item: unknown }).item).toMatchObject({ stock: 4, low: true });
    expect(await stockOf(shop.db, "coconut-oil")).toBe(4);

    const stale = await update({ stock: 50, previousStock: oil?.stock });
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.message).toContain("changed to 4");
    expect((await update({ stock: -1, previousStock: 4 })).status).toBe(400);
    expect((await update({ stock: 5, previousStock: 4, name: "x" })).status).toBe(400);
    const combo = await shop.app.request(
      "/api/admin/stock/combo/body-combo",
      asAdmin({ method: "PUT", body: { stock: 0, previousStock: 40 } }),
    );
    expect(((await combo.json()) as { item: unknown }).item).toMatchObject({
      kind: "combo",
      stock: 0,
      low: true,
    });
  });
});

describe("the dashboard", () => {
  it("counts today's and this week's sales, 30 days of revenue and orders by status", async () => {
    const figures = (await (
      await shop.app.request("/api/admin/dashboard", asAdmin())
    ).json()) as DashboardFigures;
    const sales = await shop.db.select().from(orders);
    const counted = sales.filter(
      (order) => !["cancelled", "refunded", "returned", "awaiting_payment"].includes(order.status),
    );
    const revenue = counted.reduce((sum, order) => sum + order.totalPaise, 0);
    expect(figures.today).toEqual({ orders: counted.length, revenuePaise: revenue });
    expect(figures.week).toEqual(figures.today);
    expect(figures.revenueByDay).toHaveLength(30);
    expect(figures.revenueByDay.at(-1)).toMatchObject({ orders: counted.length, revenuePaise: revenue });
    expect(figures.revenueByDay.slice(0, 29).every((day) => day.orders === 0)).toBe(true);
    const byStatus = Object.fromEntries(figures.byStatus.map((entry) => [entry.status, entry.count]));
    expect(byStatus.cancelled).toBe(sales.filter((order) => order.status === "cancelled").length);
    expect(byStatus.refunded).toBe(1);
    expect(figures.lowStock).toBeGreaterThanOrEqual(2);

    // An order from 40 days ago is outside the chart.
    const [old] = sales;
    await shop.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 40 * 24 * 3_600_000) })
      .where(eq(orders.id, old?.id ?? ""));
    const later = (await (
      await shop.app.request("/api/admin/dashboard", asAdmin())
    ).json()) as DashboardFigures;
    const total = later.revenueByDay.reduce((sum, day) => sum + day.orders, 0);
    expect(total).toBe(counted.filter((order) => order.id !== old?.id).length);
  });
});
