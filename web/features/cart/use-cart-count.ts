import { useSyncExternalStore } from "react";
import { getCartSnapshot, subscribeCart } from "./cart-store.ts";

const getCount = () => getCartSnapshot().count;

/** The header badge: total quantity in the cart, kept current across tabs and devices. */
export function useCartCount(): number {
  return useSyncExternalStore(subscribeCart, getCount, getCount);
}
