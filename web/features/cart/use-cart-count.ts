import { useEffect, useSyncExternalStore } from "react";
import { getCartCount, subscribeCartCount } from "./cart-count.ts";
import { CART_KEY } from "./storage-keys.ts";

// The cart store (validation, pricing, sync with the server) is downloaded only when there is a cart to
// follow: a signed-in shopper's, a saved guest cart, or the first Add to cart (which loads it itself).
// A first visit that only looks around never waits for it.
let following = false;
function followCart() {
  if (following) return;
  following = true;
  // The header is mounted for the whole visit; its subscription keeps the store in sync with other
  // tabs and devices (the store publishes the count to cart-count.ts itself).
  import("./cart-store.ts").then(
    ({ subscribeCart }) => subscribeCart(() => undefined),
    (error) => {
      console.error("The cart could not be loaded.", error);
      following = false;
    },
  );
}

function hasSavedGuestCart(): boolean {
  try {
    return window.localStorage.getItem(CART_KEY) !== null;
  } catch {
    return false; // storage blocked: there is no saved cart to show
  }
}

/** The header badge: total quantity in the cart, kept current across tabs and devices. */
export function useCartCount({ signedIn }: { signedIn: boolean }): number {
  const count = useSyncExternalStore(subscribeCartCount, getCartCount, () => 0);
  const needed = signedIn || count > 0 || hasSavedGuestCart();

  useEffect(() => {
    if (needed) followCart();
  }, [needed]);

  useEffect(() => {
    // Another tab of this browser started a guest cart.
    const onStorage = (event: StorageEvent) => {
      if (event.key === CART_KEY && event.newValue !== null) followCart();
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  return count;
}
