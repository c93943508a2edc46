import {
  addEntry,
  type CartItemKind,
  type CartLine,
  discountCodeOf,
  type PricedCart,
  type ResolvedLine,
  removeEntry,
  setEntryQuantity,
  summarizeCart,
} from "../../../common/cart.ts";
import { api, isApiError } from "../../lib/api.ts";
import { newRandomId } from "../../lib/random-id.ts";
import { publishCartCount } from "./cart-count.ts";
import {
  addUsedCode,
  forgetMergeId,
  type GuestEntry,
  markCodesSent,
  mergeIdForSavedCart,
  readAppliedCode,
  readGuestCart,
  readUsedCodes,
  unsentUsedCodes,
  writeAppliedCode,
  writeGuestCart,
} from "./guest-storage.ts";
import { CART_KEY } from "./storage-keys.ts";

/**
 * The one cart in the browser. A guest's lines live in localStorage and are priced by the server on
 * each change; a signed-in shopper's cart lives on the server, changed line by line, and every open
 * visible tab follows changes made elsewhere through a stream of server-sent events (docs/decisions/069).
 */

export type CartSnapshot = {
  /** "starting" until the first answer from the server says who is signed in. */
  mode: "starting" | "guest" | "account";
  userId: string | null;
  cart: PricedCart;
  /** Total quantity: the header badge. */
  count: number;
  /** Something the shopper should know about the cart that no button caused (a code refused at sign-in). */
  notice: string | null;
  /** The cart could not be loaded at all; the page offers to try again. */
  loadError: string | null;
};

export type CartResult = { ok: true; message?: string } | { ok: false; message: string };

/**
 * A guest's tab cannot be told of a sign-in made in another tab (its stream was opened without the new
 * cookie), so it asks /api/cart/version this often while visible: answered from the cookie alone, no database.
 */
const GUEST_CHECK_MS = 2500;

/** After the cart's stream was refused (the server answered an error), a new one is tried this much later. */
const STREAM_RETRY_MS = 3000;

const EMPTY_CART = summarizeCart({ lines: [], discount: null });

let snapshot: CartSnapshot = {
  mode: "starting",
  userId: null,
  cart: EMPTY_CART,
  count: 0,
  notice: null,
  loadError: null,
};
let guestEntries: GuestEntry[] = [];
const listeners = new Set<() => void>();

function publish(next: Partial<CartSnapshot>) {
  snapshot = { ...snapshot, ...next };
  if (next.cart) snapshot.count = next.cart.itemCount;
  publishCartCount(snapshot.count);
  for (const listener of listeners) listener();
}

export const getCartSnapshot = () => snapshot;

export function subscribeCart(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) startFollowing();
  void ensureCartStarted();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) stopFollowing();
  };
}

// Server round trips run one at a time, so a quick series of clicks reaches the server in order.
let queue: Promise<unknown> = Promise.resolve();
let pendingChanges = 0;
function enqueue<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

let starting: Promise<void> | null = null;

/** Learns who is signed in and loads (or merges) the cart; loaders await it. Retries after a failure. */
export function ensureCartStarted(): Promise<void> {
  if (snapshot.mode !== "starting" && !snapshot.loadError) return Promise.resolve();
  starting ??= enqueue(() => syncSession()).finally(() => {
    starting = null;
  });
  return starting;
}

/** For sign-in and sign-out screens: follow the new session now rather than at the stream's next message. */
export function syncCartSession(): Promise<void> {
  return enqueue(() => syncSession());
}

type VersionInfo = { userId: string | null; version: number };

async function syncSession(known?: VersionInfo) {
  try {
    const { userId } = known ?? (await api<VersionInfo>("/cart/version"));
    if (userId === null) await enterGuest();
    else await enterAccount(userId);
  } catch (error) {
    console.error("The cart could not be loaded.", error);
    publish({ loadError: isApiError(error) ? error.message : "Your cart could not be loaded." });
  }
}

// ---- Guest

async function enterGuest() {
  guestEntries = readGuestCart();
  publish({ mode: "guest", userId: null, cart: guestCartNow(EMPTY_CART), notice: null, loadError: null });
  await quoteGuest();
}

