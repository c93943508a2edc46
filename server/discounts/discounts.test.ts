import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PricedCart } from "../../common/cart.ts";
import { signInViaApp, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { carts, discountCodes, discountUses } from "../db/schema.ts";

const shop = setUpTestApp();

let accounts = 0;
const newAccount = () => {
  accounts += 1;
  return signUpViaApp(shop.app, `codes-${accounts}@example.in`);
};

async function call(account: TestAccount | null, method: string, path: string, body?: unknown) {
  return shop.app.request(`/api${path}`, jsonRequest({ method, body, cookie: account?.cookie }));
}

const apply = (account: TestAccount | null, body: Record<string, unknown>) =>
  call(account, "POST", "/discounts/apply", body);

async function fill(account: TestAccount, id: string, quantity: number, kind = "product") {
  await call(account, "POST", "/cart/items", { id, kind });
  if (quantity > 1) await call(account, "PUT", `/cart/items/${id}`, { quantity });
}

async function usesOf(userId: string) {
  const rows = await shop.db.select().from(discountUses).where(eq(discountUses.userId, userId));
  return rows.map((row) => row.code);
}

describe("applying a code, signed in", () => {
  it("says the spec's success message, and takes the percent off to the nearest rupee", async () => {
    const account = await newAccount();
    await fill(account, "skincare-combo", 1, "combo");
    const response = await apply(account, { code: "glow20" });
    expect(response.status).toBe(200);
    const { message, cart } = (await response.json()) as { message: string; cart: PricedCart };
    expect(message).toBe("Flat 20% off all products applied successfully!");
    expect(cart.discount).toEqual({
      code: "GLOW20",
      description: "Flat 20% off all products",
      percent: 20,
      amountOffPaise: 0,
      minAmountPaise: 0,
      amountPaise: 24000, // 20% of 1,199 = 239.80, nearest rupee 240
      shortfallPaise: 0,
      valid: true,
      problem: null,
    });
    expect(cart).toMatchObject({ subtotalPaise: 119900, discountPaise: 24000, totalPaise: 95900 });
    const [row] = await shop.db.select().from(carts).where(eq(carts.userId, account.userId));
    expect(row?.discountCode).toBe("GLOW20");
  });

  it("calls unknown and inactive codes 'Invalid discount code'", async () => {
    const account = await newAccount();
    const unknown = await apply(account, { code: "FREE100" });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toEqual({
      error: { code: "invalid_discount_code", message: "Invalid discount code" },
    });

    await shop.db.update(discountCodes).set({ active: false }).where(eq(discountCodes.code, "SAVE15"));
    try {
      const inactive = await apply(account, { code: "SAVE15" });
      expect(inactive.status).toBe(422);
      expect((await inactive.json()).error.message).toBe("Invalid discount code");
      expect(await usesOf(account.userId)).toEqual([]);
    } finally {
      await shop.db.update(discountCodes).set({ active: true }).where(eq(discountCodes.code, "SAVE15"));
    }
  });

  it("marks the code used at once: again, after removing it, or on another device, it is refused", async () => {
    const account = await newAccount();
    await fill(account, "hair-growth-serum", 2);
    expect((await apply(account, { code: "GLOW20" })).status).toBe(200);

    const again = await apply(account, { code: "GLOW20" });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: { code: "discount_already_used", message: "This discount code has already been used" },
    });

    const removed: PricedCart = await (await call(account, "DELETE", "/discounts/applied")).json();
    expect(removed.discount).toBeNull();
    expect(removed.totalPaise).toBe(90000);
    expect(await usesOf(account.userId)).toEqual(["GLOW20"]);
    expect((await apply(account, { code: "glow20" })).status).toBe(409);

    // A fresh browser with empty storage is the same account: the server remembers.
    const otherDevice = await signInViaApp(shop.app, account);
    const elsewhere = await apply(otherDevice, { code: "GLOW20" });
    expect((await elsewhere.json()).error.message).toBe("This discount code has already been used");
  });

  it("says invalid, not already used, for a used code that has since been switched off", async () => {
    const account = await newAccount();
    await apply(account, { code: "WELCOME10" });
    await shop.db.update(discountCodes).set({ active: false }).where(eq(discountCodes.code, "WELCOME10"));
    try {
      expect((await (await apply(account, { code: "WELCOME10" })).json()).error.message).toBe(
        "Invalid discount code",
      );
      // The applied code stays on the cart but takes nothing off while it is switched off.
      const cart: PricedCart = await (await call(account, "GET", "/cart")).json();
      expect(cart.discount).toMatchObject({ code: "WELCOME10", valid: false, amountPaise: 0 });
    } finally {
      await shop.db.update(discountCodes).set({ active: true }).where(eq(discountCodes.code, "WELCOME10"));
    }
  });

  it("gives nothing below the minimum and says how much more to add; applies from the minimum", async () => {
    const account = await newAccount();
    await fill(account, "badam-mix", 1); // ₹399
    const { message, cart } = (await (await apply(account, { code: "WELCOME10" })).json()) as {
      message: string;
      cart: PricedCart;
    };
    expect(message).toBe("10% off orders of ₹500 or more applied successfully!");
    expect(cart.discount).toMatchObject({ amountPaise: 0, shortfallPaise: 10100 });
    expect(cart.totalPaise).toBe(39900);

    // Two of them: ₹798, 10% is ₹79.80, nearest rupee ₹80.
    const two: PricedCart = await (
      await call(account, "PUT", "/cart/items/badam-mix", { quantity: 2 })
    ).json();
    expect(two.discount).toMatchObject({ amountPaise: 8000, shortfallPaise: 0 });
    expect(two.totalPaise).toBe(71800);
  });

  it("records exactly one use when one account applies a code 25 times at once", async () => {
    const account = await newAccount();
    await fill(account, "coconut-oil", 3);
    const responses = await Promise.all(Array.from({ length: 25 }, () => apply(account, { code: "SAVE15" })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(24);
    const messages = await Promise.all(
      responses
        .filter((response) => response.status === 409)
        .map(async (r) => (await r.json()).error.message),
    );
    expect(new Set(messages)).toEqual(new Set(["This discount code has already been used"]));
    expect(await usesOf(account.userId)).toEqual(["SAVE15"]);
  });

  it("answers an apply sent again under its Idempotency-Key as it was, not as a code already used", async () => {
    const account = await newAccount();
    await fill(account, "hair-growth-serum", 2);
    const keyed = (code: string, key: string) =>
      shop.app.request(
        "/api/discounts/apply",
        jsonRequest({
          method: "POST",
          body: { code },
          cookie: account.cookie,
          headers: { "Idempotency-Key": key },
        }),
      );
    // A refused apply leaves its key free.
    expect((await keyed("NOPE", "apply-key-0001")).status).toBe(422);
    const first = await keyed("GLOW20", "apply-key-0001");
    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBe("false");
    const firstBody = await first.json();
    // Its answer was lost: the phone sends it again, twice at once.
    const again = await Promise.all([keyed("glow20", "apply-key-0001"), keyed("GLOW20", "apply-key-0001")]);
    for (const answer of again) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await answer.json()).toEqual(firstBody);
    }
    expect(await usesOf(account.userId)).toEqual(["GLOW20"]);
    // A new tap is a new key, and the spec's refusal stands; so it does without a key.
    expect((await (await keyed("GLOW20", "apply-key-0002")).json()).error.code).toBe("discount_already_used");
    expect((await apply(account, { code: "GLOW20" })).status).toBe(409);
    // The key with another code, or one an add used, is refused.
    const reused = await keyed("SAVE15", "apply-key-0001");
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe("idempotency_key_reused");
    const added = await shop.app.request(
      "/api/cart/items",
      jsonRequest({
        method: "POST",
        body: { id: "coconut-oil", kind: "product" },
        cookie: account.cookie,
        headers: { "Idempotency-Key": "add-key-0001" },
      }),
    );
    expect(added.status).toBe(200);
    expect((await keyed("SAVE15", "add-key-0001")).status).toBe(422);
    expect((await keyed("SAVE15", "x")).status).toBe(400);
    expect(await usesOf(account.userId)).toEqual(["GLOW20"]);
  });

  it("does not take the guest's lines or used list when signed in", async () => {
    const account = await newAccount();
    const withItems = await apply(account, { code: "GLOW20", items: [] });
    expect(withItems.status).toBe(400);
    expect((await withItems.json()).error.fields).toHaveProperty("items");
    const withUsed = await apply(account, { code: "GLOW20", usedCodes: [] });
    expect((await withUsed.json()).error.fields).toHaveProperty("usedCodes");
    expect(await usesOf(account.userId)).toEqual([]);
  });

  it("refuses a body with anything but the code", async () => {
    const account = await newAccount();
    for (const extra of [{ discountPaise: 50000 }, { percent: 90 }, { totalPaise: 1 }]) {
      const response = await apply(account, { code: "GLOW20", ...extra });
      expect(response.status).toBe(400);
    }
    expect((await apply(account, { code: "" })).status).toBe(400);
    expect(await usesOf(account.userId)).toEqual([]);
  });

  it("needs a session to take a code off the cart", async () => {
    expect((await call(null, "DELETE", "/discounts/applied")).status).toBe(401);
  });
});

