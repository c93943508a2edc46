import { type FormEvent, useState } from "react";
import { formatDateTime } from "../../../common/india-time.ts";
import { formatRupees, rupeesToPaise } from "../../../common/money.ts";
import type { OrderStatus } from "../../../common/order-lifecycle.ts";
import type { OrderRtoView } from "../../../common/rto.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";
import { Field, Input } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";
import { api, isApiError } from "../../lib/api.ts";
import { useRequest } from "../../lib/use-request.ts";

/**
 * A shipped parcel refused or undeliverable: staff record it returned to origin with what it cost both ways,
 * then mark it received when it is back on the shelf (stock restored once). docs/decisions/062.
 */
export function RtoPanel({
  number,
  status,
  rto,
  chargesPaise,
  receivedElsewhere,
  onChanged,
}: {
  number: string;
  status: OrderStatus;
  rto: OrderRtoView | null;
  chargesPaise: number | null;
  /** The parcel panel already offers "Mark received back" for this parcel. */
  receivedElsewhere: boolean;
  onChanged: (text: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const { busy, error, run } = useRequest((caught) =>
    isApiError(caught) ? caught.message : "Could not save. Check your connection and try again.",
  );
  if (status !== "shipped" && status !== "returned_to_origin") return null;

  async function send(path: string, body: unknown, done: string) {
    await run(async () => {
      await api(`/admin/rto/orders/${encodeURIComponent(number)}${path}`, { method: "POST", body });
      setOpen(false);
      onChanged(done);
    });
  }

  function record(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const rupees = (name: string) => rupeesToPaise(Number(data.get(name) || 0));
    void send(
      "",
      {
        forwardPaise: rupees("forward"),
        returnPaise: rupees("return"),
        note: String(data.get("note") ?? "").trim() || undefined,
      },
      "Recorded as returned to origin. Mark it received when the parcel is back on the shelf.",
    );
  }

  const charges = chargesPaise === null ? "" : String(chargesPaise / 100);
  return (
    <section aria-labelledby="rto-heading" className={cardClass}>
      {/* "Return", not "Returned": a return the courier has only started is recorded here too. */}
      <h2 id="rto-heading" className="font-serif text-xl font-semibold">
        Return to origin
      </h2>
      {rto ? (
        <div className="mt-2 space-y-2 text-sm">
          <p>
            Recorded {formatDateTime(rto.recordedAt)}{" "}
            {rto.source === "tracking" ? "from the courier's scans" : "by staff"}. Shipping out{" "}
            {formatRupees(rto.forwardPaise)}, back {formatRupees(rto.returnPaise)}:{" "}
            <strong>{formatRupees(rto.forwardPaise + rto.returnPaise)}</strong> spent.
          </p>
          {rto.receivedAt ? (
            <p>Received back {formatDateTime(rto.receivedAt)}; its stock is back on the shelf.</p>
          ) : receivedElsewhere ? (
            <p>Mark the parcel received back in the parcel's panel above once it is with you.</p>
          ) : (
            <div className="rounded-md bg-amber-50 p-3 text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
              <p>
                When the parcel is back with you, unopened, mark it received: its stock goes back on the
                shelf.
              </p>
              <Button
                type="button"
                disabled={busy}
                className="mt-2"
                onClick={() => void send("/received", undefined, "Parcel received back; stock restored.")}
              >
                Mark received back
              </Button>
            </div>
          )}
        </div>
      ) : open ? (
        <form
          onSubmit={record}
          className="mt-2 grid gap-3 sm:grid-cols-2"
          aria-label="Record a return to origin"
        >
          <Field label="Shipping out (₹)">
            <Input name="forward" type="number" min="0" step="0.01" required defaultValue={charges} />
          </Field>
          <Field label="Shipping back (₹)">
            <Input name="return" type="number" min="0" step="0.01" required defaultValue={charges} />
          </Field>
          <Field label="Why it came back (optional)" className="sm:col-span-2">
            <Input name="note" maxLength={300} placeholder="Refused at the door" />
          </Field>
          <div className="flex flex-wrap gap-2 sm:col-span-2">
            <Button type="submit" disabled={busy}>
              Record return to origin
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Keep as shipped
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-2 text-sm">
          <p>Refused or undeliverable, and coming back at the shop's cost? Record it with what it cost.</p>
          <Button type="button" variant="secondary" className="mt-2" onClick={() => setOpen(true)}>
            Record a return to origin…
          </Button>
        </div>
      )}
      {error && (
        <Notice tone="error" className="mt-3">
          {error}
        </Notice>
      )}
    </section>
  );
}
