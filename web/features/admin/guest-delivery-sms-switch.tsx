import type { GuestDeliverySms } from "../../../common/schemas/settings.ts";
import { InstantSwitch } from "../../components/instant-switch.tsx";
import { api } from "../../lib/api.ts";

/** The owner's choice to text guests their parcel's news (docs/decisions/093), saved at once. */
export function GuestDeliverySmsSwitch({ on }: { on: boolean }) {
  return (
    <InstantSwitch
      id="guest-delivery-sms"
      heading="Guests' parcel news by SMS"
      label="Text guests their parcel's news"
      initial={on}
      save={(wanted) =>
        api<GuestDeliverySms>("/admin/settings/guest-delivery-sms", { method: "PUT", body: { on: wanted } })
      }
      said={(wanted) =>
        wanted
          ? "Saved: guests are texted from the next parcel news on."
          : "Saved: guests get their parcel's news by e-mail only from now on."
      }
    >
      Shoppers who order without an account get each step of their parcel (shipped, out for delivery,
      delivered, or not delivered with a way to answer) by e-mail, and on WhatsApp when they asked for it.
      Turned on, a guest who did not choose WhatsApp is also texted each step at the mobile of the order.
      Every SMS is charged to you by your SMS provider.
    </InstantSwitch>
  );
}