/** The guest's lines as they are now, priced with what the last answer from the server said. */
function guestCartNow(priced: PricedCart): PricedCart {
  const known = new Map(priced.lines.map((line) => [line.id, line]));
  const lines = guestEntries.map((entry): ResolvedLine => {
    const line = known.get(entry.id);
    const addedPricePaise = entry.addedPricePaise ?? null;
    if (line) return { ...line, quantity: entry.quantity, addedPricePaise };
    return {
      id: entry.id,
      kind: entry.kind,
      quantity: entry.quantity,
      name: entry.name,
      href: entry.kind === "product" ? `/product/${entry.id}` : `/combo/${entry.id}`,
      image: null,
      imageKey: null,
      unitPricePaise: null,
      addedPricePaise,
      availability: "available",
      stock: 0,
      perishable: false,
    };
  });
  return summarizeCart({ lines, discount: readAppliedCode() ? discountCodeOf(priced) : null });
}

let quoteNumber = 0;

/** Asks the server for current prices of the guest's lines (ids and quantities only). */
async function quoteGuest(): Promise<void> {
  const appliedCode = readAppliedCode();
  if (guestEntries.length === 0 && !appliedCode) {
    publish({ cart: EMPTY_CART });
    return;
  }
  const number = ++quoteNumber;
  const priced = await api<PricedCart>("/cart/quote", {
    method: "POST",
    body: {
      items: guestEntries.map(({ id, kind, quantity }) => ({ id, kind, quantity })),
      discountCode: appliedCode,
    },
  });
  // A newer change has been quoted since, or the shopper has signed in meanwhile.
  if (number !== quoteNumber || snapshot.mode !== "guest") return;
  rememberAddedPrices(priced.lines);
  publish({ cart: guestCartNow(priced), loadError: null });
}

/** The price a guest first saw for a line, kept so a later price change can be pointed out. */
function rememberAddedPrices(lines: readonly CartLine[]) {
  let changed = false;
  guestEntries = guestEntries.map((entry) => {
    if (entry.addedPricePaise !== undefined) return entry;
    const price = lines.find((line) => line.id === entry.id)?.unitPricePaise;
    if (price === undefined || price === null) return entry;
    changed = true;
    return { ...entry, addedPricePaise: price };
  });
  if (changed) writeGuestCart(guestEntries);
}

function changeGuest(entries: GuestEntry[]): Promise<CartResult> {
  guestEntries = entries;
  writeGuestCart(entries);
  forgetMergeId();
  publish({ cart: guestCartNow(snapshot.cart) });
  return quoteGuest().then(
    (): CartResult => ({ ok: true }),
    (error): CartResult => {
      console.error("The cart's prices could not be updated.", error);
      return { ok: true };
    },
  );
}

// Another tab of this browser changed the guest cart.
function onStorage(event: StorageEvent) {
  if (event.key !== CART_KEY || snapshot.mode !== "guest") return;
  guestEntries = readGuestCart();
  publish({ cart: guestCartNow(snapshot.cart) });
  void quoteGuest().catch(() => undefined);
}

// ---- Signed in

async function enterAccount(userId: string) {
  const merged = await withMergeLock(() => mergeGuestCart(userId));
  const cart = merged?.cart ?? (await api<PricedCart>("/cart"));
  guestEntries = [];
  publish({ mode: "account", userId, cart, notice: merged?.discountMessage ?? null, loadError: null });
}

type MergeResult = { cart: PricedCart; discountMessage: string | null };

/** Spec 4: the guest's cart (and codes) folded into the saved one; null when there was nothing to merge or it failed. */
async function mergeGuestCart(userId: string): Promise<MergeResult | null> {
  // Taken out of storage before the request, so another tab signing in at the same time cannot merge it twice.
  const pending = {
    entries: readGuestCart(),
    appliedCode: readAppliedCode(),
    usedCodes: unsentUsedCodes(userId),
  };
  if (pending.entries.length === 0 && !pending.appliedCode && pending.usedCodes.length === 0) return null;
  const mergeId = mergeIdForSavedCart();
  writeGuestCart([]);
  writeAppliedCode(null);
  try {
    const result = await api<MergeResult>("/cart/merge", {
      method: "POST",
      body: {
        mergeId,
        items: pending.entries.map(({ id, kind, quantity }) => ({ id, kind, quantity })),
        appliedCode: pending.appliedCode,
        usedCodes: pending.usedCodes,
      },
    });
    forgetMergeId();
    // The session store keeps its used list (it is the signed-out shopper's); the account now knows them.
    markCodesSent(userId, pending.usedCodes);
    return result;
  } catch (error) {
    // Spec 4: the saved cart is used; the guest's copy goes back for another try next time, under the same
    // merge id, so if this try did land after all (its answer lost) the server does not add it twice.
    console.error(
      "The guest cart could not be merged into the saved cart; it is kept for another try.",
      error,
    );
    writeGuestCart(mergeBack(pending.entries, readGuestCart()));
    if (pending.appliedCode) writeAppliedCode(pending.appliedCode);
    return null;
  }
}

