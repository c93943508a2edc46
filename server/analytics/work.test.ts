import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { WorkKey, WorkToDo } from "../../common/analytics.ts";
import { signUpOwnerStaffAndCustomer, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { placeMovedCodOrder, saveAddress } from "../../tests/orders.ts";
import {
  codRemittances,
  contactMessages,
  orderRto,
  orders,
  questions,
  reviews,
  shipments,
} from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let staff: TestAccount;
let customer: TestAccount;
const api = apiCaller(shop, () => owner);

const DAY = 24 * 3600 * 1000;

/** Orders of `customer`'s, placed through the API and moved by staff through `statuses`: their numbers. */
async function place(count: number, statuses: string[], addressId: string) {
  const numbers: string[] = [];
  for (let index = 0; index < count; index++) {
    numbers.push(
      await placeMovedCodOrder(shop, {
        shopper: customer,
        addressId,
        itemId: "coconut-oil",
        staff,
        statuses,
      }),
    );
  }
  return numbers;
}

const idOf = async (number: string) => {
  const [row] = await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.number, number));
  return row?.id as string;
};

/** Moves orders along as a courier would have: shipped, delivered (that long ago) or on its way back. */
async function setShipped(numbers: string[], set: Partial<typeof orders.$inferInsert>) {
  await shop.db
    .update(orders)
    .set({ shippedAt: new Date(Date.now() - 20 * DAY), ...set })
    .where(inArray(orders.number, numbers));
}

async function addParcel(number: string, parcel: Partial<typeof shipments.$inferInsert>) {
  await shop.db.insert(shipments).values({
    id: `parcel-${number}`,
    orderId: await idOf(number),
    service: "Shiprocket",
    status: "in_transit",
    awb: `AWB${number.replace(/\D/g, "")}`,
    weightGrams: 500,
    ...parcel,
  });
}

async function addRto(number: string, receivedAt: Date | null = null) {
  await shop.db.insert(orderRto).values({
    orderId: await idOf(number),
    source: "tracking",
    forwardPaise: 6000,
    returnPaise: 6000,
    recordedAt: new Date(),
    receivedAt,
  });
}

const countsOf = (work: WorkToDo) =>
  Object.fromEntries(work.items.map((item) => [item.key, item.count])) as Record<WorkKey, number>;
const amountOf = (work: WorkToDo, key: WorkKey) => work.items.find((item) => item.key === key)?.amountPaise;

