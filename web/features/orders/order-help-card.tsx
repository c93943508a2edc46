import type { OrderDetail } from "../../../common/orders.ts";
import { Button } from "../../components/button.tsx";
import { cardClass } from "../../components/card.tsx";

/**
 * "Need to change something?" on the shopper's order page, signed in or by a guest's link: cancelling while
 * the order allows it, and asking for a return after delivery where the page offers it (`onReturn`), each
 * with the reason when it no longer can. Nothing is drawn when there is nothing to offer or explain.
 */
export function OrderHelpCard({
  actions,
  onCancel,
  onReturn,
}: {
  actions: OrderDetail["actions"];
  onCancel: () => void;
  /** Given where a return can be asked for from this page (an account's order). */
  onReturn?: () => void;
}) {
  const { cancel, requestReturn } = actions;
  const returns = onReturn !== undefined;
  if (!cancel.allowed && !cancel.reason && !(returns && (requestReturn.allowed || requestReturn.reason))) {
    return null;
  }
  return (
    <section aria-labelledby="help-heading" className={cardClass}>
      <h2 id="help-heading" className="font-serif text-xl font-semibold">
        Need to change something?
      </h2>
      {cancel.allowed && (
        <Button type="button" variant="secondary" className="mt-3" onClick={onCancel}>
          Cancel order
        </Button>
      )}
      {cancel.reason && <p className="mt-2 text-sm">{cancel.reason}</p>}
      {returns && requestReturn.allowed && (
        <>
          <p className="mt-2 text-sm">
            If something arrived damaged, defective or not as shown, tell us within 6 days of delivery.
          </p>
          <Button type="button" variant="secondary" className="mt-3" onClick={onReturn}>
            Request return
          </Button>
        </>
      )}
      {returns && requestReturn.reason && <p className="mt-2 text-sm">{requestReturn.reason}</p>}
    </section>
  );
}
