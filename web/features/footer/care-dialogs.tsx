import { Link } from "react-router";
import { phoneHref, type ShopConfig } from "../../../common/shop-config.ts";
import { Dialog } from "../../components/dialog.tsx";

type CareDialogProps = { open: boolean; onClose: () => void; config: ShopConfig };

const linkClass = "font-medium text-brand-700 underline underline-offset-2 dark:text-brand-100";

function Helpdesk({ config }: { config: ShopConfig }) {
  return (
    <>
      call our helpdesk on{" "}
      <a href={phoneHref(config.phone)} className={linkClass}>
        {config.phone}
      </a>{" "}
      or write to{" "}
      <a href={`mailto:${config.email}`} className={linkClass}>
        {config.email}
      </a>
    </>
  );
}

/** Spec section 2, "Shipping pop-up". */
export function ShippingDialog({ open, onClose, config }: CareDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Shipping">
      <div className="space-y-3 text-stone-700 dark:text-stone-300">
        <p>
          International and domestic orders are shipped through registered courier companies or by speed post.
        </p>
        <p>
          Orders are handed over to the courier within 3-5 days of ordering. After that, delivery depends on
          the courier company or postal service, and {config.shopName} is not liable for any delay caused by
          them.
        </p>
        <p>We deliver to the address you give when ordering, and confirm the shipment to you by e-mail.</p>
        <p>
          Questions about a delivery? <Helpdesk config={config} />.
        </p>
        <p>
          <Link to="/shipping-delivery" onClick={onClose} className={linkClass}>
            Read the full shipping and delivery policy
          </Link>
        </p>
      </div>
    </Dialog>
  );
}

/** Spec section 2, "Returns pop-up". */
export function ReturnsDialog({ open, onClose, config }: CareDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title="Returns and cancellations">
      <div className="text-stone-700 dark:text-stone-300">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            Orders can be cancelled only within 6-8 days of ordering, and only if they have not been shipped
            yet.
          </li>
          <li>Perishable items cannot be cancelled, except when there is a problem with their quality.</li>
          <li>
            Items that arrive damaged or defective, or not as shown on our site, must be reported within 6-8
            days of receiving them.
          </li>
          <li>Products that carry a manufacturer's warranty are handled by the manufacturer.</li>
          <li>Approved refunds are processed within 6-8 days.</li>
        </ul>
        <p className="mt-3">
          To report a problem, <Helpdesk config={config} />.
        </p>
        <p className="mt-3">
          <Link to="/cancellation-refund" onClick={onClose} className={linkClass}>
            Read the full cancellation and refund policy
          </Link>
        </p>
      </div>
    </Dialog>
  );
}
