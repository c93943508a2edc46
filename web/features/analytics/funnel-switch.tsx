import { InstantSwitch } from "../../components/instant-switch.tsx";
import { api } from "../../lib/api.ts";

/**
 * The owner's switch for counting the funnel (docs/decisions/090), on the admin settings page: saved at once,
 * and said so. Off, the shop counts no visit from the next moment, on every instance.
 */
export function FunnelCountingSwitch({ counting }: { counting: boolean }) {
  return (
    <InstantSwitch
      id="funnel-counting"
      heading="Visits counted for the funnel"
      label="Count visits for the funnel"
      initial={counting}
      save={(wanted) =>
        api("/admin/analytics/funnel/settings", { method: "PUT", body: { counting: wanted } })
      }
      said={(wanted) =>
        wanted
          ? "Saved: visits are counted for the funnel from now on."
          : "Saved: no visit is counted from now on. The counts so far stay."
      }
    >
      The shop counts, from its own pages, how many visitors view a product, add to the cart, reach checkout,
      order and pay, shown on the dashboard. Nothing is stored on shoppers' devices and no outside service is
      involved; a visitor is a code that changes every day and cannot be traced back. Visitors whose browser
      asks not to be tracked are never counted.
    </InstantSwitch>
  );
}
