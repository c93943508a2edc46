import { ensureCartStarted } from "../features/cart/cart-store.ts";
import { CartView } from "../features/cart/cart-view.tsx";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

/** The cart is live client state (other tabs and devices change it); the loader has it ready before the first paint. */
export async function loader() {
  await ensureCartStarted();
  return null;
}

export function Component() {
  return <CartView />;
}

export const handle: RouteHandle = { meta: privatePage("Your cart") };
