import { useSyncExternalStore } from "react";

/**
 * The header's one source for the cart's item count. It reads the guest cart the spec keeps in
 * local storage (key "cart": the items, each with a quantity); the cart feature replaces this
 * hook with its own store, and nothing else in the header changes.
 */
export const CART_STORAGE_KEY = "cart";

function readCount(): number {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(CART_STORAGE_KEY) ?? "[]");
    const items = Array.isArray(stored) ? stored : (stored as { items?: unknown })?.items;
    if (!Array.isArray(items)) return 0;
    return items.reduce((sum: number, item) => {
      const quantity = Number((item as { quantity?: unknown })?.quantity);
      return Number.isInteger(quantity) && quantity > 0 ? sum + quantity : sum;
    }, 0);
  } catch {
    return 0; // a cart that cannot be read counts as empty, as the spec's cart does
  }
}

function subscribe(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === CART_STORAGE_KEY || event.key === null) onChange();
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

export function useCartCount(): number {
  return useSyncExternalStore(subscribe, readCount, () => 0);
}
