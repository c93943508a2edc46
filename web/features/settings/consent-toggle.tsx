import { type ReactNode, useId, useState } from "react";
import type { MarketingConsent } from "../../../common/cart-reminders.ts";
import { formatDateTime } from "../../../common/india-time.ts";
import { isApiError } from "../../lib/api.ts";

/**
 * One of the account's consents to reminders (by e-mail, on WhatsApp), changed here and saved at once: the box
 * shows the shopper's choice at once, a refusal puts it back and says why, and below it stands when and how
 * the answer now standing was given.
 */
export function ConsentToggle<C extends MarketingConsent>({
  consent,
  name,
  title,
  detail,
  asSwitch = false,
  save,
  said,
  failed,
  sources,
}: {
  consent: C;
  name: string;
  title: string;
  /** The line under the title, from the answer as it stands. */
  detail: (standing: C) => ReactNode;
  /** Drawn as an on/off switch, described by the line under its title. */
  asSwitch?: boolean;
  /** Sends the new answer; `standing` is the answer it replaces. */
  save: (consented: boolean, standing: C) => Promise<C>;
  /** What the shopper reads once the answer is saved. */
  said: (consented: boolean) => string;
  /** What a failure other than the server's refusal says. */
  failed: string;
  /** How each kind of answer was given, as the "You said yes ..." line words it. */
  sources: Record<string, string>;
}) {
  const detailId = useId();
  const [standing, setStanding] = useState(consent);
  const [status, setStatus] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = async (consented: boolean) => {
    const before = standing;
    setStanding({ ...standing, consented });
    setSaving(true);
    setStatus("Saving…");
    try {
      setStanding(await save(consented, before));
      setStatus(said(consented));
    } catch (caught) {
      setStanding(before);
      setStatus(isApiError(caught) ? caught.message : failed);
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          role={asSwitch ? "switch" : undefined}
          name={name}
          checked={standing.consented}
          aria-checked={asSwitch ? standing.consented : undefined}
          disabled={saving}
          aria-describedby={asSwitch ? detailId : undefined}
          onChange={(event) => change(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">{title}</span>
          <span id={asSwitch ? detailId : undefined} className="text-stone-600 dark:text-stone-400">
            {detail(standing)}
          </span>
        </span>
      </label>
      <p role="status" className="mt-1 min-h-5 pl-8 text-sm text-stone-600 dark:text-stone-400">
        {status ?? ""}
      </p>
      {standing.since && standing.source ? (
        <p className="mt-1 pl-8 text-sm text-stone-600 dark:text-stone-400">
          {standing.consented ? "You said yes" : "You said no"} {sources[standing.source] ?? ""} on{" "}
          {formatDateTime(standing.since)}.
        </p>
      ) : null}
    </>
  );
}
