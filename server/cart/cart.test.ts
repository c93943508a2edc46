import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PricedCart } from "../../common/cart.ts";
import { signInViaApp, signUpViaApp, type TestAccount } from "../../tests/accounts.ts";
import {
  interceptStatements,
  jsonRequest,
  setUpTestApp,
  startSecondInstance,
  terminateBackend,
} from "../../tests/database.ts";
import { placeOrderRequest, saveAddress, TEST_ADDRESS } from "../../tests/orders.ts";
import { createApp } from "../app.ts";
import { cartItems, combos, discountUses, products } from "../db/schema.ts";
import { createDeps } from "../deps.ts";
import { parseEnv } from "../env.ts";
import { priceCart } from "./cart.data.ts";

const shop = setUpTestApp();

let accounts = 0;
const newAccount = () => {
  accounts += 1;
  return signUpViaApp(shop.app, `cart-${accounts}@example.in`);
};
const secondDevice = (account: TestAccount) => signInViaApp(shop.app, account);

function call(
  account: TestAccount | null,
  method: string,
  path: string,
  body?: unknown,
  app: Hono = shop.app,
): Promise<Response> {
  return Promise.resolve(app.request(`/api${path}`, jsonRequest({ method, body, cookie: account?.cookie })));
}

async function cartOf(account: TestAccount): Promise<PricedCart> {
  const response = await call(account, "GET", "/cart");
  expect(response.status).toBe(200);
  return response.json();
}

const add = (account: TestAccount, id: string, kind: "product" | "combo" = "product", app?: Hono) =>
  call(account, "POST", "/cart/items", { id, kind }, app);

/** A merge as the browser sends it: under a new id unless the test gives one. */
const merge = (account: TestAccount, body: object) =>
  call(account, "POST", "/cart/merge", { mergeId: randomUUID(), ...body });

const quantities = (cart: PricedCart) =>
  Object.fromEntries(cart.lines.map((line) => [line.id, line.quantity]));

