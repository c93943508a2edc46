import { type ReactNode, useId, useState } from "react";
import { cardClass } from "./card.tsx";

/**
 * An owner's on/off choice on the admin settings page that is saved the moment it is ticked, and says so
 * (the funnel's counting, guests' parcel news by SMS). A failed save puts the box back and says it was not
 * saved, so what is shown is always what stands.
 */
export function InstantSwitch({
  id,
  heading,
  label,
  initial,
  save,
  said,
  children,
}: {
  id: string;
  heading: string;
  label: string;
  initial: boolean;
  save: (on: boolean) => Promise<unknown>;
  /** What the owner reads once the choice is saved. */
  said: (on: boolean) => string;
  /** What the choice does, read before the box. */
  children: ReactNode;
}) {
  const headingId = useId();
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [saying, setSaying] = useState("");
  const change = async (wanted: boolean) => {
    setBusy(true);
    setOn(wanted);
    try {
      await save(wanted);
      setSaying(said(wanted));
    } catch {
      setOn(!wanted);
      setSaying("Not saved: try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <section id={id} aria-labelledby={headingId} className={`${cardClass} mt-8`}>
      <h2 id={headingId} className="font-serif text-xl font-semibold">
        {heading}
      </h2>
      <div className="mt-1 text-sm text-stone-600 dark:text-stone-400">{children}</div>
      <label className="mt-3 inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="size-5 accent-brand-700"
          checked={on}
          disabled={busy}
          onChange={(event) => void change(event.currentTarget.checked)}
        />
        {label}
      </label>
      <p role="status" className="text-sm text-stone-600 dark:text-stone-400">
        {saying}
      </p>
    </section>
  );
}