function mergeBack(taken: GuestEntry[], sinceThen: GuestEntry[]): GuestEntry[] {
  const ids = new Set(taken.map((entry) => entry.id));
  return [...taken, ...sinceThen.filter((entry) => !ids.has(entry.id))];
}

function withMergeLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  return locks ? (locks.request("cart-merge", work) as Promise<T>) : work();
}

async function refreshAccount() {
  const cart = await api<PricedCart>("/cart");
  if (snapshot.mode === "account" && pendingChanges === 0) publish({ cart });
}

/**
 * A change to the saved cart: shown at once (worked out locally with the same arithmetic the server uses),
 * then replaced by the server's answer once no other change is waiting behind it.
 */
function changeAccount(
  optimistic: ((lines: CartLine[]) => CartLine[]) | null,
  request: () => Promise<PricedCart>,
): Promise<CartResult> {
  if (optimistic) {
    const { cart } = snapshot;
    publish({
      cart: summarizeCart({
        lines: optimistic(cart.lines),
        discount: discountCodeOf(cart),
        version: cart.version,
      }),
    });
  }
  pendingChanges += 1;
  return enqueue(async (): Promise<CartResult> => {
    try {
      const cart = await request();
      pendingChanges -= 1;
      if (pendingChanges === 0 && snapshot.mode === "account") publish({ cart });
      return { ok: true };
    } catch (error) {
      pendingChanges -= 1;
      await refreshAccount().catch(() => undefined);
      return {
        ok: false,
        message: isApiError(error) ? error.message : "Something went wrong. Please try again.",
      };
    }
  });
}

// ---- What the screens call

export type CartItemInput = { id: string; kind: CartItemKind; name: string; quantity?: number };

/** The waits before a tap whose answer was lost is sent again. */
const TAP_RETRY_MS = [300, 1_000];

/**
 * Sends one tap's change (an add, a code applied), and sends it again when no answer came (the network
 * dropped) or the shop was briefly unavailable (503): it may have been taken before its answer was lost, so it
 * goes under the same Idempotency-Key each time and the server takes it once.
 */
