import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminDiscountCode, AdminDiscountCodePage } from "../../common/schemas/discount-codes.ts";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, setUpTestApp } from "../../tests/database.ts";
import { placeOrderRequest, putInCart, saveAddress, setStock } from "../../tests/orders.ts";
import { discountCodes, orders } from "../db/schema.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let customer: TestAccount;
let accounts = 0;
beforeAll(async () => {
  owner = await signUpWithRole(shop, "owner@example.in", "owner");
  customer = await signUpViaApp(shop.app, "codes-customer@example.in");
});

const api = apiCaller(shop, () => owner);

const create = (body: Record<string, unknown>) => api("POST", "/admin/discount-codes", body);

async function stored(code: string) {
  const [row] = await shop.db.select().from(discountCodes).where(eq(discountCodes.code, code));
  return row;
}

async function shopperWithCart(slug = "bath-powder") {
  const account = await signUpViaApp(shop.app, `code-shopper-${++accounts}@example.in`);
  await putInCart(shop.db, account.userId, [{ itemId: slug }]);
  return account;
}

const IST_HOUR = 60 * 60 * 1000;
const inIndia = (offsetMs: number) =>
  new Date(Date.now() + offsetMs + 5.5 * IST_HOUR).toISOString().replace("Z", "+05:30");

describe("/api/admin/discount-codes: who may", () => {
  it("answers 401 signed out and 403 to a customer, on every route, and writes nothing", async () => {
    const attempts: [string, string, unknown?][] = [
      ["GET", "/admin/discount-codes"],
      ["GET", "/admin/discount-codes/GLOW20"],
      ["POST", "/admin/discount-codes", { code: "SNEAKY", description: "Sneaky code", percent: 50 }],
      ["PATCH", "/admin/discount-codes/GLOW20", { percent: 90 }],
    ];
    for (const [method, path, body] of attempts) {
      const signedOut = await api(method, path, body, null);
      expect(signedOut.status, `${method} ${path}`).toBe(401);
      const forbidden = await api(method, path, body, customer);
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      expect(forbidden.body.error.code).toBe("forbidden");
    }
    expect(await stored("SNEAKY")).toBeUndefined();
    expect((await stored("GLOW20"))?.percent).toBe(20);
  });
});

describe("creating and listing codes", () => {
  it("creates a percent code upper-cased, with its window in India time stored as an instant", async () => {
    const { status, body } = await create({
      code: "diwali25",
      description: "25% off for Diwali",
      percent: 25,
      minAmountPaise: 50000,
      startsAt: "2026-10-20T00:00:00+05:30",
      endsAt: "2026-11-02T23:59:00+05:30",
      maxUses: 500,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      code: "DIWALI25",
      percent: 25,
      amountOffPaise: 0,
      minAmountPaise: 50000,
      startsAt: "2026-10-19T18:30:00.000Z",
      endsAt: "2026-11-02T18:29:00.000Z",
      maxUses: 500,
      timesUsed: 0,
      active: true,
    });
    const opened = await api("GET", "/admin/discount-codes/diwali25");
    expect(opened.body).toEqual(body);
  });

  it("pages newest first by keyset, every code once", async () => {
    for (const code of ["PAGEA", "PAGEB", "PAGEC"]) {
      expect((await create({ code, description: `Code ${code}`, amountOffPaise: 5000 })).status).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
      const page = await api("GET", `/admin/discount-codes${query}`);
      expect(page.status).toBe(200);
      const body = page.body as AdminDiscountCodePage;
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items.map((item) => item.code));
      cursor = body.nextCursor;
    } while (cursor);
    const all = await shop.db.select({ code: discountCodes.code }).from(discountCodes);
    expect(seen.toSorted()).toEqual(all.map((row) => row.code).toSorted());
    expect(seen.indexOf("PAGEC")).toBeLessThan(seen.indexOf("PAGEA"));
    expect((await api("GET", "/admin/discount-codes?cursor=nonsense")).status).toBe(400);
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const base = { code: "BADONE", description: "A bad code" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, percent: 95 }, "percent"],
      [{ ...base, percent: 0 }, "percent"],
      [{ ...base, percent: 12.5 }, "percent"],
      [{ ...base }, "percent"],
      [{ ...base, amountOffPaise: -10000 }, "amountOffPaise"],
      [{ ...base, amountOffPaise: 10050 }, "amountOffPaise"],
      [{ ...base, amountOffPaise: 100.5 }, "amountOffPaise"],
      [{ ...base, percent: 10, amountOffPaise: 10000 }, "amountOffPaise"],
      [{ ...base, percent: 10, minAmountPaise: -100 }, "minAmountPaise"],
      [
        { ...base, percent: 10, startsAt: "2026-12-10T10:00:00+05:30", endsAt: "2026-12-01T10:00:00+05:30" },
        "endsAt",
      ],
      [{ ...base, percent: 10, startsAt: "next tuesday" }, "startsAt"],
      [{ ...base, percent: 10, maxUses: 0 }, "maxUses"],
      [{ ...base, percent: 10, code: "no spaces!" }, "code"],
      [{ ...base, percent: 10, timesUsed: 5 }, "timesUsed"],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.fields, JSON.stringify(body)).toHaveProperty(field);
      expect(response.body.error.message).toContain(field);
    }
    expect(await stored("BADONE")).toBeUndefined();
  });

  it("refuses a code that exists (in any case) with a 409 naming the field, and keeps the stored one", async () => {
    const { status, body } = await create({ code: "glow20", description: "Overwrite attempt", percent: 90 });
    expect(status).toBe(409);
    expect(body.error.fields).toHaveProperty("code");
    expect(await stored("GLOW20")).toMatchObject({ percent: 20, description: "Flat 20% off all products" });
  });
});

