import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateDelivery, formatEstimate } from "../../common/delivery-estimate.ts";
import type { AdminOrderDetail } from "../../common/orders.ts";
import { makeAdmin, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp } from "../../tests/database.ts";
import { waitForMail } from "../../tests/mail.ts";
import {
  placeCodOrder,
  setStock,
  signUpWithAddress,
  standAsPaidOnline,
  stockOf,
  TEST_ADDRESS,
  taxDocumentsOf,
} from "../../tests/orders.ts";
import { registerShopForGst } from "../../tests/shop-details.ts";
import { auditLog, orderLines, orders, shopDetails } from "../db/schema.ts";
import { findTaxDocument } from "../invoices/tax-documents.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
let staff: TestAccount;
let buyers = 0;
const NEW_ADDRESS = { ...TEST_ADDRESS, line1: "7, Palm Grove, 5th Main", line2: "Jayanagar", pin: "560041" };

beforeAll(async () => {
  shop = await createTestApp();
  staff = await signUpViaApp(shop.app, "desk@example.in");
  await makeAdmin(shop, staff, "staff");
});
afterAll(() => shop.close());

/** A cash-on-delivery order placed by a new shopper: 2 × Bath Powder (₹599) with GLOW20 unless told. */
async function placeOrder(
  entries = [{ itemId: "bath-powder", quantity: 2 }],
  code: string | undefined = "GLOW20",
) {
  const buyer = await signUpWithAddress(shop.app, `buyer${++buyers}@example.in`);
  const { number } = await placeCodOrder(shop, buyer, entries, code);
  return { number, buyer };
}

const editAddress = (number: string, body: unknown, as: TestAccount = staff) =>
  callApi(shop.app, "PUT", `/api/admin/orders/${number}/address`, { as, body });
const editItems = (number: string, body: unknown, as: TestAccount = staff) =>
  callApi(shop.app, "PUT", `/api/admin/orders/${number}/items`, { as, body });
const move = (number: string, status: string) =>
  callApi(shop.app, "POST", `/api/admin/orders/${number}/status`, { as: staff, body: { status } });

async function orderRow(number: string) {
  const [row] = await shop.db.select().from(orders).where(eq(orders.number, number));
  if (!row) throw new Error(number);
  return row;
}

