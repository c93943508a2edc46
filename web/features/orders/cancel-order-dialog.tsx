import { useState } from "react";
import { formatRupees } from "../../../common/money.ts";
import type { OrderDetail } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { Field, Textarea } from "../../components/field.tsx";
import { useRequest } from "../../lib/use-request.ts";

/**
 * "Cancel order?" with an optional reason, for the customer's and the guest's order pages alike;
 * `cancel` sends it (to the account's or the signed link's endpoint) and rejects with what to show.
 */
export function CancelOrderDialog({
  order,
  open,
  onClose,
  cancel,
}: {
  order: Pick<OrderDetail, "number" | "paidAt" | "totalPaise">;
  open: boolean;
  onClose: () => void;
  cancel: (reason: string | undefined) => Promise<void>;
}) {
  const [reason, setReason] = useState("");
  const { busy, error, run } = useRequest();

  async function confirm() {
    await run(async () => {
      await cancel(reason.trim() || undefined);
      setReason("");
    });
  }

  return (
    <Dialog open={open} title={`Cancel order ${order.number}?`} onClose={onClose}>
      <p className="text-sm">
        {order.paidAt
          ? `The ${formatRupees(order.totalPaise)} you paid is refunded to your original payment method within 6-8 days.`
          : "Nothing will be charged."}
      </p>
      <Field id="cancel-reason" label="Reason (optional)" className="mt-3">
        <Textarea
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={2}
          maxLength={500}
        />
      </Field>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onClose}>
          Keep order
        </Button>
        <Button type="button" variant="danger" disabled={busy} onClick={confirm}>
          {busy ? "Cancelling…" : "Cancel order"}
        </Button>
      </div>
    </Dialog>
  );
}
