import { useState } from "react";
import { formatRupees } from "../../../common/money.ts";
import type { AdminOrderDetail } from "../../../common/orders.ts";
import type { AddressInput } from "../../../common/schemas/address.ts";
import { EDIT_MAX_QUANTITY, type OrderEditResult } from "../../../common/schemas/order-edit.ts";
import { buttonClass } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { QuantityInput } from "../../components/quantity-input.tsx";
import type { ResultMessageState } from "../../components/result-message.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { AddressForm } from "./address-form.tsx";

type Done = (message: ResultMessageState) => void;

const said = (result: OrderEditResult): ResultMessageState => ({
  kind: "ok",
  text: result.changed ? `${result.summary} The customer is being told what changed.` : result.summary,
});

/** The order's address, corrected by staff: the checkout's form, checked by the server as checkout is. */
function AddressEditor({
  order,
  onDone,
  onClose,
}: {
  order: AdminOrderDetail;
  onDone: Done;
  onClose: () => void;
}) {
  const initial: AddressInput = {
    name: order.address.name,
    phone: order.address.phone,
    line1: order.address.line1,
    line2: order.address.line2 ?? "",
    city: order.address.city,
    district: order.address.district ?? "",
    state: order.address.state,
    pin: order.address.pin,
  };
  return (
    <AddressForm
      initial={initial}
      formLabel="Delivery address of this order"
      submitLabel="Save address"
      onCancel={onClose}
      submitTo={async (address) => {
        const { result } = await api<{ result: OrderEditResult }>(`/admin/orders/${order.number}/address`, {
          method: "PUT",
          body: address,
        });
        onDone(said(result));
        onClose();
      }}
    />
  );
}

/** Quantities of the order's lines, a line removed with its button; sent as the whole list. */
function ItemsEditor({
  order,
  onDone,
  onClose,
}: {
  order: AdminOrderDetail;
  onDone: Done;
  onClose: () => void;
}) {
  const [lines, setLines] = useState(
    order.lines.map(({ itemId, kind, name, quantity, unitPricePaise }) => ({
      itemId,
      kind,
      name,
      quantity,
      unitPricePaise,
    })),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unchanged =
    lines.length === order.lines.length &&
    lines.every((line) => order.lines.find((old) => old.itemId === line.itemId)?.quantity === line.quantity);

  async function save() {
    setBusy(true);
    setError(null);
    try {
      const { result } = await api<{ result: OrderEditResult }>(`/admin/orders/${order.number}/items`, {
        method: "PUT",
        body: { lines: lines.map(({ itemId, kind, quantity }) => ({ itemId, kind, quantity })) },
      });
      onDone(said(result));
      onClose();
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : "Something went wrong. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <ul className="divide-y divide-stone-200 dark:divide-stone-700">
        {lines.map((line) => (
          <li key={line.itemId} className="py-3">
            <p className="font-medium break-words">{line.name}</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {formatRupees(line.unitPricePaise)} each, as ordered
            </p>
            <div className="mt-2 flex flex-wrap items-end gap-3">
              <QuantityInput
                label={`Quantity of ${line.name}`}
                value={line.quantity}
                min={1}
                max={EDIT_MAX_QUANTITY}
                onChange={(quantity) =>
                  setLines((current) =>
                    current.map((each) => (each.itemId === line.itemId ? { ...each, quantity } : each)),
                  )
                }
              />
              <button
                type="button"
                className={buttonClass({ variant: "secondary" })}
                disabled={lines.length === 1}
                onClick={() => setLines((current) => current.filter((each) => each.itemId !== line.itemId))}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        The total, discount and shipping are worked out again when you save; stock follows the change.
      </p>
      {error && (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-900/30 dark:text-red-200"
        >
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass()} disabled={busy || unchanged} onClick={save}>
          {busy ? "Saving…" : "Save items"}
        </button>
        <button type="button" className={buttonClass({ variant: "secondary" })} onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * "Change the order", on the order page while it is placed or confirmed (docs/decisions/061): the address,
 * and the items while no invoice is issued. What came of it is said by the page (`onDone`).
 */
export function OrderEditPanel({ order, onDone }: { order: AdminOrderDetail; onDone: Done }) {
  const [open, setOpen] = useState<"address" | "items" | null>(null);
  const itemsLocked = order.documents.invoice !== null;
  return (
    <section aria-labelledby="edit-heading" className={cardClass}>
      <h2 id="edit-heading" className="font-serif text-xl font-semibold">
        Change the order
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Until it is packed. The customer is told what changed, and the history records it.
      </p>
      {open === null && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonClass({ variant: "secondary" })}
            onClick={() => setOpen("address")}
          >
            Change address
          </button>
          {!itemsLocked && (
            <button
              type="button"
              className={buttonClass({ variant: "secondary" })}
              onClick={() => setOpen("items")}
            >
              Change items
            </button>
          )}
        </div>
      )}
      {itemsLocked && open === null && (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Items cannot change: invoice {order.documents.invoice} is issued. Cancel the order and place a new
          one instead.
        </p>
      )}
      {open === "address" && (
        <div className="mt-3">
          <AddressEditor order={order} onDone={onDone} onClose={() => setOpen(null)} />
        </div>
      )}
      {open === "items" && (
        <div className="mt-3">
          <ItemsEditor order={order} onDone={onDone} onClose={() => setOpen(null)} />
        </div>
      )}
    </section>
  );
}