describe("staff correct an order's address", () => {
  it("checks it as checkout does, records old → new in the history and the audit log, and tells the shopper", async () => {
    const { number, buyer } = await placeOrder();
    const customer = await editAddress(number, NEW_ADDRESS, buyer);
    expect(customer.status).toBe(403);
    for (const [body, field] of [
      [{ ...NEW_ADDRESS, pin: "600017" }, "pin"],
      [{ ...NEW_ADDRESS, phone: "12345" }, "phone"],
      [{ ...NEW_ADDRESS, line1: "" }, "line1"],
      [{ ...NEW_ADDRESS, totalPaise: 0 }, "totalPaise"],
    ] as const) {
      const { status, body: answer } = await editAddress(number, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer.error.fields?.[field]).toBeTruthy();
    }
    // Placed a few days ago: its delivery window was worked out then.
    await shop.db
      .update(orders)
      .set({ estimatedDeliveryFrom: "2026-01-05", estimatedDeliveryTo: "2026-01-09" })
      .where(eq(orders.number, number));
    // In the directory's format but not a PIN India Post lists.
    const unknown = await editAddress(number, { ...NEW_ADDRESS, pin: "569999" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.pin).toBeTruthy();

    const { status, body } = await editAddress(number, NEW_ADDRESS);
    expect(status).toBe(200);
    expect(body.result.changed).toBe(true);
    const order = body.order as AdminOrderDetail;
    expect(order.address).toMatchObject({ line1: NEW_ADDRESS.line1, pin: "560041" });
    // A new PIN: the window is worked out again from the change, as "Check delivery" gives it today.
    const estimate = estimateDelivery(new Date());
    expect(order.estimate).toEqual(estimate);
    expect(body.result.summary).toContain(`Estimated delivery now ${formatEstimate(estimate)}.`);
    const last = order.events.at(-1);
    expect(last?.kind).toBe("address");
    expect(last?.note).toContain("Delivery address changed: Meera Iyer");
    expect(last?.note).toContain("12, Lotus Apartments, 3rd Cross");
    expect(last?.note).toContain("→ Meera Iyer, 98765 43210, 7, Palm Grove, 5th Main");
    expect((last as { actorEmail?: string }).actorEmail).toBe(staff.email);
    const audits = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, number), eq(auditLog.action, "edit_address")));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.before).toMatchObject({ line1: "12, Lotus Apartments, 3rd Cross" });

    const mail = await waitForMail(shop.dataDir, {
      to: buyer.email,
      subject: new RegExp(`^Order ${number} changed$`),
    });
    expect(mail.text).toContain("7, Palm Grove, 5th Main");

    const again = await editAddress(number, NEW_ADDRESS);
    expect(again.body.result.changed).toBe(false);
  });

  it("invoices an invoiced order again when its state or items change, and is refused once it is packed (409)", async () => {
    await registerShopForGst(shop.db);
    const { number } = await placeOrder();
    expect((await move(number, "confirmed")).status).toBe(200);
    const documents = () => taxDocumentsOf(shop.db, number);
    const [first] = await documents();
    expect(first).toMatchObject({ kind: "invoice", placeOfSupply: "Karnataka" });

    // Another state: the invoice is reversed and one with Tamil Nadu's place of supply (and IGST) issued.
    const chennai = { ...NEW_ADDRESS, city: "Chennai", state: "Tamil Nadu", pin: "600017" };
    const acrossStates = await editAddress(number, chennai);
    expect(acrossStates.status).toBe(200);
    expect((await orderRow(number)).shipState).toBe("Tamil Nadu");
    const afterMove = await documents();
    expect(afterMove.map((each) => [each.kind, each.placeOfSupply])).toEqual([
      ["invoice", "Karnataka"],
      ["credit_note", "Karnataka"],
      ["invoice", "Tamil Nadu"],
    ]);
    expect(acrossStates.body.result.summary).toContain(
      `Credit note ${afterMove[1]?.number} reverses the earlier invoice; invoice ${afterMove[2]?.number} is issued`,
    );
    // Within the state, the invoice stands.
    expect((await editAddress(number, { ...chennai, line2: "T. Nagar" })).status).toBe(200);
    expect(await documents()).toHaveLength(3);

    const items = await editItems(number, {
      lines: [{ itemId: "bath-powder", kind: "product", quantity: 3 }],
    });
    expect(items.status).toBe(200);
    const afterItems = await documents();
    expect(afterItems.map((each) => each.kind)).toEqual([
      "invoice",
      "credit_note",
      "invoice",
      "credit_note",
      "invoice",
    ]);
    const standing = await findTaxDocument(shop.db, (await orderRow(number)).id, "invoice");
    expect(standing?.document.number).toBe(afterItems[4]?.number);
    expect(standing?.document.totalPaise).toBe((await orderRow(number)).totalPaise);
    const goods = standing?.lines.filter((line) => line.kind === "goods") ?? [];
    expect(goods.map((line) => [line.description, line.quantity])).toEqual([["Bath Powder", 3]]);

    expect((await move(number, "packed")).status).toBe(200);
    const packed = await editAddress(number, { ...NEW_ADDRESS, line2: "Jayanagar 4th Block" });
    expect(packed.status).toBe(409);
    expect(packed.body.error).toMatchObject({ code: "order_not_editable" });
    expect(packed.body.error.message).toContain("only before it is packed");
    await shop.db.update(shopDetails).set({ gstin: null }).where(eq(shopDetails.id, 1));
  });
});

