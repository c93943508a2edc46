import { useState } from "react";
import { formatRupees } from "../../../common/money.ts";
import type { AdminOrderDetail } from "../../../common/orders.ts";
import type { AddressInput } from "../../../common/schemas/address.ts";
import { EDIT_MAX_QUANTITY, type OrderEditResult } from "../../../common/schemas/order-edit.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Notice } from "../../components/notice.tsx";
import { QuantityInput } from "../../components/quantity-input.tsx";
import type { ResultMessageState } from "../../components/result-message.tsx";
import { api } from "../../lib/api.ts";
import { useRequest } from "../../lib/use-request.ts";
import { AddItemPicker } from "./add-item-picker.tsx";
import { AddressForm } from "./address-form.tsx";

type Done = (message: ResultMessageState) => void;

/** Each editor's part: the order, what to say when it saved, and closing it. */
type EditorProps = { order: AdminOrderDetail; onDone: Done; onClose: () => void };

const said = (result: OrderEditResult): ResultMessageState => ({
  kind: "ok",
  text: result.changed ? `${result.summary} The customer is being told what changed.` : result.summary,
});

/** The order's address, corrected by staff: the checkout's form, checked by the server as checkout is. */
function AddressEditor({ order, onDone, onClose }: EditorProps) {
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

type EditedLine = {
  itemId: string;
  kind: "product" | "combo";
  name: string;
  quantity: number;
  unitPricePaise: number;
  /** Added in this edit: priced at today's price, where the order's own lines keep theirs. */
  added: boolean;
};

const lineKey = (line: { kind: string; itemId: string }) => `${line.kind}:${line.itemId}`;

/**
 * Quantities of the order's lines, a line removed with its button, a product or combo added from the
 * catalogue; sent as the whole list.
 */
function ItemsEditor({ order, onDone, onClose }: EditorProps) {
  const [lines, setLines] = useState<EditedLine[]>(
    order.lines.map(({ itemId, kind, name, quantity, unitPricePaise }) => ({
      itemId,
      kind,
      name,
      quantity,
      unitPricePaise,
      added: false,
    })),
  );
  const { busy, error, run } = useRequest();
  const [addedNote, setAddedNote] = useState("");
  const unchanged =
    lines.length === order.lines.length &&
    lines.every(
      (line) => order.lines.find((old) => lineKey(old) === lineKey(line))?.quantity === line.quantity,
    );
  const setLine = (key: string, change: (line: EditedLine) => EditedLine | null) =>
    setLines((current) =>
      current.flatMap((each) => {
        if (lineKey(each) !== key) return [each];
        const changed = change(each);
        return changed ? [changed] : [];
      }),
    );

  async function save() {
    await run(async () => {
      const { result } = await api<{ result: OrderEditResult }>(`/admin/orders/${order.number}/items`, {
        method: "PUT",
        body: { lines: lines.map(({ itemId, kind, quantity }) => ({ itemId, kind, quantity })) },
      });
      onDone(said(result));
      onClose();
    });
  }

  return (
    <div className="space-y-3">
      <ul className="divide-y divide-stone-200 dark:divide-stone-700">
        {lines.map((line) => (
          <li key={lineKey(line)} className="py-3">
            <p className="font-medium break-words">
              {line.name}
              {line.added && (
                <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs font-medium text-brand-800 dark:bg-brand-900/40 dark:text-brand-100">
                  New
                </span>
              )}
            </p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {formatRupees(line.unitPricePaise)} each, {line.added ? "today's price" : "as ordered"}
            </p>
            <div className="mt-2 flex flex-wrap items-end gap-3">
              <QuantityInput
                label={`Quantity of ${line.name}`}
                value={line.quantity}
                min={1}
                max={EDIT_MAX_QUANTITY}
                onChange={(quantity) => setLine(lineKey(line), (each) => ({ ...each, quantity }))}
              />
              <Button
                variant="secondary"
                disabled={lines.length === 1}
                aria-label={`Remove ${line.name}`}
                onClick={() => {
                  setLine(lineKey(line), () => null);
                  setAddedNote(`${line.name} is taken off the list. Save items to change the order.`);
                }}
              >
                Remove
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <AddItemPicker
        taken={new Set(lines.map(lineKey))}
        onPick={(item) => {
          setLines((current) => [...current, { ...item, quantity: 1, added: true }]);
          setAddedNote(`${item.name} is added, 1 unit. Set its quantity, then save items.`);
        }}
      />
      <p className="text-sm text-stone-700 dark:text-stone-300" aria-live="polite">
        {addedNote}
      </p>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        The total, discount and shipping are worked out again when you save; stock follows the change.
      </p>
      {error && <Notice tone="error">{error}</Notice>}
      <div className="flex flex-wrap gap-2">
        <Button disabled={busy || unchanged} onClick={save}>
          {busy ? "Saving…" : "Save items"}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/**
 * "Change the order", on the order page while it is placed or confirmed (docs/decisions/061): the address and
 * the items. An invoiced order is invoiced again (docs/decisions/087). What came of it is said by the page
 * (`onDone`).
 */
export function OrderEditPanel({ order, onDone }: { order: AdminOrderDetail; onDone: Done }) {
  const [open, setOpen] = useState<"address" | "items" | null>(null);
  return (
    <section aria-labelledby="edit-heading" className={cardClass}>
      <h2 id="edit-heading" className="font-serif text-xl font-semibold">
        Change the order
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Until it is packed. The customer is told what changed, and the history records it.
        {order.documents.invoice &&
          ` Invoice ${order.documents.invoice} is issued: a change of items, or of the state it goes to, reverses it with a credit note and issues a new one.`}
      </p>
      {open === null && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setOpen("address")}>
            Change address
          </Button>
          <Button variant="secondary" onClick={() => setOpen("items")}>
            Change items
          </Button>
        </div>
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
