import { useState } from "react";
import { COURIERS } from "../../../common/couriers.ts";
import type { AdminOrderDetail } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { type OrderPanelDone, useAdminOrderChange } from "./admin-order-change.ts";

/**
 * The courier and tracking number of an order shipped by hand, corrected after the fact. A parcel booked
 * through the aggregator keeps its courier and AWB from the booking, so it has no such panel.
 */
export function AdminCourierDetailsPanel({
  order,
  onDone,
}: {
  order: Pick<AdminOrderDetail, "number" | "courier" | "trackingNumber">;
  onDone: OrderPanelDone;
}) {
  const { busy, send } = useAdminOrderChange(order.number, onDone);
  return (
    <section aria-labelledby="tracking-heading" className={cardClass}>
      <h2 id="tracking-heading" className="font-serif text-xl font-semibold">
        Correct courier details
      </h2>
      {/* Keyed by what is saved: the fields start from the order as it is now, also right after it was
          shipped or delivered on this page (they used to stay empty until a reload). */}
      <CourierDetailsForm
        key={`${order.courier ?? ""}|${order.trackingNumber ?? ""}`}
        order={order}
        busy={busy}
        onSave={(details) => send("tracking", "PUT", details, "Courier details saved.")}
      />
    </section>
  );
}

function CourierDetailsForm({
  order,
  busy,
  onSave,
}: {
  order: Pick<AdminOrderDetail, "courier" | "trackingNumber">;
  busy: boolean;
  onSave: (details: { courier: string; trackingNumber: string }) => void;
}) {
  const [courier, setCourier] = useState(order.courier ?? "");
  const [tracking, setTracking] = useState(order.trackingNumber ?? "");
  return (
    <form
      className="mt-2 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSave({ courier: courier.trim(), trackingNumber: tracking.trim() });
      }}
    >
      <Field label="Courier">
        <Input
          list="couriers"
          required
          value={courier}
          onChange={(event) => setCourier(event.target.value)}
        />
      </Field>
      <datalist id="couriers">
        {COURIERS.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <Field label="Tracking number">
        <Input required value={tracking} onChange={(event) => setTracking(event.target.value)} />
      </Field>
      <Button type="submit" variant="secondary" disabled={busy}>
        Save courier details
      </Button>
    </form>
  );
}