describe("changing codes and what shoppers see", () => {
  it("switches a code off and on: off, it is the spec's invalid code", async () => {
    await create({ code: "PAUSE10", description: "10% off, pausable", percent: 10 });
    expect((await api("PATCH", "/admin/discount-codes/PAUSE10", { active: false })).body.active).toBe(false);
    const shopper = await shopperWithCart();
    const refused = await api("POST", "/discounts/apply", { code: "pause10" }, shopper);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe("Invalid discount code");
    await api("PATCH", "/admin/discount-codes/PAUSE10", { active: true });
    expect((await api("POST", "/discounts/apply", { code: "pause10" }, shopper)).status).toBe(200);
  });

  it("refuses a code before its start and after its end, with its own message", async () => {
    await create({
      code: "LATER",
      description: "Starts tomorrow",
      percent: 10,
      startsAt: inIndia(24 * IST_HOUR),
    });
    await create({
      code: "GONE",
      description: "Ended an hour ago",
      percent: 10,
      startsAt: inIndia(-48 * IST_HOUR),
      endsAt: inIndia(-IST_HOUR),
    });
    const shopper = await shopperWithCart();
    const later = await api("POST", "/discounts/apply", { code: "later" }, shopper);
    expect(later.status).toBe(422);
    expect(later.body.error.message).toBe("This code is not active yet");
    const gone = await api("POST", "/discounts/apply", { code: "gone" }, shopper);
    expect(gone.status).toBe(422);
    expect(gone.body.error.message).toBe("This code has expired");
    const guest = await api(
      "POST",
      "/discounts/apply",
      { code: "gone", items: [{ id: "bath-powder", kind: "product", quantity: 1 }] },
      null,
    );
    expect(guest.body.error.message).toBe("This code has expired");
  });

  it("an order placed after the code ended is refused, the cart keeps its lines", async () => {
    await create({ code: "ENDING", description: "Ends soon", percent: 10 });
    const shopper = await shopperWithCart();
    const addressId = await saveAddress(shop.app, shopper.cookie);
    expect((await api("POST", "/discounts/apply", { code: "ending" }, shopper)).status).toBe(200);
    await shop.db
      .update(discountCodes)
      .set({ startsAt: new Date(Date.now() - 2 * IST_HOUR), endsAt: new Date(Date.now() - IST_HOUR) })
      .where(eq(discountCodes.code, "ENDING"));
    const cart = await api("GET", "/cart", undefined, shopper);
    expect(cart.body.discount).toMatchObject({ code: "ENDING", valid: false, amountPaise: 0 });
    const response = await placeOrderRequest(
      shop.app,
      shopper.cookie,
      { addressId, paymentMethod: "cod" },
      randomUUID(),
    );
    expect(response.status).toBe(409);
    expect((await response.json()).error.message).toContain("This code has expired");
  });

  it("takes a flat amount off, only at the minimum, never more than the subtotal", async () => {
    // One bath powder is ₹599.
    await create({
      code: "FLAT100",
      description: "₹100 off orders of ₹1,000 or more",
      amountOffPaise: 10000,
      minAmountPaise: 100000,
    });
    await create({ code: "FLAT1000", description: "₹1,000 off", amountOffPaise: 100000 });
    const shopper = await shopperWithCart("bath-powder");
    const below = await api("POST", "/discounts/apply", { code: "flat100" }, shopper);
    expect(below.status).toBe(200);
    expect(below.body.cart).toMatchObject({ subtotalPaise: 59900, discountPaise: 0 });
    expect(below.body.cart.discount).toMatchObject({ amountOffPaise: 10000, shortfallPaise: 40100 });
    const guest = (code: string, quantity: number) =>
      api(
        "POST",
        "/discounts/apply",
        { code, items: [{ id: "bath-powder", kind: "product", quantity }] },
        null,
      );
    expect((await guest("FLAT100", 2)).body.cart).toMatchObject({
      subtotalPaise: 119800,
      discountPaise: 10000,
    });
    expect((await guest("FLAT1000", 1)).body.cart).toMatchObject({
      subtotalPaise: 59900,
      discountPaise: 59900,
      totalPaise: 0,
    });
  });

  it("edits keep the window whole and the total above the uses spent", async () => {
    await create({
      code: "EDITME",
      description: "Editable",
      percent: 10,
      startsAt: "2026-12-01T10:00:00+05:30",
    });
    const early = await api("PATCH", "/admin/discount-codes/EDITME", { endsAt: "2026-11-30T10:00:00+05:30" });
    expect(early.status).toBe(400);
    expect(early.body.error.fields).toHaveProperty("endsAt");
    await shop.db.update(discountCodes).set({ timesUsed: 3 }).where(eq(discountCodes.code, "EDITME"));
    const low = await api("PATCH", "/admin/discount-codes/EDITME", { maxUses: 2 });
    expect(low.status).toBe(400);
    expect(low.body.error.fields).toHaveProperty("maxUses");
    const flat = await api("PATCH", "/admin/discount-codes/EDITME", { amountOffPaise: 5000, maxUses: 3 });
    expect(flat.status).toBe(200);
    expect(flat.body).toMatchObject({ percent: 0, amountOffPaise: 5000, maxUses: 3, timesUsed: 3 });
    expect((await api("PATCH", "/admin/discount-codes/EDITME", { code: "RENAMED" })).status).toBe(400);
    expect((await api("PATCH", "/admin/discount-codes/NOSUCH", { active: false })).status).toBe(404);
    const row = (await api("GET", "/admin/discount-codes/EDITME")).body as AdminDiscountCode;
    expect(row.startsAt).toBe("2026-12-01T04:30:00.000Z");
  });
});

