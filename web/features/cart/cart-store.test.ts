import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type CartEntry, type PricedCart, type ResolvedLine, summarizeCart } from "../../../common/cart.ts";
import { CART_KEY } from "./storage-keys.ts";

/**
 * The browser's one cart, driven as the screens drive it, against a small stand-in for the cart API that
 * prices with the same arithmetic the server uses (common/cart.ts). Each test loads the store afresh.
 */

const PRICES: Record<string, number> = { "neem-face-wash": 24900, "hair-growth-oil": 44900 };

function line(entry: CartEntry): ResolvedLine {
  return {
    ...entry,
    name: entry.id,
    href: `/product/${entry.id}`,
    image: null,
    imageKey: entry.id,
    unitPricePaise: PRICES[entry.id] ?? null,
    addedPricePaise: null,
    availability: "available",
    stock: 50,
    perishable: false,
  };
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

type Call = { method: string; path: string; body: unknown };

/** The server's side: who is signed in, their saved lines, and what each request asked. */
let server: {
  userId: string | null;
  saved: CartEntry[];
  version: number;
  calls: Call[];
  /** Answers the next request to this path with this status and error instead. */
  failNext?: { path: string; status: number; message: string };
  /** Holds the answers to these paths until released, to see what shows meanwhile. */
  hold?: Promise<void>;
  /** Takes the next request to this path, then answers 503 as if its answer had been lost on the way. */
  loseNextAnswer?: string;
  /** The Idempotency-Keys of the adds taken: an add sent again under one is not added twice. */
  addKeys: Set<string>;
  /** Codes the account has used, and the apply each key took. */
  usedCodes: Set<string>;
  applyKeys: Map<string, string>;
};

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const priced = (entries: CartEntry[], version = 0): PricedCart =>
  summarizeCart({ lines: entries.map(line), discount: null, version });

async function handle(path: string, init: RequestInit): Promise<Response> {
  const method = init.method ?? "GET";
  const body = init.body ? JSON.parse(String(init.body)) : undefined;
  server.calls.push({ method, path, body });
  if (server.hold) await server.hold;
  if (server.failNext?.path === path) {
    const { status, message } = server.failNext;
    server.failNext = undefined;
    return answer(status, { error: { code: "refused", message } });
  }
  const saved = () => {
    server.version += 1;
    return answer(200, priced(server.saved, server.version));
  };
  if (path === "/cart/version") return answer(200, { userId: server.userId, version: server.version });
  if (path === "/cart/quote") return answer(200, priced(body.items));
  if (path === "/cart" && method === "GET") return answer(200, priced(server.saved, server.version));
  if (path === "/cart/items" && method === "POST") {
    const key = (init.headers as Record<string, string> | undefined)?.["Idempotency-Key"];
    if (key === undefined || !server.addKeys.has(key)) {
      if (key !== undefined) server.addKeys.add(key);
      const existing = server.saved.find((each) => each.id === body.id);
      if (existing) existing.quantity += body.quantity;
      else server.saved.push({ id: body.id, kind: body.kind, quantity: body.quantity });
    }
    const taken = saved();
    if (server.loseNextAnswer !== path) return taken;
    server.loseNextAnswer = undefined;
    return answer(503, { error: { code: "unavailable", message: "The shop is briefly unavailable." } });
  }
  if (path === "/discounts/apply") {
    // The server's rule (spec 5): a code already used is refused, unless it is this very apply sent again.
    const key = (init.headers as Record<string, string> | undefined)?.["Idempotency-Key"];
    const code = String(body.code).toUpperCase();
    const repeated = key !== undefined && server.applyKeys.get(key) === code;
    if (!repeated && server.usedCodes.has(code)) {
      return answer(409, {
        error: { code: "discount_already_used", message: "This discount code has already been used" },
      });
    }
    server.usedCodes.add(code);
    if (key !== undefined) server.applyKeys.set(key, code);
    const taken = answer(200, {
      message: "20% off applied successfully!",
      cart: priced(server.saved, server.version),
    });
    if (server.loseNextAnswer !== path) return taken;
    server.loseNextAnswer = undefined;
    return answer(503, { error: { code: "unavailable", message: "The shop is briefly unavailable." } });
  }
  if (path.startsWith("/cart/items/") && method === "PUT") {
    const id = decodeURIComponent(path.slice("/cart/items/".length));
    server.saved = server.saved.map((each) => (each.id === id ? { ...each, quantity: body.quantity } : each));
    return saved();
  }
  if (path === "/cart/merge") {
    for (const item of body.items as CartEntry[]) server.saved.push(item);
    server.version += 1;
    return answer(200, { cart: priced(server.saved, server.version), discountMessage: null });
  }
  return answer(404, { error: { code: "not_found", message: `No fake for ${method} ${path}` } });
}

async function loadStore() {
  vi.resetModules();
  const { setApiTransport } = await import("../../lib/api.ts");
  setApiTransport(handle);
  return import("./cart-store.ts");
}

beforeEach(() => {
  server = {
    userId: null,
    saved: [],
    version: 0,
    calls: [],
    addKeys: new Set(),
    usedCodes: new Set(),
    applyKeys: new Map(),
  };
  const storage = { localStorage: memoryStorage(), sessionStorage: memoryStorage() };
  vi.stubGlobal("window", { ...storage, addEventListener() {}, removeEventListener() {} });
  vi.stubGlobal("localStorage", storage.localStorage);
});
afterEach(() => vi.unstubAllGlobals());

describe("a guest's cart", () => {
  it("keeps the lines in the browser and shows the server's prices for them", async () => {
    const store = await loadStore();
    expect(await store.addItem({ id: "neem-face-wash", kind: "product", name: "Neem Face Wash" })).toEqual({
      ok: true,
    });
    await store.addItem({ id: "neem-face-wash", kind: "product", name: "Neem Face Wash", quantity: 2 });
    const { cart, count, mode } = store.getCartSnapshot();
    expect(mode).toBe("guest");
    expect(count).toBe(3);
    expect(cart.subtotalPaise).toBe(3 * 24900);
    expect(JSON.parse(localStorage.getItem(CART_KEY) ?? "{}").items).toMatchObject([
      { id: "neem-face-wash", quantity: 3, addedPricePaise: 24900 },
    ]);
    // Only ids and quantities go to the server: a price from the browser is never asked for.
    const quote = server.calls.filter((call) => call.path === "/cart/quote").at(-1);
    expect(quote?.body).toEqual({
      items: [{ id: "neem-face-wash", kind: "product", quantity: 3 }],
      discountCode: null,
    });
  });

  it("refuses a line past 99 in words, and changes nothing", async () => {
    const store = await loadStore();
    await store.addItem({ id: "hair-growth-oil", kind: "product", name: "Hair Growth Oil", quantity: 99 });
    const refused = await store.addItem({ id: "hair-growth-oil", kind: "product", name: "Hair Growth Oil" });
    expect(refused).toEqual({
      ok: false,
      message: "You already have the most we allow of Hair Growth Oil (99).",
    });
    expect(store.getCartSnapshot().count).toBe(99);
  });

  it("is merged into the saved cart at sign-in, and kept for another try when the merge fails", async () => {
    const store = await loadStore();
    await store.addItem({ id: "neem-face-wash", kind: "product", name: "Neem Face Wash" });
    server.userId = "u1";
    server.failNext = { path: "/cart/merge", status: 503, message: "Try again shortly." };
    await store.syncCartSession();
    // The saved cart shows; the guest's line waits in the browser for the next try.
    expect(store.getCartSnapshot().mode).toBe("account");
    expect(JSON.parse(localStorage.getItem(CART_KEY) ?? "{}").items).toHaveLength(1);

    await store.syncCartSession();
    expect(store.getCartSnapshot().cart.lines.map((each) => each.id)).toEqual(["neem-face-wash"]);
    expect(JSON.parse(localStorage.getItem(CART_KEY) ?? "{}").items ?? []).toHaveLength(0);
  });
});

describe("a signed-in shopper's cart", () => {
  beforeEach(() => {
    server.userId = "u1";
    server.saved = [{ id: "neem-face-wash", kind: "product", quantity: 1 }];
  });

  it("shows a quantity change at once, then the server's answer", async () => {
    const store = await loadStore();
    await store.ensureCartStarted();
    let release = () => {};
    server.hold = new Promise((resolve) => {
      release = resolve;
    });
    const changing = store.changeQuantity("neem-face-wash", 4);
    expect(store.getCartSnapshot().cart.subtotalPaise).toBe(4 * 24900);
    release();
    expect(await changing).toEqual({ ok: true });
    server.hold = undefined;
    expect(store.getCartSnapshot().cart.version).toBe(server.version);
  });

  it("sends a quick series of taps in order, and shows the last", async () => {
    const store = await loadStore();
    await store.ensureCartStarted();
    await Promise.all([2, 3, 4, 5].map((quantity) => store.changeQuantity("neem-face-wash", quantity)));
    const sent = server.calls
      .filter((call) => call.method === "PUT")
      .map((call) => (call.body as { quantity: number }).quantity);
    expect(sent).toEqual([2, 3, 4, 5]);
    expect(store.getCartSnapshot().cart.lines[0]?.quantity).toBe(5);
  });

  it("sends an add whose answer was lost again under the same key, and it is added once", async () => {
    const store = await loadStore();
    await store.ensureCartStarted();
    server.loseNextAnswer = "/cart/items";
    const added = await store.addItem({ id: "hair-growth-oil", kind: "product", name: "Hair Growth Oil" });
    expect(added).toEqual({ ok: true });
    const adds = server.calls.filter((call) => call.method === "POST" && call.path === "/cart/items");
    expect(adds).toHaveLength(2);
    expect(server.addKeys.size).toBe(1);
    expect(store.getCartSnapshot().cart.lines.map((each) => [each.id, each.quantity])).toEqual([
      ["neem-face-wash", 1],
      ["hair-growth-oil", 1],
    ]);
    // The next tap is another add, under a key of its own.
    await store.addItem({ id: "hair-growth-oil", kind: "product", name: "Hair Growth Oil" });
    expect(server.addKeys.size).toBe(2);
    expect(store.getCartSnapshot().cart.lines[1]?.quantity).toBe(2);
  });

  it("sends a code's apply whose answer was lost again under the same key, and it is applied, not refused", async () => {
    const store = await loadStore();
    await store.ensureCartStarted();
    server.loseNextAnswer = "/discounts/apply";
    expect(await store.applyDiscountCode("glow20")).toEqual({
      ok: true,
      message: "20% off applied successfully!",
    });
    const applies = server.calls.filter((call) => call.path === "/discounts/apply");
    expect(applies).toHaveLength(2);
    expect(server.applyKeys.size).toBe(1);
    // Another tap on Apply is a new apply: the spec's refusal.
    expect(await store.applyDiscountCode("GLOW20")).toEqual({
      ok: false,
      message: "This discount code has already been used",
    });
  });

  it("says why a change was refused and shows the cart as the server has it", async () => {
    const store = await loadStore();
    await store.ensureCartStarted();
    server.failNext = { path: "/cart/items/neem-face-wash", status: 409, message: "Only 3 left in stock." };
    const refused = await store.changeQuantity("neem-face-wash", 9);
    expect(refused).toEqual({ ok: false, message: "Only 3 left in stock." });
    expect(store.getCartSnapshot().cart.lines[0]?.quantity).toBe(1);
  });
});
