import { useState } from "react";
import type { ResultMessageState } from "../../components/result-message.tsx";
import { api, isApiError } from "../../lib/api.ts";

/** What a panel of the admin's order page reports to the page: said at its top, then the order is read again. */
export type OrderPanelDone = (result: ResultMessageState) => void;

/**
 * A change staff make to one order from its admin page (a status, the courier's details): `busy` while it is
 * out; the outcome, in words, goes to the page's one message. Resolves true when the change was made.
 */
export function useAdminOrderChange(number: string, onDone: OrderPanelDone) {
  const [busy, setBusy] = useState(false);
  async function send(path: string, method: "POST" | "PUT", body: Record<string, unknown>, done: string) {
    setBusy(true);
    try {
      await api(`/admin/orders/${number}/${path}`, { method, body });
      onDone({ kind: "ok", text: done });
      return true;
    } catch (caught) {
      onDone({ kind: "error", text: isApiError(caught) ? caught.message : "Something went wrong." });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, send };
}
