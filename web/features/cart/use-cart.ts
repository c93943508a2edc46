import { useSyncExternalStore } from "react";
import { type CartSnapshot, getCartSnapshot, subscribeCart } from "./cart-store.ts";

/** The live cart: re-renders when it changes here, in another tab, or on another signed-in device. */
export function useCart(): CartSnapshot {
  return useSyncExternalStore(subscribeCart, getCartSnapshot, getCartSnapshot);
}