describe("staff change an order's items", () => {
  it("moves stock by the difference and prices the order again with its code", async () => {
    await setStock(shop.db, "bath-powder", 50);
    await setStock(shop.db, "badam-mix", 50);
    const { number, buyer } = await placeOrder();
    const before = await orderRow(number);
    expect(before.totalPaise).toBe(2 * 59900 - 24000 + before.shippingPaise);
    expect(await stockOf(shop.db, "bath-powder")).toBe(48);

    for (const body of [
      { lines: [] },
      { lines: [{ itemId: "bath-powder", kind: "product", quantity: 0 }] },
      { lines: [{ itemId: "bath-powder", kind: "product", quantity: 1.5 }] },
      { lines: [{ itemId: "bath-powder", kind: "product", quantity: 2, pricePaise: 1 }] },
      {
        lines: [
          { itemId: "bath-powder", kind: "product", quantity: 1 },
          { itemId: "bath-powder", kind: "product", quantity: 2 },
        ],
      },
    ]) {
      const { status } = await editItems(number, body);
      expect(status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await editItems(number, { lines: [{ itemId: "bath-powder", kind: "product", quantity: 1 }] }, buyer))
        .status,
    ).toBe(403);
    const missing = await editItems(number, {
      lines: [{ itemId: "no-such-oil", kind: "product", quantity: 1 }],
    });
    expect(missing.status).toBe(409);
    expect(missing.body.error.code).toBe("item_unavailable");

    const { status, body } = await editItems(number, {
      lines: [
        { itemId: "bath-powder", kind: "product", quantity: 3 },
        { itemId: "badam-mix", kind: "product", quantity: 1 },
      ],
    });
    expect(status).toBe(200);
    const [badam] = await shop.db
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.itemId, "badam-mix")));
    const subtotal = 3 * 59900 + (badam?.unitPricePaise ?? 0);
    const discount = Math.round((subtotal * 20) / 100 / 100) * 100;
    const after = await orderRow(number);
    expect(after).toMatchObject({
      subtotalPaise: subtotal,
      discountCode: "GLOW20",
      discountPaise: discount,
      totalPaise: subtotal - discount + after.shippingPaise,
      hasPerishables: true,
    });
    expect(await stockOf(shop.db, "bath-powder")).toBe(47);
    expect(await stockOf(shop.db, "badam-mix")).toBe(49);
    expect(body.result.summary).toContain("Bath Powder 2 → 3");
    expect(body.result.summary).toContain("added");
    expect((body.order as AdminOrderDetail).events.at(-1)?.kind).toBe("items");
    const mail = await waitForMail(shop.dataDir, {
      to: buyer.email,
      subject: new RegExp(`^Order ${number} changed$`),
    });
    expect(mail.text).toContain("Bath Powder 2 → 3");

    // Removing a line puts its units back.
    expect(
      (await editItems(number, { lines: [{ itemId: "badam-mix", kind: "product", quantity: 1 }] })).status,
    ).toBe(200);
    expect(await stockOf(shop.db, "bath-powder")).toBe(50);
    expect(await stockOf(shop.db, "badam-mix")).toBe(49);
    const audits = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, number), eq(auditLog.action, "edit_items")));
    expect(audits).toHaveLength(2);
  });

  it("gives the last units to as many edits as there are units when many come at once", async () => {
    const placed = [];
    for (let index = 0; index < 8; index++)
      placed.push(await placeOrder([{ itemId: "bath-powder", quantity: 1 }], undefined));
    await setStock(shop.db, "bath-powder", 3);
    const answers = await Promise.all(
      placed.map(({ number }) =>
        editItems(number, { lines: [{ itemId: "bath-powder", kind: "product", quantity: 2 }] }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((answer) => answer.status === 409)) {
      expect(answer.body.error.code).toBe("out_of_stock");
    }
    expect(await stockOf(shop.db, "bath-powder")).toBe(0);
    const quantities = await Promise.all(
      placed.map(async ({ number }) => {
        const row = await orderRow(number);
        const [line] = await shop.db.select().from(orderLines).where(eq(orderLines.orderId, row.id));
        return line?.quantity;
      }),
    );
    expect(quantities.filter((quantity) => quantity === 2)).toHaveLength(3);
  });

  it("refuses a higher total on a paid online order and changes nothing when the refund cannot be made", async () => {
    await setStock(shop.db, "bath-powder", 50);
    const { number } = await placeOrder([{ itemId: "bath-powder", quantity: 2 }], undefined);
    // As a paid online order stands once Razorpay confirmed it.
    await standAsPaidOnline(shop.db, number, { paymentId: "pay_test123", status: "confirmed" });
    const before = await orderRow(number);

    const higher = await editItems(number, {
      lines: [{ itemId: "bath-powder", kind: "product", quantity: 3 }],
    });
    expect(higher.status).toBe(409);
    expect(higher.body.error.code).toBe("total_above_paid");

    const lower = await editItems(number, {
      lines: [{ itemId: "bath-powder", kind: "product", quantity: 1 }],
    });
    expect(lower.status).toBe(503);
    expect(lower.body.error.code).toBe("payment_unavailable");
    expect(await orderRow(number)).toMatchObject({
      totalPaise: before.totalPaise,
      subtotalPaise: before.subtotalPaise,
    });
    expect(await stockOf(shop.db, "bath-powder")).toBe(48);
  });
});
