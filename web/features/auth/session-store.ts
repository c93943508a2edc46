import { useSyncExternalStore } from "react";
import type { SessionUser } from "../../../common/account.ts";
import { api } from "../../lib/api.ts";
import { fetchSessionUser } from "../../lib/session-user.ts";

// The header needs only who is signed in; Better Auth's own client (about 14 kB) stays in the sign-in
// screens, so every first visit does not download it.
let user: SessionUser | null | undefined; // undefined: not known yet
const listeners = new Set<() => void>();
let inFlight: Promise<void> | undefined;

function publish(next: SessionUser | null) {
  user = next;
  for (const listener of listeners) listener();
}

/** Asks the server again; sign-in, sign-out and account deletion all end in a navigation that calls this. */
export function refreshSession(): Promise<void> {
  inFlight ??= fetchSessionUser()
    .then(publish, () => publish(user ?? null))
    .finally(() => {
      inFlight = undefined;
    });
  return inFlight;
}

export async function signOut() {
  await api("/auth/sign-out", { method: "POST", body: {} });
  publish(null);
}

// Signing in or out in another tab shows here as soon as the visitor comes back to this one.
function onVisibilityChange() {
  if (document.visibilityState === "visible") void refreshSession();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) document.addEventListener("visibilitychange", onVisibilityChange);
  if (user === undefined) void refreshSession();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) document.removeEventListener("visibilitychange", onVisibilityChange);
  };
}

/** The signed-in user, null when signed out, undefined until the first answer. */
export function useSessionUser(): SessionUser | null | undefined {
  return useSyncExternalStore(
    subscribe,
    () => user,
    () => undefined,
  );
}
