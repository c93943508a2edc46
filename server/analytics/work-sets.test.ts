import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { placeMovedCodOrder, saveAddress } from "../../tests/orders.ts";
import { registerShopForGst } from "../../tests/shop-details.ts";
import { codRemittances, orders, taxDocuments } from "../db/schema.ts";

/**
 * The invoices not issued and the cash still expected (orders_awaiting_invoice and cod_cash_awaited,
 * docs/decisions/097) are exact: after orders placed, confirmed without and with the shop's GST details,
 * issued their missed invoices, cancelled, delivered, their cash recorded and taken back, through the shop's
 * own routes (and a few changes straight in the tables), each set holds exactly the orders its rule gives when
 * read from every order.
 */
const shop = setUpTestApp();
let owner: TestAccount;
let staff: TestAccount;
let customer: TestAccount;
let addressId: string;
const api = apiCaller(shop, () => owner);

const place = (statuses: string[]) =>
  placeMovedCodOrder(shop, { shopper: customer, addressId, itemId: "coconut-oil", staff, statuses });

const move = async (number: string, status: string, extra: Record<string, string> = {}) => {
  const answer = await api("POST", `/admin/orders/${number}/status`, { status, ...extra }, staff);
  expect(answer.status, `${number} → ${status}: ${JSON.stringify(answer.body)}`).toBe(200);
};

/** Each set as kept, and the same set read from every order by its rule. */
async function keptAndRead() {
  const sets = await shop.db.execute<{ set: string; kept: string[]; read: string[] }>(sql`
    select 'invoice' as set,
      coalesce((select array_agg(order_id order by order_id) from orders_awaiting_invoice), '{}') as kept,
      coalesce((select array_agg(o.id order by o.id) from orders o
        where o.status in ('confirmed', 'packed', 'shipped', 'delivered', 'return_requested')
          and not exists (select 1 from tax_documents d where d.order_id = o.id and d.kind = 'invoice')), '{}')
        as read
    union all
    select 'cash',
      coalesce((select array_agg(order_id || ' ' || delivered_at::text || ' ' || total_paise
        order by order_id) from cod_cash_awaited), '{}'),
      coalesce((select array_agg(o.id || ' ' || o.delivered_at::text || ' ' || o.total_paise order by o.id)
        from orders o where o.payment_method = 'cod' and o.delivered_at is not null
          and not exists (select 1 from cod_remittances r where r.order_id = o.id)), '{}')`);
  return Object.fromEntries(sets.rows.map((row) => [row.set, { kept: row.kept, read: row.read }]));
}

async function expectExact() {
  const sets = await keptAndRead();
  expect(sets.invoice?.kept).toEqual(sets.invoice?.read);
  expect(sets.cash?.kept).toEqual(sets.cash?.read);
  return { invoices: sets.invoice?.read.length ?? 0, cash: sets.cash?.read.length ?? 0 };
}

const idOf = async (number: string) => {
  const [row] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  return row?.id as string;
};

beforeAll(async () => {
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "work-sets"));
  addressId = await saveAddress(shop.app, customer.cookie);
}, 60_000);

describe("the invoices not issued and the cash still expected, kept by triggers", () => {
  it("hold exactly the orders their rules give, through the shop's changes", async () => {
    // Confirmed while the shop has no GSTIN: no invoice, so each is due one.
    const [kept, cancelled, shipped, delivered] = [
      await place(["confirmed"]),
      await place(["confirmed"]),
      await place(["confirmed", "packed"]),
      await place(["confirmed", "packed"]),
    ] as [string, string, string, string];
    const waiting = await place([]);
    expect(await expectExact()).toEqual({ invoices: 4, cash: 0 });

    await move(cancelled, "cancelled");
    await move(shipped, "shipped", { courier: "Delhivery", trackingNumber: "DLV-7770001" });
    await move(delivered, "shipped", { courier: "Delhivery", trackingNumber: "DLV-7770002" });
    await move(delivered, "delivered");
    expect(await expectExact()).toEqual({ invoices: 3, cash: 1 });
    const work = await api("GET", "/admin/analytics/work");
    const cashItem = (work.body.items as { key: string; count: number }[]).find(
      (item) => item.key === "cashExpected",
    );
    expect(cashItem?.count).toBe(1);
    const listed = await api("GET", "/admin/missed-invoices");
    expect(listed.body.total).toBe(3);
    expect((listed.body.orders as { number: string }[]).map((order) => order.number).sort()).toEqual(
      [kept, shipped, delivered].sort(),
    );

    // The owner saves the GST details and issues one missed invoice, then confirms another order (invoiced
    // with its confirmation).
    await registerShopForGst(shop.db);
    const issued = await api("POST", "/admin/missed-invoices/issue", { orders: [kept] });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    await move(waiting, "confirmed");
    expect(await expectExact()).toEqual({ invoices: 2, cash: 1 });

    // The cash recorded by hand, then the remittance taken away again (straight in the table).
    const [order] = await shop.db
      .select({ total: orders.totalPaise })
      .from(orders)
      .where(eq(orders.number, delivered));
    const cash = await api(
      "POST",
      `/admin/cod/orders/${delivered}/cash`,
      { amountPaise: order?.total, collectedOn: "2026-01-02", reference: "UTR-555001" },
      staff,
    );
    expect(cash.status, JSON.stringify(cash.body)).toBe(201);
    expect(await expectExact()).toEqual({ invoices: 2, cash: 0 });
    await shop.db.delete(codRemittances).where(eq(codRemittances.orderId, await idOf(delivered)));
    expect(await expectExact()).toEqual({ invoices: 2, cash: 1 });

    // Changes straight in the tables: a delivery date and a total moved, an order back to placed, an invoice
    // deleted, a payment method changed.
    await shop.db
      .update(orders)
      .set({ deliveredAt: new Date(Date.now() - 12 * 86_400_000) })
      .where(eq(orders.number, delivered));
    expect(await expectExact()).toEqual({ invoices: 2, cash: 1 });
    await shop.db.update(orders).set({ status: "placed" }).where(eq(orders.number, shipped));
    expect(await expectExact()).toEqual({ invoices: 1, cash: 1 });
    await shop.db.delete(taxDocuments).where(eq(taxDocuments.orderId, await idOf(kept)));
    expect(await expectExact()).toEqual({ invoices: 2, cash: 1 });
    await shop.db.transaction(async (tx) => {
      await tx.update(orders).set({ paymentMethod: "razorpay" }).where(eq(orders.number, delivered));
      await tx.update(orders).set({ paymentMethod: "cod" }).where(eq(orders.number, delivered));
    });
    expect(await expectExact()).toEqual({ invoices: 2, cash: 1 });
    await shop.db.update(orders).set({ deliveredAt: null }).where(eq(orders.number, delivered));
    expect(await expectExact()).toEqual({ invoices: 2, cash: 0 });
  }, 180_000);
});