beforeAll(async () => {
  ({ owner, staff, customer } = await signUpOwnerStaffAndCustomer(shop, "work"));
  const addressId = await saveAddress(shop.app, customer.cookie);
  await place(1, [], addressId); // waits for the shopper's confirmation
  await place(2, ["confirmed"], addressId); // to pack
  const packed = await place(4, ["confirmed", "packed"], addressId);
  // Two of the packed orders have a parcel booked: one on its way, one cancelled (so the order is to book again).
  const [, , bookedA, bookedB] = packed as [string, string, string, string];
  await addParcel(bookedA, {});
  await addParcel(bookedB, { status: "cancelled", awb: null });

  const delivered = await place(6, ["confirmed", "packed"], addressId);
  const [failed, answered, backOnWay, backHere, backReceived, answerRefused] = delivered as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  await setShipped([failed, answered, answerRefused], { status: "shipped" });
  await addParcel(failed, { status: "undelivered", ndrState: "open", ndrReason: "Customer not available" });
  await addParcel(answered, { status: "undelivered", ndrState: "reattempt_requested" });
  // The shopper answered but the courier's aggregator refused it: the owner passes it on (decision 082).
  await addParcel(answerRefused, {
    status: "undelivered",
    ndrState: "reattempt_requested",
    requestDay: "2026-01-02",
    requestedAt: new Date(),
    requestOutcome: "refused",
  });
  await setShipped([backOnWay, backHere, backReceived], { status: "returned_to_origin" });
  await addParcel(backOnWay, { status: "rto_initiated" });
  await addParcel(backHere, { status: "rto_delivered" });
  await addParcel(backReceived, { status: "rto_delivered", receivedBackAt: new Date() });
  await addRto(backOnWay);
  await addRto(backHere);
  await addRto(backReceived, new Date());

  // Cash: three delivered COD orders, one of them delivered 12 days ago (overdue), one already collected.
  const cash = await place(3, ["confirmed", "packed"], addressId);
  const [recent, old, collected] = cash as [string, string, string];
  await setShipped([recent, collected], { status: "delivered", deliveredAt: new Date(Date.now() - 2 * DAY) });
  await setShipped([old], { status: "delivered", deliveredAt: new Date(Date.now() - 12 * DAY) });
  const [collectedOrder] = await shop.db
    .select({ id: orders.id, total: orders.totalPaise })
    .from(orders)
    .where(eq(orders.number, collected));
  await shop.db.insert(codRemittances).values({
    orderId: collectedOrder?.id as string,
    amountPaise: collectedOrder?.total as number,
    collectedOn: "2026-01-02",
    reference: "UTR123",
    source: "manual",
  });

  await shop.db.insert(questions).values([
    { productSlug: "coconut-oil", body: "Is this oil cold pressed?" },
    { productSlug: "coconut-oil", body: "Can children use this oil?" },
    {
      productSlug: "coconut-oil",
      body: "Answered already, thank you",
      answer: "Yes",
      answeredAt: new Date(),
    },
    { productSlug: "coconut-oil", body: "A hidden question here", hidden: true },
  ]);
  await shop.db.insert(reviews).values([
    { productSlug: "coconut-oil", rating: 5, title: "Lovely", body: "Lovely oil, my hair feels softer." },
    {
      productSlug: "coconut-oil",
      rating: 4,
      title: "Good",
      body: "Good oil, a little sticky in winter.",
      status: "approved",
    },
  ]);
  await shop.db.insert(contactMessages).values([
    { name: "Asha", email: "asha@example.in", message: "Where is my parcel?" },
    { name: "Ravi", email: "ravi@example.in", message: "Thanks!", readAt: new Date() },
    { name: "Uma", email: "uma@example.in", message: "Do you ship to Leh?" },
    { name: "Kiran", email: "kiran@example.in", message: "Bulk order?" },
  ]);
}, 120_000);

describe("today's work on the admin home", () => {
  it("counts each kind of work by the rule of the list it links to", async () => {
    const { status, body } = await api("GET", "/admin/analytics/work");
    expect(status).toBe(200);
    expect(countsOf(body)).toEqual({
      toConfirm: 1,
      toPack: 2,
      toBook: 3, // four packed, one with a live parcel; the cancelled parcel's order is to book again
      failedDeliveries: 2, // the answered one waits for the courier, not for the shop; the refused one does
      comingBack: 1,
      toReceive: 1,
      cashExpected: 2,
      cashOverdue: 1,
      questions: 2,
      reviews: 1,
      messages: 3,
    });
    const [each] = await shop.db.select({ total: orders.totalPaise }).from(orders).limit(1);
    expect(amountOf(body, "cashExpected")).toBe(2 * (each?.total as number));
    expect(amountOf(body, "cashOverdue")).toBe(each?.total);
    expect(body.codOverdueDays).toBe(10);
  });

  it("moves when the work is done: a confirmed order leaves To confirm and joins To pack", async () => {
    const [waiting] = await shop.db
      .select({ number: orders.number })
      .from(orders)
      .where(eq(orders.status, "placed"));
    const moved = await api("POST", `/admin/orders/${waiting?.number}/status`, {
      status: "confirmed",
    });
    expect(moved.status).toBe(200);
    const { body } = await api("GET", "/admin/analytics/work");
    expect(countsOf(body)).toMatchObject({ toConfirm: 0, toPack: 3 });
  });

  it("is for admins only, and staff see it as the owner does", async () => {
    expect((await api("GET", "/admin/analytics/work", undefined, null)).status).toBe(401);
    expect((await api("GET", "/admin/analytics/work", undefined, customer)).status).toBe(403);
    const asStaff = await api("GET", "/admin/analytics/work", undefined, staff);
    expect(asStaff.status).toBe(200);
    expect(countsOf(asStaff.body).messages).toBe(3);
  });
});
