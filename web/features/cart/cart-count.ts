// The header badge's number, apart from the cart store so the badge can show before (or without) the
// store being downloaded. The store publishes here on every change, whoever loaded it.
let count = 0;
const listeners = new Set<() => void>();

export function publishCartCount(next: number) {
  if (next === count) return;
  count = next;
  for (const listener of listeners) listener();
}

export const getCartCount = () => count;

export function subscribeCartCount(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