describe("the signed-in cart", () => {
  it("is only for signed-in shoppers; the version endpoint says who is signed in", async () => {
    expect((await call(null, "GET", "/cart")).status).toBe(401);
    expect((await call(null, "POST", "/cart/items", { id: "coconut-oil", kind: "product" })).status).toBe(
      401,
    );
    expect(await (await call(null, "GET", "/cart/version")).json()).toEqual({ userId: null, version: 0 });

    const account = await newAccount();
    expect(await (await call(account, "GET", "/cart/version")).json()).toEqual({
      userId: account.userId,
      version: 0,
    });
    expect(await cartOf(account)).toMatchObject({ lines: [], itemCount: 0, totalPaise: 0, version: 0 });
  });

  it("adds a new item at 1 and raises an existing one by 1, at catalogue prices", async () => {
    const account = await newAccount();
    expect((await add(account, "face-glow-oil")).status).toBe(200);
    const response = await add(account, "face-glow-oil");
    const cart: PricedCart = await response.json();
    expect(cart.lines).toEqual([
      expect.objectContaining({
        id: "face-glow-oil",
        kind: "product",
        name: "Face Glow Oil",
        href: "/product/face-glow-oil",
        quantity: 2,
        unitPricePaise: 49900,
        lineTotalPaise: 99800,
        priceChanged: false,
        availability: "available",
      }),
    ]);
    expect(cart.lines[0]?.image?.small).toBe("/images/catalogue/face-glow-oil-1-400.webp");
    expect(cart).toMatchObject({
      itemCount: 2,
      subtotalPaise: 99800,
      totalPaise: 99800,
      checkoutBlocker: null,
    });
    expect(cart.version).toBeGreaterThan(0);
  });

  it("adds a combo as one line at its sale price, under the combo's id", async () => {
    const account = await newAccount();
    await add(account, "coconut-oil");
    const cart: PricedCart = await (await add(account, "skincare-combo", "combo")).json();
    expect(cart.lines.map((line) => line.id)).toEqual(["coconut-oil", "skincare-combo"]);
    expect(cart.lines[1]).toMatchObject({
      kind: "combo",
      name: "Glow Skincare Combo",
      href: "/combo/skincare-combo",
      quantity: 1,
      unitPricePaise: 119900,
    });
    expect(cart.subtotalPaise).toBe(35000 + 119900);
  });

  it("refuses items the shop does not sell or has none of", async () => {
    const account = await newAccount();
    const unknown = await add(account, "lipstick");
    expect(unknown.status).toBe(404);
    expect((await add(account, "face-glow-oil", "combo")).status).toBe(404);

    await shop.db.update(products).set({ stock: 0 }).where(eq(products.slug, "wax-powder"));
    const soldOut = await add(account, "wax-powder");
    expect(soldOut.status).toBe(409);
    expect(await soldOut.json()).toEqual({
      error: { code: "out_of_stock", message: "Wax Powder is out of stock." },
    });
    await shop.db.update(products).set({ stock: 100 }).where(eq(products.slug, "wax-powder"));
    expect((await cartOf(account)).lines).toEqual([]);
  });

  it("changes quantities from 1 to 99, removes at 0, and refuses anything else", async () => {
    const account = await newAccount();
    await add(account, "moringa-powder");
    await add(account, "protein-mix");

    const five: PricedCart = await (
      await call(account, "PUT", "/cart/items/moringa-powder", { quantity: 5 })
    ).json();
    expect(quantities(five)).toEqual({ "moringa-powder": 5, "protein-mix": 1 });
    expect(five.itemCount).toBe(6);

    for (const quantity of [100, -1, 2.5, "3"]) {
      const bad = await call(account, "PUT", "/cart/items/moringa-powder", { quantity });
      expect(bad.status, String(quantity)).toBe(400);
      expect((await bad.json()).error.fields).toHaveProperty("quantity");
    }
    expect((await call(account, "PUT", "/cart/items/sathu-maavu", { quantity: 2 })).status).toBe(404);

    const removed: PricedCart = await (
      await call(account, "PUT", "/cart/items/moringa-powder", { quantity: 0 })
    ).json();
    expect(quantities(removed)).toEqual({ "protein-mix": 1 });
  });

  it("stops at 99 of one item", async () => {
    const account = await newAccount();
    await add(account, "abc-malt");
    await call(account, "PUT", "/cart/items/abc-malt", { quantity: 99 });
    const limit = await add(account, "abc-malt");
    expect(limit.status).toBe(409);
    expect((await limit.json()).error.code).toBe("quantity_limit");
    expect(quantities(await cartOf(account))).toEqual({ "abc-malt": 99 });
  });

  it("adds the product page's chosen quantity at once, capped at 99", async () => {
    const account = await newAccount();
    await call(account, "POST", "/cart/items", { id: "coconut-oil", kind: "product", quantity: 3 });
    await call(account, "POST", "/cart/items", { id: "coconut-oil", kind: "product", quantity: 4 });
    expect(quantities(await cartOf(account))).toEqual({ "coconut-oil": 7 });
    await call(account, "POST", "/cart/items", { id: "coconut-oil", kind: "product", quantity: 95 });
    expect(quantities(await cartOf(account))).toEqual({ "coconut-oil": 99 });
    const tooMany = await call(account, "POST", "/cart/items", {
      id: "bath-powder",
      kind: "product",
      quantity: 100,
    });
    expect(tooMany.status).toBe(400);
  });

  it("removes a line and clears the cart", async () => {
    const account = await newAccount();
    await add(account, "bath-powder");
    await add(account, "coconut-oil");
    const afterRemove: PricedCart = await (await call(account, "DELETE", "/cart/items/bath-powder")).json();
    expect(quantities(afterRemove)).toEqual({ "coconut-oil": 1 });
    // Removing what another device already removed is fine.
    expect((await call(account, "DELETE", "/cart/items/bath-powder")).status).toBe(200);

    const cleared: PricedCart = await (await call(account, "DELETE", "/cart/items")).json();
    expect(cleared).toMatchObject({ lines: [], itemCount: 0, subtotalPaise: 0 });
  });

  it("shows the current price of an item whose price changed, and that it changed", async () => {
    const account = await newAccount();
    await add(account, "hair-growth-oil");
    await shop.db.update(products).set({ pricePaise: 52500 }).where(eq(products.slug, "hair-growth-oil"));
    try {
      const cart = await cartOf(account);
      expect(cart.lines[0]).toMatchObject({
        unitPricePaise: 52500,
        addedPricePaise: 47500,
        priceChanged: true,
        lineTotalPaise: 52500,
      });
      expect(cart.subtotalPaise).toBe(52500);
    } finally {
      await shop.db.update(products).set({ pricePaise: 47500 }).where(eq(products.slug, "hair-growth-oil"));
    }
  });

  it("marks items no longer sold or out of stock, leaves them out of the total and closes checkout", async () => {
    const account = await newAccount();
    await add(account, "chilli-powder");
    await add(account, "curry-leaves-powder");
    await add(account, "body-combo", "combo");
    await call(account, "PUT", "/cart/items/curry-leaves-powder", { quantity: 3 });
    await shop.db.update(products).set({ active: false }).where(eq(products.slug, "chilli-powder"));
    await shop.db.update(products).set({ stock: 2 }).where(eq(products.slug, "curry-leaves-powder"));
    await shop.db.update(combos).set({ stock: 0 }).where(eq(combos.id, "body-combo"));
    try {
      const cart = await cartOf(account);
      expect(cart.lines.map((line) => [line.id, line.availability])).toEqual([
        ["chilli-powder", "not_sold"],
        ["curry-leaves-powder", "insufficient_stock"],
        ["body-combo", "out_of_stock"],
      ]);
      expect(cart.subtotalPaise).toBe(0);
      expect(cart.checkoutBlocker).toBe(
        "Remove or change these items to continue: Chilli Powder, Curry Leaves Powder, Family Bath Combo.",
      );

      await call(account, "PUT", "/cart/items/curry-leaves-powder", { quantity: 2 });
      await call(account, "DELETE", "/cart/items/chilli-powder");
      await call(account, "DELETE", "/cart/items/body-combo");
      const fixed = await cartOf(account);
      expect(fixed).toMatchObject({ checkoutBlocker: null, subtotalPaise: 50000 });
    } finally {
      await shop.db.update(products).set({ active: true }).where(eq(products.slug, "chilli-powder"));
      await shop.db.update(products).set({ stock: 115 }).where(eq(products.slug, "curry-leaves-powder"));
      await shop.db.update(combos).set({ stock: 50 }).where(eq(combos.id, "body-combo"));
    }
  });

  it("marks a combo not sold when one of its products is no longer sold", async () => {
    const account = await newAccount();
    await add(account, "nutrition-combo", "combo");
    await shop.db.update(products).set({ active: false }).where(eq(products.slug, "moringa-powder"));
    try {
      expect((await cartOf(account)).lines[0]?.availability).toBe("not_sold");
    } finally {
      await shop.db.update(products).set({ active: true }).where(eq(products.slug, "moringa-powder"));
    }
  });

  it("refuses unknown fields on every cart endpoint: no prices, amounts or totals from the client", async () => {
    const account = await newAccount();
    await add(account, "coconut-oil");
    const attempts: [string, string, unknown, string][] = [
      ["POST", "/cart/items", { id: "coconut-oil", kind: "product", pricePaise: 100 }, "pricePaise"],
      ["PUT", "/cart/items/coconut-oil", { quantity: 2, unitPricePaise: 1 }, "unitPricePaise"],
      [
        "POST",
        "/cart/merge",
        {
          mergeId: randomUUID(),
          items: [{ id: "coconut-oil", kind: "product", quantity: 1, pricePaise: 1 }],
        },
        "items.0.pricePaise",
      ],
      ["POST", "/cart/merge", { mergeId: randomUUID(), items: [], totalPaise: 1 }, "totalPaise"],
      ["POST", "/cart/merge", { items: [] }, "mergeId"],
      ["POST", "/cart/merge", { mergeId: "not-an-id", items: [] }, "mergeId"],
      ["POST", "/cart/quote", { items: [], discountPaise: 100 }, "discountPaise"],
      ["POST", "/discounts/apply", { code: "GLOW20", amountPaise: 100000 }, "amountPaise"],
    ];
    for (const [method, path, body, field] of attempts) {
      const response = await call(account, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe("invalid_request");
      expect(Object.keys(error.fields).join(), `${method} ${path}`).toContain(field.split(".").at(-1));
    }
    expect(quantities(await cartOf(account))).toEqual({ "coconut-oil": 1 });
  });

  it("loses nothing when two devices add at the same moment, on two app instances", async () => {
    const phone = await newAccount();
    const laptop = await secondDevice(phone);
    expect(laptop.cookie).not.toBe(phone.cookie);
    // A second instance of the app on the same database, as behind a load balancer.
    const secondInstance = createApp(createDeps({ db: shop.db, env: shop.env }));

    const requests = [
      ...Array.from({ length: 20 }, () => add(phone, "badam-mix")),
      ...Array.from({ length: 20 }, () => add(laptop, "badam-mix", "product", secondInstance)),
      ...Array.from({ length: 10 }, () => add(phone, "sathu-maavu")),
      ...Array.from({ length: 10 }, () => add(laptop, "haircare-combo", "combo", secondInstance)),
    ];
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const cart = await cartOf(laptop);
    expect(quantities(cart)).toEqual({ "badam-mix": 40, "sathu-maavu": 10, "haircare-combo": 10 });
    expect(cart.version).toBe(60);
  });

  it("takes an add sent again under its Idempotency-Key (its answer was lost) only once", async () => {
    const account = await newAccount();
    const keyed = (key: string, quantity = 2) =>
      Promise.resolve(
        shop.app.request(
          "/api/cart/items",
          jsonRequest({
            method: "POST",
            body: { id: "kids-bath-powder", kind: "product", quantity },
            cookie: account.cookie,
            headers: { "Idempotency-Key": key },
          }),
        ),
      );
    const key = randomUUID();
    const first = await keyed(key);
    expect(first.status).toBe(200);
    expect(first.headers.get("Idempotent-Replayed")).toBe("false");
    const again = await keyed(key);
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(quantities(await again.json())).toEqual({ "kids-bath-powder": 2 });
    // The key names that add: another quantity under it is refused, and nothing is added.
    const reused = await keyed(key, 3);
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe("idempotency_key_reused");
    expect((await keyed("not a key")).status).toBe(400);
    // A new key is a new tap, and an add without a key adds, as before.
    expect((await keyed(randomUUID(), 1)).status).toBe(200);
    expect((await add(account, "kids-bath-powder")).status).toBe(200);
    expect(quantities(await cartOf(account))).toEqual({ "kids-bath-powder": 4 });
    // The same add sent 10 times at once is taken once.
    const burst = randomUUID();
    const statuses = await Promise.all(Array.from({ length: 10 }, () => keyed(burst, 3)));
    expect(statuses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(quantities(await cartOf(account))).toEqual({ "kids-bath-powder": 7 });
  });

  it("adds once when an add committed, its answer was a 503 (connection cut after the commit) and it is sent again", async () => {
    const account = await newAccount();
    // A second instance whose pool loses the connection it hands out first after the add's COMMIT: the add is
    // in the database, the cart read for the answer fails, the shopper is told 503.
    const instance = startSecondInstance(shop);
    let cut: "off" | "armed" | "committed" = "off";
    interceptStatements(instance, (text, client, send) => {
      if (cut === "committed") {
        cut = "off";
        return terminateBackend(shop.db, client).then(send);
      }
      const result = send() as Promise<unknown>;
      if (cut === "armed" && text.toLowerCase() === "commit") {
        void result.then(() => {
          cut = "committed";
        });
      }
      return result;
    });
    try {
      const key = randomUUID();
      const send = () =>
        Promise.resolve(
          instance.app.request(
            "/api/cart/items",
            jsonRequest({
              method: "POST",
              body: { id: "face-wash-powder", kind: "product", quantity: 3 },
              cookie: account.cookie,
              headers: { "Idempotency-Key": key },
            }),
          ),
        );
      cut = "armed";
      const lost = await send();
      expect(lost.status).toBe(503);
      expect((await lost.json()).error.code).toBe("unavailable");
      expect(quantities(await cartOf(account))).toEqual({ "face-wash-powder": 3 });
      const retried = await send();
      expect(retried.status).toBe(200);
      expect(quantities(await retried.json())).toEqual({ "face-wash-powder": 3 });
    } finally {
      await instance.end();
    }
  });

  it("lets another device see a change through the version, from another app instance", async () => {
    const phone = await newAccount();
    const laptop = await secondDevice(phone);
    const secondInstance = createApp(createDeps({ db: shop.db, env: shop.env }));
    const versionOn = async (account: TestAccount, app: Hono) =>
      (await (await call(account, "GET", "/cart/version", undefined, app)).json()).version as number;

    const before = await versionOn(laptop, secondInstance);
    await add(phone, "wax-powder");
    const after = await versionOn(laptop, secondInstance);
    expect(after).toBeGreaterThan(before);
    const seen: PricedCart = await (await call(laptop, "GET", "/cart", undefined, secondInstance)).json();
    expect(seen.version).toBe(after);
    expect(quantities(seen)).toEqual({ "wax-powder": 1 });
  });

  it("gives checkout one function that prices the cart, also inside a transaction", async () => {
    const account = await newAccount();
    await add(account, "kids-bath-powder");
    await add(account, "kids-bath-powder");
    await call(account, "POST", "/discounts/apply", { code: "SAVE15" });
    const priced = await shop.db.transaction((tx) => priceCart(tx, account.userId));
    expect(priced).toMatchObject({
      subtotalPaise: 139800,
      discount: { code: "SAVE15", amountPaise: 21000, shortfallPaise: 0, valid: true },
      discountPaise: 21000, // 15% of 1,398 = 209.70, nearest rupee 210
      totalPaise: 118800,
    });
  });
});

describe("merging a guest's cart on sign-in", () => {
  it("sums quantities of the same id, appends the others, and drops ids the shop never had", async () => {
    const account = await newAccount();
    await add(account, "beetroot-face-pack");
    await add(account, "beetroot-face-pack");
    await add(account, "coconut-oil");

    const response = await merge(account, {
      items: [
        { id: "beetroot-face-pack", kind: "product", quantity: 3 },
        { id: "immunity-booster", kind: "product", quantity: 1 },
        { id: "lipstick", kind: "product", quantity: 4 },
        { id: "body-combo", kind: "combo", quantity: 2 },
      ],
    });
    expect(response.status).toBe(200);
    const { cart, discountMessage } = (await response.json()) as { cart: PricedCart; discountMessage: null };
    expect(discountMessage).toBeNull();
    expect(cart.lines.map((line) => [line.id, line.quantity])).toEqual([
      ["beetroot-face-pack", 5],
      ["coconut-oil", 1],
      ["immunity-booster", 1],
      ["body-combo", 2],
    ]);
  });

  it("keeps a merged line within 99", async () => {
    const account = await newAccount();
    await add(account, "wax-powder");
    await call(account, "PUT", "/cart/items/wax-powder", { quantity: 90 });
    const { cart } = await (
      await merge(account, {
        items: [{ id: "wax-powder", kind: "product", quantity: 20 }],
      })
    ).json();
    expect(quantities(cart)).toEqual({ "wax-powder": 99 });
  });

  it("refuses duplicate lines and more than 100 lines", async () => {
    const account = await newAccount();
    const duplicate = await merge(account, {
      items: [
        { id: "wax-powder", kind: "product", quantity: 1 },
        { id: "wax-powder", kind: "product", quantity: 2 },
      ],
    });
    expect(duplicate.status).toBe(400);
    const many = Array.from({ length: 101 }, (_, index) => ({
      id: `item-${index}`,
      kind: "product",
      quantity: 1,
    }));
    expect((await merge(account, { items: many })).status).toBe(400);
  });

  it("records the guest's used codes for the account and keeps the guest's applied code", async () => {
    const account = await newAccount();
    await add(account, "hair-wash-powder");
    const { cart, discountMessage } = await (
      await merge(account, {
        items: [],
        appliedCode: "glow20",
        usedCodes: ["GLOW20", "welcome10", "NOSUCHCODE"],
      })
    ).json();
    expect(discountMessage).toBeNull();
    expect(cart.discount).toMatchObject({ code: "GLOW20", amountPaise: 13500 });

    const used = await shop.db
      .select({ code: discountUses.code })
      .from(discountUses)
      .where(eq(discountUses.userId, account.userId));
    expect(used.map((row) => row.code).sort()).toEqual(["GLOW20", "WELCOME10"]);
    const again = await call(account, "POST", "/discounts/apply", { code: "WELCOME10" });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe("This discount code has already been used");
  });

  it("refuses a guest's applied code that the account had already used, in the spec's words", async () => {
    const account = await newAccount();
    await add(account, "hair-wash-powder");
    await call(account, "POST", "/discounts/apply", { code: "GLOW20" });
    await call(account, "DELETE", "/discounts/applied");

    const { cart, discountMessage } = await (
      await merge(account, { items: [], appliedCode: "GLOW20", usedCodes: ["GLOW20"] })
    ).json();
    expect(discountMessage).toBe("This discount code has already been used");
    expect(cart.discount).toBeNull();
  });

  it("says nothing when the guest's code is the one the saved cart already has applied", async () => {
    const account = await newAccount();
    await call(account, "POST", "/discounts/apply", { code: "GLOW20" });
    const { cart, discountMessage } = await (
      await merge(account, { items: [], appliedCode: "GLOW20" })
    ).json();
    expect(discountMessage).toBeNull();
    expect(cart.discount.code).toBe("GLOW20");
  });

  it("calls a guest's applied code invalid when the shop has no such code", async () => {
    const account = await newAccount();
    const { discountMessage } = await (await merge(account, { items: [], appliedCode: "FREESTUFF" })).json();
    expect(discountMessage).toBe("Invalid discount code");
  });

  it("takes a merge sent again (its answer was lost) only once", async () => {
    const account = await newAccount();
    const mergeId = randomUUID();
    const body = { mergeId, items: [{ id: "kids-bath-powder", kind: "product", quantity: 2 }] };
    expect((await merge(account, body)).status).toBe(200);
    const again = await merge(account, body);
    expect(again.status).toBe(200);
    expect(quantities((await again.json()).cart)).toEqual({ "kids-bath-powder": 2 });
    // Another merge, under its own id, is taken in as usual.
    await merge(account, { items: [{ id: "kids-bath-powder", kind: "product", quantity: 1 }] });
    expect(quantities(await cartOf(account))).toEqual({ "kids-bath-powder": 3 });
  });

  it("takes the same merge sent 10 times at once only once", async () => {
    const account = await newAccount();
    const body = { mergeId: randomUUID(), items: [{ id: "coconut-oil", kind: "product", quantity: 3 }] };
    const responses = await Promise.all(Array.from({ length: 10 }, () => merge(account, body)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(quantities(await cartOf(account))).toEqual({ "coconut-oil": 3 });
  });

  it("is atomic with concurrent adds: nothing lost", async () => {
    const account = await newAccount();
    const laptop = await secondDevice(account);
    await Promise.all([
      ...Array.from({ length: 10 }, () => add(laptop, "protein-mix")),
      merge(account, { items: [{ id: "protein-mix", kind: "product", quantity: 5 }] }),
    ]);
    const [row] = await shop.db
      .select({ quantity: cartItems.quantity })
      .from(cartItems)
      .where(and(eq(cartItems.userId, account.userId), eq(cartItems.itemId, "protein-mix")));
    expect(row?.quantity).toBe(15);
  });
});

describe("pricing a guest's cart", () => {
  it("prices ids and quantities at catalogue prices, with a discount code, storing nothing", async () => {
    const response = await call(null, "POST", "/cart/quote", {
      items: [
        { id: "face-glow-oil", kind: "product", quantity: 2 },
        { id: "nutrition-combo", kind: "combo", quantity: 1 },
        { id: "lipstick", kind: "product", quantity: 1 },
      ],
      discountCode: "glow20",
    });
    expect(response.status).toBe(200);
    const cart: PricedCart = await response.json();
    expect(cart.lines.map((line) => [line.id, line.unitPricePaise, line.availability])).toEqual([
      ["face-glow-oil", 49900, "available"],
      ["nutrition-combo", 94900, "available"],
      ["lipstick", null, "not_sold"],
    ]);
    expect(cart).toMatchObject({
      version: 0,
      itemCount: 4,
      subtotalPaise: 194700,
      discount: { code: "GLOW20", percent: 20, amountPaise: 38900 }, // 389.40 -> 389
      totalPaise: 155800,
    });
    expect(cart.checkoutBlocker).toContain("Lipstick");
  });
});

describe("a code in the cart and at Place order", () => {
  it("is priced alike: a use spent elsewhere is shown in the cart, with the words the order would refuse it with", async () => {
    const account = await newAccount();
    await add(account, "hair-growth-oil");
    expect((await call(account, "POST", "/discounts/apply", { code: "WELCOME10" })).status).toBe(200);
    expect((await cartOf(account)).discount).toMatchObject({ code: "WELCOME10", valid: true, problem: null });

    // The account's one use goes to an order placed elsewhere (another device) while the code stays applied.
    await shop.db
      .update(discountUses)
      .set({ orderId: "placed-on-another-device" })
      .where(and(eq(discountUses.userId, account.userId), eq(discountUses.code, "WELCOME10")));

    const cart = await cartOf(account);
    expect(cart.discount).toMatchObject({ code: "WELCOME10", valid: false, amountPaise: 0 });
    expect(cart.discountPaise).toBe(0);
    expect(cart.totalPaise).toBe(cart.subtotalPaise);
    const checkout = await (await call(account, "GET", "/checkout")).json();
    expect(checkout.pricing.discountProblem).toEqual({ code: "WELCOME10", message: cart.discount?.problem });
    expect(cart.discount?.problem).toBe("This discount code has already been used");
  });

  it("gives the order the code and the amount the cart showed applied, through checkout", async () => {
    const account = await newAccount();
    await add(account, "hair-growth-oil");
    await add(account, "hair-growth-oil");
    const applied = await call(account, "POST", "/discounts/apply", { code: "GLOW20" });
    expect(applied.status).toBe(200);
    const { message, cart } = (await applied.json()) as { message: string; cart: PricedCart };
    expect(message).toContain("applied successfully!");
    expect(cart.discount).toMatchObject({ code: "GLOW20", valid: true, problem: null });
    expect(cart.discountPaise).toBeGreaterThan(0);

    const checkout = await (await call(account, "GET", "/checkout")).json();
    expect(checkout.pricing).toMatchObject({
      subtotalPaise: cart.subtotalPaise,
      discount: { code: "GLOW20", amountPaise: cart.discountPaise },
      discountProblem: null,
      problems: [],
      totalPaise: cart.totalPaise + checkout.pricing.shippingPaise,
    });

    const addressId = await saveAddress(shop.app, account.cookie);
    const placed = await placeOrderRequest(shop.app, account.cookie, { addressId, paymentMethod: "cod" });
    expect(placed.status).toBe(201);
    const { order } = await placed.json();
    expect(order).toMatchObject({
      subtotalPaise: cart.subtotalPaise,
      discount: { code: "GLOW20", amountPaise: cart.discountPaise },
      totalPaise: checkout.pricing.totalPaise,
    });
  });

  it("names a guest's spent code on the checkout page once the e-mail or mobile is typed, as Place order refuses it", async () => {
    const items = [{ id: "coconut-oil", kind: "product", quantity: 1 }];
    const email = "spent-save15@example.in";
    const mobile = "9812345670";
    const placeAsGuest = (body: object) =>
      shop.app.request(
        "/api/guest-orders",
        jsonRequest({
          method: "POST",
          body: { items, discountCode: "SAVE15", paymentMethod: "cod", ...body },
          headers: { "Idempotency-Key": randomUUID() },
        }),
      );
    expect((await placeAsGuest({ email, address: { ...TEST_ADDRESS, phone: mobile } })).status).toBe(201);

    // The cart does not know who the guest is yet: the code shows as applied there.
    const quote: PricedCart = await (
      await call(null, "POST", "/cart/quote", { items, discountCode: "SAVE15" })
    ).json();
    expect(quote.discount).toMatchObject({ valid: true, problem: null });

    const spent = { code: "SAVE15", message: "This discount code has already been used" };
    // The address's mobile counts as the mobile: it is the one the order is placed with.
    const address = { ...TEST_ADDRESS, phone: mobile };
    for (const contact of [{ email }, { mobile: `+91 ${mobile}` }, { address }]) {
      const checkout = await call(null, "POST", "/checkout/guest", {
        items,
        discountCode: "SAVE15",
        ...contact,
      });
      expect(checkout.status).toBe(200);
      const { pricing } = await checkout.json();
      expect(pricing.discountProblem).toEqual(spent);
      expect(pricing.discount).toBeNull();
    }
    const unknown = await call(null, "POST", "/checkout/guest", {
      items,
      discountCode: "SAVE15",
      email: "someone-new@example.in",
    });
    expect((await unknown.json()).pricing.discount).toMatchObject({ code: "SAVE15" });
    expect((await call(null, "POST", "/checkout/guest", { items, email: "not an address" })).status).toBe(
      400,
    );

    const refused = await placeAsGuest({ email, address: { ...TEST_ADDRESS, phone: "9812345671" } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toContain(spent.message);
  });
});

describe("the cart's event stream", () => {
  // The shop's own cap, not the test apps' generous one.
  const streamsPerClient = parseEnv({}).STREAMS_PER_CLIENT;
  let instance: ReturnType<typeof createDeps>;
  let app: Hono;
  beforeAll(() => {
    instance = createDeps({ db: shop.db, env: { ...shop.env, STREAMS_PER_CLIENT: streamsPerClient } });
    app = createApp(instance);
  });
  afterAll(async () => {
    await instance.catalogue.stop();
    await instance.live.stop();
  });

  /** A tab's stream from one client address, read up to its first message (the open tab's state). */
  async function openStream(address: string, account: TestAccount | null = null) {
    const response = await app.request(
      "/api/cart/events",
      jsonRequest({ cookie: account?.cookie, headers: { "X-Forwarded-For": address } }),
    );
    if (response.status !== 200) return { response, close: async () => {} };
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain("event: cart");
    return { response, close: () => reader.cancel() };
  }

  it("holds at most 32 open per client address, and frees a slot when one closes", async () => {
    expect(streamsPerClient).toBe(32);
    const account = await newAccount();
    const open = [];
    try {
      // A signed-in tab and guest tabs from one address count alike.
      open.push(await openStream("203.0.113.40", account));
      for (let tab = 1; tab < 32; tab++) open.push(await openStream("203.0.113.40"));
      expect(open.map((tab) => tab.response.status)).toEqual(Array(32).fill(200));

      const refused = await openStream("203.0.113.40");
      expect(refused.response.status).toBe(429);
      expect(await refused.response.json()).toEqual({
        error: { code: "too_many_streams", message: expect.stringMatching(/\S/) },
      });
      expect(refused.response.headers.get("Retry-After")).toMatch(/^\d+$/);
      // Another client is not held back by this one.
      const elsewhere = await openStream("203.0.113.41");
      expect(elsewhere.response.status).toBe(200);
      await elsewhere.close();

      // A closed tab gives its slot back.
      await open.shift()?.close();
      const reopened = await openStream("203.0.113.40");
      expect(reopened.response.status).toBe(200);
      open.push(reopened);
      expect((await openStream("203.0.113.40")).response.status).toBe(429);
    } finally {
      await Promise.all(open.map((tab) => tab.close()));
    }
  });
});