async function sendTap<T>(path: string, body: unknown): Promise<T> {
  const key = newRandomId();
  for (let attempt = 0; ; attempt++) {
    try {
      return await api<T>(path, { method: "POST", body, headers: { "Idempotency-Key": key } });
    } catch (error) {
      const lost = isApiError(error) && (error.status === 0 || error.status === 503);
      const wait = TAP_RETRY_MS[attempt];
      if (!lost || wait === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export async function addItem(item: CartItemInput): Promise<CartResult> {
  await ensureCartStarted();
  if (snapshot.mode === "account") {
    // One tap, one key.
    return changeAccount(null, () =>
      sendTap<PricedCart>("/cart/items", { id: item.id, kind: item.kind, quantity: item.quantity ?? 1 }),
    );
  }
  if (snapshot.mode === "starting") return { ok: false, message: snapshot.loadError ?? "Please try again." };
  const { entries, added } = addEntry(
    guestEntries,
    { id: item.id, kind: item.kind, name: item.name },
    item.quantity ?? 1,
  );
  if (!added) return { ok: false, message: `You already have the most we allow of ${item.name} (99).` };
  return changeGuest(entries);
}

/** 1 to 99; 0 removes the line. */
export function changeQuantity(id: string, quantity: number): Promise<CartResult> {
  if (quantity === 0) return removeItem(id);
  if (snapshot.mode === "account") {
    return changeAccount(
      (lines) => lines.map((line) => (line.id === id ? { ...line, quantity } : line)),
      () => api<PricedCart>(`/cart/items/${encodeURIComponent(id)}`, { method: "PUT", body: { quantity } }),
    );
  }
  return changeGuest(setEntryQuantity(guestEntries, id, quantity));
}

export function removeItem(id: string): Promise<CartResult> {
  if (snapshot.mode === "account") {
    return changeAccount(
      (lines) => lines.filter((line) => line.id !== id),
      () => api<PricedCart>(`/cart/items/${encodeURIComponent(id)}`, { method: "DELETE" }),
    );
  }
  return changeGuest(removeEntry(guestEntries, id));
}

export function clearItems(): Promise<CartResult> {
  if (snapshot.mode === "account") {
    return changeAccount(
      () => [],
      () => api<PricedCart>("/cart/items", { method: "DELETE" }),
    );
  }
  return changeGuest([]);
}

/** Spec 5. Signed in, the server records the use for the account; signed out, the session store does. */
export async function applyDiscountCode(code: string): Promise<CartResult> {
  try {
    if (snapshot.mode === "account") {
      // A used code is refused (spec 5): the apply whose answer was lost is sent again under its key, and
      // answered as it was.
      const { message, cart } = await enqueue(() =>
        sendTap<{ message: string; cart: PricedCart }>("/discounts/apply", { code }),
      );
      publish({ cart, notice: null });
      return { ok: true, message };
    }
    const { message, cart } = await api<{ message: string; cart: PricedCart }>("/discounts/apply", {
      method: "POST",
      body: {
        code,
        items: guestEntries.map(({ id, kind, quantity }) => ({ id, kind, quantity })),
        usedCodes: readUsedCodes(),
      },
    });
    const applied = cart.discount?.code ?? code.trim().toUpperCase();
    // Spec 4: applying marks the code used at once, so removing it later does not free it.
    addUsedCode(applied);
    writeAppliedCode(applied);
    publish({ cart: guestCartNow(cart), notice: null });
    return { ok: true, message };
  } catch (error) {
    return {
      ok: false,
      message: isApiError(error) ? error.message : "Something went wrong. Please try again.",
    };
  }
}

export function removeDiscountCode(): Promise<CartResult> {
  if (snapshot.mode === "account") {
    return changeAccount(null, () => api<PricedCart>("/discounts/applied", { method: "DELETE" }));
  }
  writeAppliedCode(null);
  publish({ cart: guestCartNow(snapshot.cart), notice: null });
  return Promise.resolve({ ok: true });
}

// ---- Following changes made elsewhere

let stream: EventSource | undefined;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
let following = false;
let guestTimer: ReturnType<typeof setInterval> | undefined;

/** What the stream (or /api/cart/version) says against what this tab shows: load what moved on. */
async function follow(info: VersionInfo) {
  if (starting) return;
  try {
    if (snapshot.mode === "starting" || info.userId !== snapshot.userId) {
      await enqueue(() => syncSession(info));
    } else if (info.userId && info.version !== snapshot.cart.version && pendingChanges === 0) {
      await enqueue(refreshAccount);
    }
  } catch {
    // Offline or the server restarting: the stream's next message tries again.
  }
}

async function refetch() {
  try {
    await follow(await api<VersionInfo>("/cart/version"));
  } catch {
    // As above.
  }
}

/**
 * A visible tab holds one server-sent-events stream (docs/decisions/069): its first message is who is signed
 * in and the cart's version, then each new version. A hidden tab closes it and asks for nothing.
 */
function openStream() {
  if (stream || !following || document.visibilityState !== "visible") return;
  const source = new EventSource("/api/cart/events");
  stream = source;
  source.addEventListener("cart", (event) => {
    void follow(JSON.parse((event as MessageEvent<string>).data) as VersionInfo);
  });
  source.addEventListener("refetch", () => void refetch());
  source.addEventListener("error", () => {
    // The browser reconnects by itself after a dropped connection; after an error answer (a 503 while the
    // database is away) it gives up, so the tab opens a new stream a little later.
    if (source.readyState !== EventSource.CLOSED || stream !== source) return;
    stream = undefined;
    clearTimeout(reopenTimer);
    reopenTimer = setTimeout(openStream, STREAM_RETRY_MS);
  });
}

function closeStream() {
  clearTimeout(reopenTimer);
  stream?.close();
  stream = undefined;
}

function onVisibilityChange() {
  if (document.visibilityState === "visible") openStream();
  else closeStream();
}

function checkGuest() {
  if (snapshot.userId === null && !starting && document.visibilityState === "visible") void refetch();
}

function startFollowing() {
  following = true;
  openStream();
  guestTimer = setInterval(checkGuest, GUEST_CHECK_MS);
  document.addEventListener("visibilitychange", onVisibilityChange);
  window.addEventListener("storage", onStorage);
}

function stopFollowing() {
  following = false;
  closeStream();
  clearInterval(guestTimer);
  document.removeEventListener("visibilitychange", onVisibilityChange);
  window.removeEventListener("storage", onStorage);
}