describe("a total limit under load", () => {
  it("50 shoppers applying and ordering at once with 10 uses left: exactly 10 orders carry the code", async () => {
    await create({ code: "RUSH", description: "The first ten", percent: 10, maxUses: 15 });
    await shop.db.update(discountCodes).set({ timesUsed: 5 }).where(eq(discountCodes.code, "RUSH"));
    await setStock(shop.db, "bath-powder", 1000);
    const shoppers = [];
    for (let i = 0; i < 50; i++) {
      const account = await shopperWithCart();
      shoppers.push({ ...account, addressId: await saveAddress(shop.app, account.cookie) });
    }
    const outcomes = await Promise.all(
      shoppers.map(async (shopper) => {
        const applied = await api("POST", "/discounts/apply", { code: "rush" }, shopper);
        if (applied.status !== 200)
          return { stage: "apply", status: applied.status, message: applied.body.error.message };
        const response = await placeOrderRequest(
          shop.app,
          shopper.cookie,
          { addressId: shopper.addressId, paymentMethod: "cod" },
          randomUUID(),
        );
        const body = await response.json();
        return {
          stage: "order",
          status: response.status,
          message: body.error?.message as string | undefined,
        };
      }),
    );
    const placed = outcomes.filter((outcome) => outcome.stage === "order" && outcome.status === 201);
    expect(placed).toHaveLength(10);
    for (const refused of outcomes.filter(
      (outcome) => !(outcome.stage === "order" && outcome.status === 201),
    )) {
      expect(refused.status).toBe(409);
      expect(refused.message).toContain("This code has reached its limit");
    }
    const withCode = await shop.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.discountCode, "RUSH"));
    expect(withCode).toHaveLength(10);
    expect(await stored("RUSH")).toMatchObject({ timesUsed: 15, maxUses: 15 });
  }, 120_000);
});
