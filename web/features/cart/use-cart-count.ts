import { useSyncExternalStore } from "react";

// The cart store (validation, pricing, sync with the server) is loaded once the page is up, so it stays
// out of the bundle every first visit waits for; the header badge follows it from then on.
let count = 0;
const listeners = new Set<() => void>();
let watching = false;

function subscribe(listener: () => void) {
  listeners.add(listener);
  // The header is mounted for the whole visit, so the store is watched for the whole visit too.
  if (!watching) {
    watching = true;
    void import("./cart-store.ts").then(({ getCartSnapshot, subscribeCart }) => {
      const update = () => {
        count = getCartSnapshot().count;
        for (const notify of listeners) notify();
      };
      subscribeCart(update);
      update();
    });
  }
  return () => {
    listeners.delete(listener);
  };
}

/** The header badge: total quantity in the cart, kept current across tabs and devices. */
export function useCartCount(): number {
  return useSyncExternalStore(
    subscribe,
    () => count,
    () => 0,
  );
}