describe("applying a code as a guest", () => {
  const items = [
    { id: "hair-growth-oil", kind: "product", quantity: 2 },
    { id: "haircare-combo", kind: "combo", quantity: 1 },
  ];

  it("validates the code and prices the lines sent, recording nothing", async () => {
    const usesBefore = await shop.db.select().from(discountUses);
    const response = await apply(null, { code: " save15 ", items });
    expect(response.status).toBe(200);
    const { message, cart } = (await response.json()) as { message: string; cart: PricedCart };
    expect(message).toBe("15% off orders of ₹1,000 or more applied successfully!");
    // 2 × 475 + 1,299 = 2,249; 15% = 337.35 -> 337
    expect(cart).toMatchObject({ subtotalPaise: 224900, discountPaise: 33700, totalPaise: 191200 });
    expect(await shop.db.select().from(discountUses)).toEqual(usesBefore);
    // Nothing stored means a guest can ask again; the guest's used list (session store) is what refuses it.
    expect((await apply(null, { code: "SAVE15", items })).status).toBe(200);
  });

  it("refuses a code in the guest's used list, and checks invalid first", async () => {
    const used = await apply(null, { code: "GLOW20", items, usedCodes: ["glow20"] });
    expect(used.status).toBe(409);
    expect((await used.json()).error.message).toBe("This discount code has already been used");

    const unknown = await apply(null, { code: "NOPE", items, usedCodes: ["NOPE"] });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error.message).toBe("Invalid discount code");
  });

  it("needs the lines to price", async () => {
    const response = await apply(null, { code: "GLOW20" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toHaveProperty("items");
  });

  it("says how much more a guest must add below the minimum", async () => {
    const { cart } = (await (
      await apply(null, { code: "SAVE15", items: [{ id: "protein-mix", kind: "product", quantity: 2 }] })
    ).json()) as { cart: PricedCart };
    expect(cart.discount).toMatchObject({ amountPaise: 0, shortfallPaise: 10000 });
  });
});
