import { type FormEvent, useState } from "react";
import { Link, useRevalidator } from "react-router";
import { CONFIRM_HOURS_MAX, type ToConfirmRow } from "../../../common/cod-confirm.ts";
import { formatMobile } from "../../../common/india.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { formatRupees } from "../../../common/money.ts";
import { Button, buttonClass } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { ResultMessage, type ResultMessageState } from "../../components/result-message.tsx";
import { api, isApiError } from "../../lib/api.ts";

/** The waiting orders, soonest deadline first, each with a call link and Confirm / Cancel. */
export function ToConfirmOrders({ orders }: { orders: ToConfirmRow[] }) {
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);

  async function act(number: string, action: "confirm" | "cancel") {
    setBusy(number);
    setMessage(null);
    try {
      await api(`/admin/cod-confirm/${number}/${action}`, { method: "POST", body: {} });
      setMessage({
        kind: "ok",
        text:
          action === "confirm"
            ? `${number} is confirmed and goes to packing.`
            : `${number} is cancelled; its stock is back and the shopper is told.`,
      });
      setAsking(null);
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: isApiError(caught) ? caught.message : "Something went wrong." });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="to-confirm-heading" className="mt-6">
      <h2 id="to-confirm-heading" className="font-serif text-xl font-semibold">
        Waiting ({orders.length})
      </h2>
      <ResultMessage message={message} />
      {orders.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Nothing to confirm: every cash-on-delivery order has been answered.
        </p>
      ) : (
        <ul className="mt-3 space-y-3">
          {orders.map((order) => (
            <li key={order.number} className={cardClass} aria-label={`Order ${order.number}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <Link to={`/admin/orders/${order.number}`} className="font-mono font-medium underline">
                  {order.number}
                </Link>
                <span className="font-semibold tabular-nums">{formatRupees(order.totalPaise)}</span>
              </div>
              <p className="mt-1 break-words text-sm text-stone-700 dark:text-stone-300">
                {order.name} · {order.city}, {order.state} {order.pin} · {order.items}{" "}
                {order.items === 1 ? "item" : "items"}
              </p>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                Placed {formatDateTime(order.placedAt)} · cancelled at {formatDateTime(order.confirmBy)}{" "}
                unless confirmed
              </p>
              {order.payingOnlineSince ? (
                <p className="mt-1 text-sm font-medium text-amber-800 dark:text-amber-300">
                  The shopper is paying online (since {formatDateTime(order.payingOnlineSince)}): wait for the
                  payment before confirming or changing the order.
                </p>
              ) : null}
              {order.whatsapp?.status === "failed" && (
                <p className="mt-1 text-sm font-medium text-red-800 dark:text-red-300">
                  {order.neverReached
                    ? "Never reached: WhatsApp could not deliver the question and no SMS can carry it. Call them."
                    : "WhatsApp could not deliver the question; it was sent again by SMS."}
                  {order.whatsapp.error ? ` (${order.whatsapp.error})` : ""}
                </p>
              )}
              <div className="mt-3 flex flex-wrap gap-2">
                <a
                  href={`tel:+91${order.phone}`}
                  className={`${buttonClass({ variant: "secondary" })} min-h-11`}
                >
                  Call {formatMobile(order.phone)}
                </a>
                <Button disabled={busy !== null} onClick={() => act(order.number, "confirm")}>
                  {busy === order.number ? "Saving…" : "Confirm"}
                </Button>
                {asking === order.number ? (
                  <>
                    <Button
                      variant="danger-outline"
                      disabled={busy !== null}
                      onClick={() => act(order.number, "cancel")}
                    >
                      Yes, cancel {order.number}
                    </Button>
                    <Button variant="secondary" onClick={() => setAsking(null)}>
                      Keep it
                    </Button>
                  </>
                ) : (
                  <Button
                    variant="secondary"
                    disabled={busy !== null}
                    onClick={() => setAsking(order.number)}
                  >
                    Cancel…
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The owner's hours: how long a cash-on-delivery order waits for its confirmation. */
export function ConfirmHoursForm({ hours }: { hours: number }) {
  const revalidator = useRevalidator();
  const [value, setValue] = useState(String(hours));
  const [message, setMessage] = useState<ResultMessageState | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setMessage(null);
    try {
      const saved = await api<{ confirmHours: number }>("/admin/cod-confirm/settings", {
        method: "PUT",
        body: { confirmHours: Number(value) },
      });
      setMessage({
        kind: "ok",
        text: `Saved: orders placed from now on wait ${saved.confirmHours} hours for confirmation.`,
      });
      revalidator.revalidate();
    } catch (caught) {
      setMessage({ kind: "error", text: isApiError(caught) ? caught.message : "Something went wrong." });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={save} className={`${cardClass} mt-4 max-w-md`} aria-label="Hours to confirm">
      <label htmlFor="confirm-hours" className="text-sm font-medium">
        Hours a shopper has to confirm
      </label>
      <div className="flex items-end gap-2">
        <input
          id="confirm-hours"
          type="number"
          inputMode="numeric"
          min={1}
          max={CONFIRM_HOURS_MAX}
          required
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className="mt-1 block w-28 rounded-md border border-stone-300 bg-white px-3 py-2 text-stone-900 dark:border-stone-600 dark:bg-stone-800 dark:text-stone-100"
        />
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
      </div>
      <ResultMessage message={message} />
    </form>
  );
}
