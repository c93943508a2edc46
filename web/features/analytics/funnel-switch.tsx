import { useState } from "react";
import { cardClass } from "../../components/card.tsx";
import { api } from "../../lib/api.ts";

/**
 * The owner's switch for counting the funnel (docs/decisions/090), on the admin settings page: saved at once,
 * and said so. Off, the shop counts no visit from the next moment, on every instance.
 */
export function FunnelCountingSwitch({ counting }: { counting: boolean }) {
  const [on, setOn] = useState(counting);
  const [busy, setBusy] = useState(false);
  const [saying, setSaying] = useState("");
  const change = async (wanted: boolean) => {
    setBusy(true);
    setOn(wanted);
    try {
      await api("/admin/analytics/funnel/settings", { method: "PUT", body: { counting: wanted } });
      setSaying(
        wanted
          ? "Saved: visits are counted for the funnel from now on."
          : "Saved: no visit is counted from now on. The counts so far stay.",
      );
    } catch {
      setOn(!wanted);
      setSaying("Not saved: try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <section id="funnel-counting" aria-labelledby="funnel-counting-heading" className={`${cardClass} mt-8`}>
      <h2 id="funnel-counting-heading" className="font-serif text-xl font-semibold">
        Visits counted for the funnel
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        The shop counts, from its own pages, how many visitors view a product, add to the cart, reach
        checkout, order and pay, shown on the dashboard. Nothing is stored on shoppers' devices and no outside
        service is involved; a visitor is a code that changes every day and cannot be traced back. Visitors
        whose browser asks not to be tracked are never counted.
      </p>
      <label className="mt-3 inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-5"
          checked={on}
          disabled={busy}
          onChange={(event) => void change(event.currentTarget.checked)}
        />
        Count visits for the funnel
      </label>
      <p role="status" className="text-sm text-stone-600 dark:text-stone-400">
        {saying}
      </p>
    </section>
  );
}
